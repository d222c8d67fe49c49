"""``--verbose`` and ``--debug``: where agenttui's log records go (none by default).

* ``--verbose`` (or ``AGENTTUI_LOG=info``): INFO and above on stderr. In the
  app, stderr is the screen, so there they go to the log file instead.
* ``--debug`` (or ``AGENTTUI_LOG=debug``, ``AGENTTUI_DEBUG=1``): DEBUG and
  above, also from the libraries (the openai client logs each request), to
  ``debug.log`` in the log folder (``agenttui paths``: ``log_dir``), rotated
  at :data:`MAX_BYTES` with :data:`BACKUPS` old files kept; the path is said
  on stderr once.
* Every record, on either, goes through :class:`RedactingFilter` first: the
  message, its arguments and its traceback with secrets replaced
  (:func:`agenttui.security.redact_secrets`), as the crash log does. The
  folder is 0700 and the files 0600: a debug log holds what was asked.

The flags themselves are :mod:`agenttui.cli.log_flags` (this module is
imported only when one of them, or the environment, asks for a log).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path

LOG_NAME = "debug.log"
MAX_BYTES = 5 * 1024 * 1024
BACKUPS = 3
# Libraries whose DEBUG is a line per socket event or per lock: INFO is their useful level.
_CHATTY = ("httpcore", "httpcore2", "hpack", "asyncio", "markdown_it", "filelock", "urllib3")


class RedactingFilter(logging.Filter):
    """Replaces a record's message, arguments and traceback by their redacted text."""

    def filter(self, record: logging.LogRecord) -> bool:
        from agenttui.security import redact_secrets

        try:
            message = record.getMessage()
        except Exception as exc:  # noqa: BLE001 -- a bad format string still leaves a line
            message = f"{record.msg!r} (unformattable: {exc})"
        record.msg, record.args = redact_secrets(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact_secrets(record.exc_text)
        if record.stack_info:
            record.stack_info = redact_secrets(record.stack_info)
        return True


def _private_rotator(source: str, dest: str) -> None:
    """Rotate, then start the next file 0600 (the handler reopens it in append mode)."""
    from agenttui.core.files import private_file

    os.replace(source, dest)
    private_file(Path(source))


def log_file_handler(level: int, environ: Mapping[str, str]) -> tuple[logging.Handler, Path] | None:
    """A rotating handler on the first writable log folder, and its path; None if none is."""
    import logging.handlers  # sockets, pickle, queues: only when a log file is asked for

    from agenttui.core.crash_log import state_dirs
    from agenttui.core.files import ensure_dir, private_file

    for directory in state_dirs("log", environ):
        try:
            ensure_dir(directory)
            path = private_file(directory / LOG_NAME)
            handler = logging.handlers.RotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS,
                                                           encoding="utf-8")
        except OSError:
            continue
        handler.rotator = _private_rotator
        handler.setLevel(level)
        handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"))
        return handler, path
    return None


def configure(verbose: bool, debug: bool, *, to_screen: bool, environ: Mapping[str, str] | None = None) -> None:
    """Attach the handlers the flags and environment ask for; nothing when they ask for none.

    ``to_screen``: stderr is free for log lines (a command); False for the app, whose screen it is."""
    from agenttui.cli.log_flags import wanted_level

    env = os.environ if environ is None else environ
    level = wanted_level(verbose, debug, env)
    if level is None:
        return
    root = logging.getLogger()
    redact = RedactingFilter()
    if level == logging.INFO and to_screen:
        handler: logging.Handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("agenttui: %(levelname)s %(name)s: %(message)s"))
    else:
        made = log_file_handler(level, env)
        if made is None:
            print("agenttui: no writable log folder; logging is off", file=sys.stderr)
            return
        handler, path = made
        print(f"agenttui: logging {logging.getLevelName(level)} to {path} (secrets redacted)", file=sys.stderr)
    handler.addFilter(redact)
    root.addHandler(handler)
    root.setLevel(level)
    for name in _CHATTY:
        logging.getLogger(name).setLevel(max(level, logging.INFO))
