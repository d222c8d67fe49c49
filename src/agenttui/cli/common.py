"""Helpers shared by the headless commands (docs/cli.md).

Exit codes: 0 ok, 1 refused/failed (message on stderr), 2 usage. Problems the
core found while loading (a broken config, a corrupt memory file moved
aside) go to stderr as warnings: the command still runs on what is left.
"""

from __future__ import annotations

import argparse
import sys

# Model/tool text may carry terminal escapes: shown, never run. One policy for the
# CLI and the UI (agenttui.ui.inert re-exports the same functions); fail/warn apply
# it too, so an endpoint's error text or a model's tool name cannot act on the
# terminal. ``exact`` is for what will run (a shell command in an approval line).
from agenttui.core.visible_text import exact as exact  # re-exported for the commands
from agenttui.core.visible_text import inert_text as inert

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `--version` stays at ~95 imports
if TYPE_CHECKING:
    from agenttui.bootstrap import Services

PROG = "agenttui"


def fail(message: str, code: int = 1) -> int:
    print(f"{PROG}: {inert(message)}", file=sys.stderr)
    return code


def warn(message: str) -> None:
    print(f"{PROG}: warning: {inert(message)}", file=sys.stderr)


def json_text(value: object, **kwargs: object) -> str:
    """``json.dumps`` whose output never carries a raw control or invisible character.

    JSON escapes C0 controls but, with ``ensure_ascii=False``, passes C1
    controls (an 8-bit CSI/OSC), bidi and format characters through; those are
    written as ``\\uXXXX`` instead -- the same JSON value, inert on a terminal.
    """
    import json
    import re

    from agenttui.core.visible_text import needs_escape

    text = json.dumps(value, ensure_ascii=False, **kwargs)  # type: ignore[arg-type]
    return re.sub(r"[^\x20-\x7e\n]",
                  lambda m: _json_escape(m.group()) if needs_escape(m.group()) else m.group(), text)


def _json_escape(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # astral: a UTF-16 surrogate pair, as JSON requires
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def stdin_is_tty() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):  # closed stdin
        return False


def add_yes(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--yes", "-y", action="store_true",
                        help="do it without asking (required when stdin is not a terminal)")


def confirm_destructive(args: argparse.Namespace, action: str, word: str | None = None) -> bool:
    """``--yes`` proceeds; no terminal and no ``--yes`` refuses; a terminal asks.

    ``action`` completes "refusing to …" / "… ?" (e.g. "delete profile 'work'").
    With ``word`` the user must type it exactly (the most destructive actions).
    """
    if getattr(args, "yes", False):
        return True
    if not stdin_is_tty():
        fail(f"refusing to {action} without --yes (stdin is not a terminal)")
        return False
    try:
        if word:
            answer = input(f"This will {action}. Type {word!r} to confirm: ")
            ok = answer.strip() == word
        else:
            ok = input(f"{action[:1].upper()}{action[1:]}? [y/N] ").strip().lower() in ("y", "yes")
    except EOFError:
        ok = False
    if not ok:
        fail("cancelled; nothing was changed")
    return ok


def paths():
    from agenttui.core.config.paths import Paths

    return Paths.from_env()


def open_services(args: argparse.Namespace):
    """Build the services for ``--profile`` (or the cwd's profile); ``None`` after
    printing why, when that is impossible (unknown profile, bad name)."""
    from agenttui.bootstrap import build_services
    from agenttui.core.config.paths import InvalidProfileName
    from agenttui.core.config.profiles import ProfileError

    try:
        services = build_services(profile=getattr(args, "profile", None))
    except (ProfileError, InvalidProfileName) as exc:
        fail(str(exc))
        return None
    _OPENED.append(services)
    report_problems(services)
    return services


# Services this process opened: their history store may find problems (a corrupt
# database moved aside) only when the command first uses it, after the warnings above.
_OPENED: list = []
_REPORTED: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _REPORTED:
        _REPORTED.add(message)
        warn(message)


def report_problems(services: Services) -> None:
    if services.config_error:
        _warn_once(f"config not loaded, using defaults: {services.config_error}")
    for message in services.config_warnings:
        _warn_once(message)
    for source in (services.profiles, services.memory):
        for message in getattr(source, "problems", None) or ():
            _warn_once(message)
    for message in services.profiles.warnings:
        _warn_once(message)


def report_late_problems() -> None:
    """Problems the stores found while the command ran (a corrupt history moved aside)."""
    for services in _OPENED:
        history = services.history_if_open()  # never open it just for this
        for message in getattr(history, "problems", None) or ():
            _warn_once(message)


def report_failure(exc: BaseException, argv: list[str]) -> int:
    """The error policy (exit 1): an expected failure is one sentence; a bug is one
    line naming its redacted crash log (never a traceback)."""
    from agenttui.core.errors import explain

    message = explain(exc)
    if message is not None:
        return fail(message)
    if "--incognito" in argv:  # incognito writes no file, not even a crash log (core/incognito.py)
        return fail(f"internal error ({type(exc).__name__}); incognito writes no crash log: "
                    "run the same without --incognito to get one")
    from agenttui.core.crash_log import write_crash_log

    log = write_crash_log(exc, argv)
    where = f"details are in {log}" if log else "no crash log could be written"
    return fail(f"internal error ({type(exc).__name__}); {where} "
                "(secrets redacted). Please report it with that file.")


def backup_first(what: str) -> str | None:
    """A full backup before a destructive command; prints where it went."""
    from agenttui.core.backup.archive import create_backup

    try:
        path = create_backup(paths())
    except Exception as exc:  # no backup, no destruction
        fail(f"backup before {what} failed ({exc}); nothing was changed")
        return None
    print(f"backup written to {path}")
    return str(path)
