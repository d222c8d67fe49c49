"""The user's own editor (``$VISUAL``, ``$EDITOR``, else ``vi``), run with the terminal handed over.

Two callers: the project-notes screen edits its Markdown files in place, and the
chat composes a draft (``alt+e`` or ``/edit``). ``App.suspend()`` gives the editor
the terminal and the app redraws whole when it exits.

A draft is not memory: it is written where it is least likely to reach a disk and
gone as soon as the editor exits -- a directory of its own (mode 0700) in
``$XDG_RUNTIME_DIR`` or ``/dev/shm`` (both RAM-backed on Linux; the editor's swap
and backup files land there too), else the system's temporary directory. A
secret pasted into the draft is redacted when the message is sent, like any other.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App


def editor_command(path: Path) -> list[str]:
    """The user's editor on ``path`` (``$VISUAL`` first: it may hold arguments, "code --wait")."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    return [*shlex.split(editor), str(path)]


def run_editor(app: App, path: Path) -> str | None:
    """Run the editor on ``path`` with the terminal handed over; the problem, or None when it ran
    and exited 0."""
    command = editor_command(path)
    try:
        with app.suspend():
            finished = subprocess.run(command, check=False)
    except Exception as exc:  # SuspendNotSupported (tests, web), the editor not found
        return f"Could not run {command[0]!r}: {exc}"
    if finished.returncode != 0:
        return f"{command[0]!r} exited with status {finished.returncode}"
    return None


def _private_dir() -> Path:
    for base in (os.environ.get("XDG_RUNTIME_DIR"), "/dev/shm"):
        if base and os.path.isdir(base) and os.access(base, os.W_OK | os.X_OK):
            try:
                return Path(tempfile.mkdtemp(prefix="agenttui-draft-", dir=base))
            except OSError:
                continue
    return Path(tempfile.mkdtemp(prefix="agenttui-draft-"))  # mkdtemp makes it 0700


def edit_draft(app: App, text: str) -> tuple[str | None, str | None]:
    """``text`` edited in the user's editor: (the new text, None), or (None, the problem) when the
    editor could not run or exited with an error (``:cq`` in vi: "drop my changes"). The file is
    removed either way."""
    folder = _private_dir()
    try:
        path = folder / "message.md"  # .md: editors highlight the Markdown a reply is written in
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
        problem = run_editor(app, path)
        if problem is not None:
            return None, f"{problem}: the message is as it was"
        edited = path.read_text(encoding="utf-8", errors="replace")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    # an editor ends the file with a newline the user did not type as part of the message
    return edited.removesuffix("\n"), None
