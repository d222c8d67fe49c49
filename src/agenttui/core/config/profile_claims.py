"""Which processes have a profile's history open, so its folder is not moved from under them.

``profile delete`` (the command, the Profiles screen, and sync applying another machine's
deletion) moves the profile's folder to the trash. A process with the profile's history
open kept writing into the moved database: nothing was lost (it was in the trash), but the
app's new messages went where nobody looks, and connections opened later by path (the
embedding index) found no file. So while a history store has its database open it holds a
*claim*: a lock file in ``<profile>/in-use/`` locked by that process for as long as the
connection lives, and a deletion is refused while any claim is held, naming the processes.

Claims are ``filelock`` locks (``flock`` on POSIX, ``msvcrt`` on Windows) on files of their
own, never on the database: a POSIX ``fcntl`` lock taken or dropped on the database file
outside SQLite would drop SQLite's own locks in that process. A process killed leaves its
claim file unlocked; whoever looks next removes such a file once it is older than
``STALE_AFTER_S`` (younger, it may be a claim being taken: created, not locked yet).
The claim files end in ``.lock``, which backups leave out.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from filelock import BaseFileLock

CLAIMS_DIR = "in-use"
STALE_AFTER_S = 60.0


class ProfileClaim:
    """This process's claim on the profile folder ``folder`` (take, then drop once)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / CLAIMS_DIR / f"{os.getpid()}-{secrets.token_hex(4)}.lock"
        self._lock: BaseFileLock | None = None

    def take(self) -> None:
        """Hold the claim; a folder that cannot hold one (read-only) is not claimed."""
        from filelock import FileLock

        from agenttui.core import files

        try:
            files.ensure_dir(self.path.parent)
            # not thread-local: the store may close in another thread than the one that opened it;
            # a second's wait covers a deleter's probe of this very file (microseconds)
            lock = FileLock(str(self.path), timeout=1.0, mode=files.FILE_MODE, thread_local=False)
            lock.acquire()
        except OSError:  # filelock's Timeout is one
            return  # a claim is a courtesy to deleters; never a reason the history cannot open
        self._lock = lock

    def drop(self) -> None:
        lock, self._lock = self._lock, None
        if lock is None:
            return
        lock.release()
        with contextlib.suppress(OSError):
            self.path.unlink()


def holders(folder: Path, now: float | None = None) -> list[int]:
    """The process ids holding a claim on ``folder`` (this process's own claims too)."""
    from filelock import FileLock, Timeout

    claims = folder / CLAIMS_DIR
    try:
        paths = sorted(claims.glob("*.lock"))
    except OSError:
        return []
    held: list[int] = []
    now = time.time() if now is None else now
    for path in paths:
        probe = FileLock(str(path), timeout=0, thread_local=False)
        try:
            probe.acquire()
        except Timeout:
            pid = path.name.split("-", 1)[0]
            held.append(int(pid) if pid.isdigit() else -1)
            continue
        except OSError:
            continue
        try:
            if now - path.stat().st_mtime > STALE_AFTER_S:  # its process is gone
                path.unlink()
        except OSError:
            pass
        finally:
            probe.release()
    return held
