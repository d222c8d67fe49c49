"""Another process holding the memory file's lock, and the app's /remember waiting on it.

A child python with ``filelock`` really holds the lock (as a second agenttui would), so
``/remember`` waits in the store exactly as it does for users, up to the lock's timeout
(raised here: a busy machine must not turn the wait into a failure).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agenttui.core import files
from agenttui.ui.app import make_app
from tests.ui.helpers import chat, send, wait_until

HOLD = (
    "import sys\nfrom filelock import FileLock\nlock = FileLock(sys.argv[1])\nlock.acquire()\n"
    "print('held', flush=True)\nsys.stdin.read()\n"
)


@contextmanager
def lock_held_elsewhere(path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holds ``path``'s lock (the store's sibling ``.lock``) until the block ends."""
    path.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path.with_name(path.name + ".lock"))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        yield holder
    finally:
        release(holder)


def release(holder: subprocess.Popen[str]) -> None:
    if holder.stdin is not None and not holder.stdin.closed:
        holder.stdin.close()  # the child reads to EOF and exits: its lock goes with it
    holder.wait(timeout=60)


@dataclass
class Waiting:
    app: Any
    pilot: Any
    holder: subprocess.Popen[str]

    @property
    def pane(self) -> Any:
        return chat(self.app)

    def release(self) -> None:
        release(self.holder)


@asynccontextmanager
async def remember_waiting(
    chat_services, monkeypatch, size, note: str = "I drink jasmine tea"
) -> AsyncIterator[Waiting]:
    """The app running, ``/remember note`` sent and waiting on the lock another process holds."""
    monkeypatch.setattr(files, "LOCK_TIMEOUT_S", 600.0)
    chat_services.settings.recall.semantic = False
    app = make_app(chat_services)
    with lock_held_elsewhere(chat_services.paths.user_memory_file) as holder:
        async with app.run_test(size=size) as pilot:
            pane = chat(app)
            await send(pilot, f"/remember {note}")
            await wait_until(pilot, lambda: pane.turns.command == "remember" and pane.prompt.text == "")
            yield Waiting(app, pilot, holder)
