"""Noticing memory and history changed by someone else.

``agenttui memory add`` in another shell, a hand edit of ``user.json``, an
``agenttui ask`` in another terminal, or ``agenttui restore`` while the app
runs: the panes must show what is on disk now. Polled (the app calls
:meth:`DataWatch.poll` about once a second from a worker thread): a poll is
two or three ``stat`` calls and one ``PRAGMA data_version``, microseconds --
cheaper than a file-notification library and the same on every platform and
file system (inotify misses NFS, and a restore replaces whole directories).

* A memory file changed when its (inode, mtime, size) did; the store's cache
  is keyed the same way, so the next read re-parses it.
* History changed when SQLite's ``data_version`` moved: it counts commits of
  *other* connections only, so the app's own writes do not trigger it.
* History was *replaced* when the database file at the path is another file
  (inode) than the one seen before, or is gone: a restore moved the old one
  to the trash, where the open connection would go on writing. The caller
  closes the store's connection (it reopens lazily at the path).

The first poll only takes a baseline; a changed set of paths (a profile
switch) takes a new one and reports nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class DataChanges:
    memory: bool = False
    history: bool = False
    replaced: bool = False  # the history database file itself was swapped or removed

    def __bool__(self) -> bool:
        return self.memory or self.history or self.replaced


def _stat_key(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


class DataWatch:
    def __init__(self) -> None:
        self._paths: tuple[tuple[Path, ...], Path] | None = None
        self._memory: dict[Path, tuple[int, int, int] | None] = {}
        self._db: tuple[int, int] | None = None
        self._version: int | None = None

    def poll(self, memory_files: Sequence[Path], db_path: Path,
             data_version: Callable[[], int | None]) -> DataChanges:
        """What changed since the last poll. ``data_version`` reads the store's
        ``PRAGMA data_version`` (None when it cannot be read); it is called only
        while the database is still the same file."""
        paths = (tuple(memory_files), Path(db_path))
        memory_now = {p: _stat_key(p) for p in paths[0]}
        db_now = _file_id(paths[1])
        if paths != self._paths:  # first poll, or another profile: a baseline only
            self._paths, self._memory, self._db = paths, memory_now, db_now
            self._version = data_version() if db_now is not None else None
            return DataChanges()
        memory = memory_now != self._memory
        self._memory = memory_now
        replaced = self._db is not None and db_now != self._db
        appeared = self._db is None and db_now is not None  # created since: whatever it holds is new
        self._db = db_now
        if replaced:
            self._version = None  # the caller reopens; the next poll takes the new baseline
            return DataChanges(memory=memory, history=True, replaced=True)
        version = data_version() if db_now is not None else None
        history = appeared or (version is not None and self._version is not None and version != self._version)
        if version is not None:
            self._version = version
        return DataChanges(memory=memory, history=history)
