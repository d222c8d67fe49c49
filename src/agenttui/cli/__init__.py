"""Command line entry point: ``agenttui [--profile NAME] [COMMAND …]``.

Each command group lives in its own module exposing ``register(subparsers)``;
modules import only the standard library at top level so that building the
parser costs little. With no command (``agenttui`` or ``agenttui --profile
NAME``) the parser is not built at all and the Textual app starts at once
(imported lazily): importing the eight command modules and argparse would
otherwise sit in front of the UI's first frame. When the command is named
(``agenttui ask …``), only its module is imported and registered: the others
would only slow ``ask``'s first token; ``agenttui --help`` still lists all.

Exit codes: 0 ok, 1 refused/failed (message on stderr), 2 usage
(also an argument that is not UTF-8), 130 interrupted. Expected failures (disk
full, read-only, a lock held, a damaged file, ...) are one message from
:func:`agenttui.core.errors.explain`; anything else is a bug: one line naming
a redacted crash log, never a traceback (:mod:`agenttui.core.crash_log`).
"""

from __future__ import annotations

import importlib
import os
import sys
from types import SimpleNamespace

from agenttui import __version__

COMMAND_MODULES = ("ask", "memory", "history", "usage", "profile", "config", "backup", "key", "paths", "doctor",
                   "mcp", "completion", "sync")


def build_parser(only: str | None = None):
    """The full parser, or (``only``) one with just that command registered."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="agenttui",
        description="Chat with a personal AI agent that remembers you.",
    )
    parser.add_argument("--version", action="version", version=f"agenttui {__version__}")
    parser.add_argument("--profile", metavar="NAME", default=None,
                        help="use this profile instead of the one bound to the current directory")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES if only is None else (only,):
        importlib.import_module(f"agenttui.cli.{name}_cmd").register(subparsers)
    from agenttui.cli.log_flags import add_logging_flags

    add_logging_flags(parser)  # after the commands: each sub-parser takes them too
    return parser


def _tui_only(argv: list[str]) -> SimpleNamespace | None:
    """The arguments when ``argv`` just starts the UI, else None (full parser).

    A start-up trick kept here, not with the others in :mod:`agenttui.ui.startup`
    (step 7 there says why)."""
    if not argv:
        return SimpleNamespace(command=None, profile=None)
    if len(argv) == 2 and argv[0] == "--profile" and argv[1] and not argv[1].startswith("-"):
        return SimpleNamespace(command=None, profile=argv[1])
    if len(argv) == 1 and argv[0].startswith("--profile=") and len(argv[0]) > len("--profile="):
        return SimpleNamespace(command=None, profile=argv[0].split("=", 1)[1])
    return None


def _named_command(argv: list[str]) -> str | None:
    """The command ``argv`` names (after the global options), if it is a known one."""
    while argv:
        if argv[0] == "--profile":
            argv = argv[2:]
        elif argv[0].startswith("--profile=") or argv[0] in ("--debug", "--verbose"):
            argv = argv[1:]
        else:
            break
    return argv[0] if argv and argv[0] in COMMAND_MODULES else None


def main(argv: list[str] | None = None) -> int:
    args_list = sys.argv[1:] if argv is None else list(argv)
    fast = _tui_only(args_list)
    if fast is not None:
        from agenttui.cli.tui import run_tui

        if "AGENTTUI_LOG" in os.environ or "AGENTTUI_DEBUG" in os.environ:  # else logging is not imported
            from agenttui.cli.logging_setup import configure

            configure(False, False, to_screen=False)
        return run_tui(fast)
    bad = _not_utf8(args_list)
    if bad:
        print(f"agenttui: {bad}", file=sys.stderr)
        return 2
    parser = build_parser(_named_command(args_list))
    args = parser.parse_args(argv)
    if args.verbose or args.debug or "AGENTTUI_LOG" in os.environ or "AGENTTUI_DEBUG" in os.environ:
        _start_logging(args, args_list)
    if args.command is None:
        from agenttui.cli.tui import run_tui

        return run_tui(args)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 -- the error policy: a sentence, or a crash log
        from agenttui.cli.common import report_failure

        return report_failure(exc, args_list)
    finally:
        from agenttui.cli.common import report_late_problems

        report_late_problems()


def _start_logging(args, args_list: list[str]) -> None:
    """Only when a log is asked for: ``logging`` stays unimported before ``ask``'s first token."""
    import logging

    from agenttui.cli.logging_setup import configure

    configure(args.verbose, args.debug, to_screen=args.command is not None)
    # the first line of a debug log says what ran (redacted like every line)
    logging.getLogger("agenttui.cli").debug("agenttui %s, Python %s, arguments %s", __version__,
                                            sys.version.split()[0], args_list)


def _not_utf8(argv: list[str]) -> str | None:
    """Why an argument is refused: bytes that are not UTF-8 reach Python as lone
    surrogates (PEP 383), and storing them would fail later, or worse, half-way."""
    for n, arg in enumerate(argv, 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as exc:
            raw = arg[exc.start:exc.end].encode("utf-8", "surrogateescape")[:8]
            return (f"argument {n} is not valid UTF-8 text (bytes {raw.hex(' ')} at position "
                    f"{exc.start}); nothing was done. Type it again in a UTF-8 terminal "
                    "(LANG=C.UTF-8) or convert it (iconv -f latin1 -t utf-8).")
    return None
