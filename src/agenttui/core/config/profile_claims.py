"""Which processes have a profile's history open, so its folder is not moved from under them.

``profile delete`` (the command, the Profiles screen, and sync applying another machine's
deletion) moves the profile's folder to the trash. A process with the profile's history
open kept writing into the moved database: nothing was lost (it was in the trash), but the
app's new messages went where nobody looks, and connections opened later by path (the
embedding index) found no file. So while a history store has its database open it holds a
*claim*: a lock file in ``<profile>/in-use/`` locked by that process for as long as the
connection lives, and a deletion is refused while any claim is held, naming the processes.

Claims are ``flock`` locks (``msvcrt.locking`` on Windows) on files of their own, never on
the database: a POSIX ``fcntl`` lock taken or dropped on the database file outside SQLite
would drop SQLite's own locks in that process. Not ``filelock``, which the write locks use:
importing it costs 20-30 ms, and every first open of a history would pay it, in the app
right after the first frame. A process killed leaves its claim file unlocked; whoever looks
next removes such a file once it is older than ``STALE_AFTER_S`` (younger, it may be a
claim being taken: created, not locked yet). The claim files end in ``.lock``, which
backups leave out.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sys
import time
from pathlib import Path

CLAIMS_DIR = "in-use"
STALE_AFTER_S = 60.0
TAKE_TRIES = 50  # a deleter's probe holds a young claim file for microseconds; 50 x 20 ms outlast it

# Claims still held when the process exits normally: a store used again after its close
# reopens and claims anew, and nobody closes it a second time. Their files go at exit; a
# killed process's stay until a later claim or deletion sweeps them (STALE_AFTER_S).
_live: set[ProfileClaim] = set()


def _try_lock(fd: int) -> bool:
    """Lock ``fd`` exclusively without waiting; False when another open file holds it."""
    try:
        if sys.platform == "win32":
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


class ProfileClaim:
    """This process's claim on the profile folder ``folder`` (take, then drop once)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / CLAIMS_DIR / f"{os.getpid()}-{secrets.token_hex(4)}.lock"
        self._fd: int | None = None

    def take(self) -> None:
        """Hold the claim; a folder that cannot hold one (read-only) is not claimed: a claim is
        a courtesy to deleters, never a reason the history cannot open."""
        from agenttui.core import files

        try:
            files.ensure_dir(self.path.parent)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, files.FILE_MODE)
        except OSError:
            return
        for _ in range(TAKE_TRIES):
            if _try_lock(fd):
                self._fd = fd
                break
            time.sleep(0.02)
        else:
            os.close(fd)
            return
        if not _live:
            import atexit

            atexit.unregister(_drop_all)  # once, however often the set empties and fills
            atexit.register(_drop_all)
        _live.add(self)
        holders(self.path.parent.parent)  # sweeps the files of claims whose process is gone

    def drop(self) -> None:
        fd, self._fd = self._fd, None
        _live.discard(self)
        if fd is None:
            return
        os.close(fd)  # releases the lock; Windows cannot remove an open file
        with contextlib.suppress(OSError):
            self.path.unlink()


def _drop_all() -> None:
    for claim in list(_live):
        claim.drop()


def holders(folder: Path, now: float | None = None) -> list[int]:
    """The process ids holding a claim on ``folder`` (this process's own claims too)."""
    try:
        paths = sorted((folder / CLAIMS_DIR).glob("*.lock"))
    except OSError:
        return []
    held: list[int] = []
    now = time.time() if now is None else now
    for path in paths:
        try:
            fd = os.open(path, os.O_RDWR)
        except OSError:
            continue  # gone meanwhile: dropped
        try:
            if not _try_lock(fd):
                pid = path.name.split("-", 1)[0]
                held.append(int(pid) if pid.isdigit() else -1)
                continue
            stale = now - os.fstat(fd).st_mtime > STALE_AFTER_S  # its process is gone
        finally:
            os.close(fd)
        if stale:
            with contextlib.suppress(OSError):
                path.unlink()
    return held
