"""Notes other agents gave ``mcp serve``'s ``memory_add``, waiting for the user's accept or reject.

``mcp serve`` runs in a process of its own, started by another agent, with no
user to ask; the app's Memory pane is where the user decides. So the proposal
cannot wait in memory as the app's own model proposals do
(``MemoryStore.pending``): it waits in a small JSON file beside the profile's
memory file (``mcp-review.json``), which both processes read and write under
the same file lock as memory itself (``files.locked``; atomic writes).

Decisions:

* What is held has passed the write gate's checks already (a secret or an
  instruction is refused at once, so the other agent learns why); accepting
  runs the gate again against memory as it is then.
* Nothing held reaches a prompt: the queue is not memory until accepted.
* An unreadable queue file is read as empty and replaced by the next write
  (a proposal is cheap to make again; a broken file must not block memory).
* A note that says what one already waiting says (the same scope, a near
  duplicate as the write gate counts them) is not held again: an agent that
  retries in a new session (so "do not propose it again" no longer binds it)
  put the same row in the pane twice. The one waiting is the answer.
* At most :data:`MAX_HELD` proposals wait; past that the oldest is dropped, so
  an agent in a loop cannot grow the file without bound.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from agenttui.core import files
from agenttui.core.models import MemoryItem

FILE_NAME = "mcp-review.json"
MAX_HELD = 200


class ReviewQueue:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._cache: tuple[tuple[int, int, int] | None, list[MemoryItem]] | None = None

    def items(self) -> list[MemoryItem]:
        """The waiting proposals, oldest first (re-read only when the file changed)."""
        from agenttui.core.memory.file import stat_key

        key = stat_key(self.path)
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, self._read() if key is not None else [])
        return list(self._cache[1])

    def stamp(self) -> tuple[int, int, int] | None:
        """The file's (inode, mtime, size): a change means another process held or took one."""
        from agenttui.core.memory.file import stat_key

        return stat_key(self.path)

    def hold(self, item: MemoryItem, same: Callable[[str, str], bool] | None = None) -> MemoryItem:
        """Hold ``item``; returns it, or the proposal of its scope already waiting that ``same``
        (two texts) says it repeats, in which case nothing is written."""
        with files.locked(self.path):
            held = [i for i in self._read() if i.id != item.id]
            if same is not None:
                twin = next((i for i in held if i.scope == item.scope and same(i.text, item.text)), None)
                if twin is not None:
                    return twin
            held.append(item)
            self._write(held[-MAX_HELD:])
        return item

    def take(self, item_id: str) -> MemoryItem | None:
        """Remove one proposal and return it (None: it is no longer waiting)."""
        with files.locked(self.path):
            held = self._read()
            found = next((i for i in held if i.id == item_id), None)
            if found is not None:
                self._write([i for i in held if i.id != item_id])
        return found

    def _read(self) -> list[MemoryItem]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        out: list[MemoryItem] = []
        for entry in raw.get("items", []) if isinstance(raw, dict) else []:
            try:
                out.append(MemoryItem.from_dict(entry))
            except (KeyError, ValueError, TypeError, AttributeError):
                continue  # one bad entry (a hand edit) costs only itself
        return out

    def _write(self, held: list[MemoryItem]) -> None:
        files.ensure_dir(self.path.parent)
        text = json.dumps({"items": [i.to_dict() for i in held]}, ensure_ascii=False, indent=1)
        files.atomic_write_text(self.path, text + "\n")
        self._cache = None
