"""An upgrade under a running app.

Screens and most commands are imported lazily (start-up speed). If agenttui,
or the UI toolkit it loads lazily, is upgraded or reinstalled while the app
runs, the next lazy import fails ("No module named
agenttui.ui.screens.prompt_inspector", or "cannot import name …") and the app
used to end as if it had a bug. Such an ImportError is a stale installation
when the files it concerns changed after start-up: the directory of the
missing module, or its nearest imported parent package, is gone or was
modified since this module was imported (at app start-up, by the error
policy), or the installed distribution's version differs from the running
one. Then the app says to restart and carries on; otherwise it stays a bug
(a crash log). Pure stdlib, cheap: a few ``stat`` calls, only on failure.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

OWN_PACKAGES = ("agenttui", "textual", "rich")  # our code and the UI stack loaded lazily
STARTED = time.time()  # imported with the app, before any lazy import can fail


def _ours(name: str) -> bool:
    return any(name == top or name.startswith(top + ".") for top in OWN_PACKAGES)


def _package_dirs(name: str) -> list[Path]:
    """The directories that held ``name``: its nearest parent package that is loaded."""
    parts = name.split(".")
    for end in range(len(parts) - 1, 0, -1):
        module = sys.modules.get(".".join(parts[:end]))
        paths = getattr(module, "__path__", None)
        if paths:
            return [Path(p) for p in paths]
    return []


def _changed_since_start(directory: Path) -> bool:
    try:
        return os.stat(directory).st_mtime > STARTED
    except OSError:
        return True  # gone: removed by an uninstall or upgrade


def _installed_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("agenttui")
    except Exception:  # metadata mid-rewrite or gone: no version to compare
        return None


def stale_install_message(error: BaseException) -> str | None:
    """The restart advice if ``error`` is a lazy import broken by an upgrade, else None."""
    if not isinstance(error, ImportError):
        return None
    name = error.name or ""
    if not _ours(name):
        return None
    from agenttui import __version__ as running

    installed = _installed_version()
    if installed is not None and installed != running:
        what = f"agenttui was upgraded from {running} to {installed} while it was running"
    elif any(_changed_since_start(d) for d in _package_dirs(name)):
        what = "agenttui's files changed on disk while it was running (an upgrade or reinstall?)"
    else:
        return None  # nothing changed: a real bug, which deserves its crash log
    return f"{what}, so part of it ({name}) cannot be loaded. Quit (ctrl+q) and start agenttui again."
