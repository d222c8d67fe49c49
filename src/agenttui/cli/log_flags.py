"""``--verbose``, ``--debug`` and ``AGENTTUI_LOG``: which log is asked for (docs in
:mod:`agenttui.cli.logging_setup`, imported only when one is).

The flags are accepted before and after the command (``agenttui --debug ask
…`` and ``agenttui ask --debug …``): :func:`add_logging_flags` gives them to
every sub-parser too. Nothing here imports :mod:`logging`: building the
parser for ``ask`` must not cost its first token anything.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping

ENV = "AGENTTUI_LOG"  # debug | info
DEBUG_ENV = "AGENTTUI_DEBUG"  # 1: as AGENTTUI_LOG=debug
DEBUG = 10  # logging.DEBUG
INFO = 20  # logging.INFO


def add_logging_flags(parser: argparse.ArgumentParser, top: bool = True) -> None:
    """``--verbose`` and ``--debug`` on ``parser`` and every sub-parser below it (module doc)."""
    default: object = False if top else argparse.SUPPRESS  # a sub-parser must not reset the flag to False
    group = parser.add_argument_group("logging") if top else parser
    group.add_argument("--verbose", action="store_true", default=default,
                       help="log INFO and above to stderr (in the app: to the debug log file)")
    group.add_argument("--debug", action="store_true", default=default,
                       help="log DEBUG and above, secrets redacted, to debug.log in the log folder "
                            "(`agenttui paths`: log_dir); the path is printed on stderr")
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # aliases share one parser
                add_logging_flags(sub, top=False)


def wanted_level(verbose: bool, debug: bool, environ: Mapping[str, str]) -> int | None:
    """The level the flags and the environment ask for (the more detailed wins), or None."""
    asked = (environ.get(ENV) or "").strip().lower()
    if debug or asked == "debug" or (environ.get(DEBUG_ENV) or "").strip() not in ("", "0"):
        return DEBUG
    if verbose or asked == "info":
        return INFO
    return None
