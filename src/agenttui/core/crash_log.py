"""Where the details of a bug go, and where unsaved text is rescued to.

* A **crash log** holds the traceback of an exception no rule in
  :mod:`agenttui.core.errors` recognised (a bug): the user sees one line
  with its path instead of a traceback. It is redacted (secrets as in
  history) and holds no message text beyond the exception's own: the
  command line is reduced to its command words.
* A **recovery file** holds messages that could not be saved to history
  (``agenttui ask`` on a full or read-only disk), redacted, so the process
  can fail without losing what the user wrote.

Both go to the platform's state directory (``~/.local/state/agenttui`` on
Linux; ``$AGENTTUI_HOME/log`` and ``$AGENTTUI_HOME/recovery`` when that is
set). When that cannot be written -- the very disk that is full or
read-only -- the system temp directory (often another file system) is
tried; files are 0600 in 0700 folders either way.
"""

from __future__ import annotations

import contextlib
import os
import platform
import sys
import tempfile
import traceback
from collections.abc import Iterable, Mapping
from pathlib import Path

from agenttui.core.config.paths import APP_NAME, HOME_ENV

_COMMAND_WORD = frozenset("abcdefghijklmnopqrstuvwxyz-_")


def state_dirs(kind: str, environ: Mapping[str, str] | None = None) -> list[Path]:
    """Candidate folders for ``kind`` ("log" or "recovery"), best first."""
    env = os.environ if environ is None else environ
    home = env.get(HOME_ENV)
    if home:
        first = Path(home).expanduser() / kind
    else:
        import platformdirs

        base = Path(platformdirs.user_state_dir(APP_NAME, appauthor=False))
        first = base / ("log" if kind == "log" else kind)
    uid = os.getuid() if hasattr(os, "getuid") else os.getpid()
    return [first, Path(tempfile.gettempdir()) / f"{APP_NAME}-{uid}" / kind]


def _write_first(dirs: Iterable[Path], name: str, text: str) -> Path | None:
    from agenttui.core import files

    for directory in dirs:
        with contextlib.suppress(OSError):
            files.ensure_dir(directory)
            path = directory / name
            files.atomic_write_text(path, text)
            return path
    return None


def redact(text: str, extra_patterns: Iterable[str] = ()) -> str:
    try:
        from agenttui.security import redact_secrets

        return redact_secrets(text, tuple(extra_patterns))
    except Exception:  # noqa: BLE001 -- a crash log must not crash; drop rather than leak
        return "[text withheld: redaction failed]"


#: Commands that take an action word (``memory add``); every other word may be the user's text.
_GROUPS = frozenset({"memory", "history", "profile", "backup", "key"})


def command_words(argv: Iterable[str]) -> str:
    """``agenttui memory add "my note"`` -> ``memory add``: no user text in a log.

    Only the command and, for command groups, its action word are kept; a
    question, a note, a search query or a profile name never is.
    """
    words = list(argv)
    if words[:1] == ["--profile"]:
        words = words[2:]
    elif words[:1] and words[0].startswith("--profile="):
        words = words[1:]
    if not words or not set(words[0]) <= _COMMAND_WORD:
        return ""
    kept = words[:1]
    if words[0] in _GROUPS and len(words) > 1 and set(words[1]) <= _COMMAND_WORD and words[1]:
        kept.append(words[1])
    return " ".join(kept)


def write_crash_log(exc: BaseException, argv: Iterable[str] = (),
                    environ: Mapping[str, str] | None = None) -> Path | None:
    """Write the redacted traceback; returns its path (None if nothing could be written)."""
    from agenttui import __version__
    from agenttui.core.files import timestamp_slug

    body = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    text = (f"agenttui {__version__} crash log\n"
            f"python {sys.version.split()[0]} on {platform.platform()}\n"
            f"command: agenttui {command_words(argv)}\n\n{redact(body)}")
    return _write_first(state_dirs("log", environ), f"crash-{timestamp_slug()}-{os.getpid()}.log", text)


def write_recovery(text: str, environ: Mapping[str, str] | None = None,
                   extra_patterns: Iterable[str] = ()) -> Path | None:
    """Write unsaved text (redacted); returns its path, or None if no folder took it."""
    from agenttui.core.files import timestamp_slug

    name = f"unsaved-{timestamp_slug()}-{os.getpid()}.md"
    return _write_first(state_dirs("recovery", environ), name, redact(text, extra_patterns))
