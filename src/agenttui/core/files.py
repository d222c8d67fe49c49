"""Files you can trust (docs/storage.md): private permissions, atomic writes, locks, and
corrupt files moved aside instead of being emptied.

Every writer in the core goes through these helpers so the guarantees hold in
one place:

* directories are 0700 and files 0600 (they hold personal data);
* a write is temp file + fsync + rename + fsync(dir): a crash at any instant
  leaves either the old or the new content, never a torn file;
* ``locked(path)`` is a cross-process lock (``filelock``) for read-modify-write
  cycles, so two app instances never lose each other's updates;
* a file that cannot be parsed is renamed ``NAME.corrupt-<timestamp>`` and
  reported with :class:`CorruptFileError` -- never overwritten.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

DIR_MODE = 0o700
FILE_MODE = 0o600
LOCK_TIMEOUT_S = 30.0
LOCK_POLL_S = 0.002


class CorruptFileError(Exception):
    """A data file could not be read; it has been moved aside (not deleted)."""

    def __init__(self, path: Path, moved_to: Path | None, detail: str) -> None:
        self.path = path
        self.moved_to = moved_to
        self.detail = detail
        where = f"; moved aside to {moved_to}" if moved_to else ""
        super().__init__(f"{path} is not valid ({detail}){where}")


def ensure_dir(path: Path) -> Path:
    """Create ``path`` with 0700, and every parent this call creates too.

    ``Path.mkdir(parents=True)`` gives parents the umask default (often 0755),
    so missing ancestors are created one by one. Existing ancestors are left
    as they are (they may be the user's own folders); ``path`` itself is
    tightened to 0700 if it already exists.
    """
    missing = []
    current = path
    while not current.exists():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for directory in reversed(missing):
        with contextlib.suppress(FileExistsError):  # another process won the race
            directory.mkdir(mode=DIR_MODE)
        with contextlib.suppress(OSError):
            directory.chmod(DIR_MODE)  # mkdir's mode is filtered by the umask
    with contextlib.suppress(OSError):
        if path.stat().st_mode & 0o777 != DIR_MODE:
            path.chmod(DIR_MODE)
    return path


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform can open a dir
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextlib.contextmanager
def atomic_writer(path: Path, *, sync_dir: bool = True) -> Iterator[BinaryIO]:
    """Stream into a 0600 temp file next to ``path``; on success fsync + rename
    over ``path`` (a crash leaves the old file or the new one, never a torn
    one). On error the temp file is removed and ``path`` is untouched.

    ``sync_dir=False`` skips the directory fsync that makes the rename itself
    durable: after a power loss the file may be the old one (still whole), so
    it is only for bookkeeping whose loss does not matter (memory use stats).
    """
    try:
        ensure_dir(path.parent)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise _naming(exc, path) from exc
    try:
        os.fchmod(fd, FILE_MODE)
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        if isinstance(exc, OSError) and exc.filename in (None, tmp_name):  # ours, not the caller's
            raise _naming(exc, path) from exc
        raise
    if sync_dir:
        _fsync_dir(path.parent)


def _naming(exc: OSError, path: Path) -> OSError:
    """The same error (same errno, so the same subclass) naming the file the user
    knows: a failed ``write``/``fsync`` names none, ``mkstemp`` a hidden temp file."""
    if exc.errno is None:
        return exc
    return OSError(exc.errno, exc.strerror or os.strerror(exc.errno), str(path))


def atomic_write_bytes(path: Path, data: bytes, *, sync_dir: bool = True) -> None:
    """Replace ``path`` with ``data`` atomically, with mode 0600."""
    with atomic_writer(path, sync_dir=sync_dir) as handle:
        handle.write(data)


def atomic_write_text(path: Path, text: str, *, sync_dir: bool = True) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), sync_dir=sync_dir)


def append_text(path: Path, text: str) -> None:
    """Append with 0600 on creation and fsync (for logs such as decisions.md)."""
    ensure_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, FILE_MODE)
    try:
        os.write(fd, text.encode("utf-8"))
        os.fsync(fd)
    except OSError as exc:
        raise _naming(exc, path) from exc
    finally:
        os.close(fd)


def private_file(path: Path) -> Path:
    """Create ``path`` empty with 0600 if missing (e.g. before SQLite opens it).

    An existing file is never opened (``O_EXCL``), only chmod-ed: it may be a
    database this process has open in SQLite, and closing any descriptor of it
    would drop every POSIX lock SQLite holds on it (see ``history.store``)."""
    ensure_dir(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        pass
    else:
        os.close(fd)
    with contextlib.suppress(OSError):
        path.chmod(FILE_MODE)
    return path


def sqlite_in_use(path: Path) -> bool:
    """``path`` is a database SQLite has open in WAL mode somewhere (its ``-wal`` or
    ``-shm`` is beside it), or one of those two files. Such a file is never read
    outside SQLite in-process: closing any descriptor of it drops every POSIX
    lock this process's SQLite holds on it (see ``history.store``). ``stat`` only.
    """
    name = path.name
    for suffix in ("-wal", "-shm"):
        if name.endswith(suffix) and path.with_name(name[: -len(suffix)]).exists():
            return True
    return any(path.with_name(name + suffix).exists() for suffix in ("-wal", "-shm"))


@contextlib.contextmanager
def locked(path: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold a cross-process lock for ``path`` (a sibling ``.lock`` file).

    Waits ``timeout`` (default ``LOCK_TIMEOUT_S``, read at call time) and then
    raises ``filelock.Timeout``, which :func:`agenttui.core.errors.explain`
    words as "another agenttui process is using it"."""
    from filelock import FileLock  # lazy: keep import of the core cheap

    if timeout is None:
        timeout = LOCK_TIMEOUT_S
    ensure_dir(path.parent)
    lock_path = path.with_name(path.name + ".lock")
    # Poll often: holders keep the lock for a few ms (one atomic write), and
    # filelock's default 50 ms poll made two busy writers mostly wait.
    with FileLock(str(lock_path), timeout=timeout, mode=FILE_MODE).acquire(poll_interval=LOCK_POLL_S):
        yield


def timestamp_slug(now: float | None = None) -> str:
    """A sortable, filename-safe UTC timestamp (``20261121T061000Z``)."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))


def move_aside(path: Path, reason: str = "corrupt") -> Path:
    """Rename ``path`` to ``NAME.<reason>-<timestamp>`` next to it, never clobbering."""
    stamp = timestamp_slug()
    target = path.with_name(f"{path.name}.{reason}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{reason}-{stamp}-{n}")
    os.replace(path, target)
    _fsync_dir(path.parent)
    return target


def quarantine(path: Path, detail: str) -> CorruptFileError:
    """Move a corrupt file aside and return the error that reports it."""
    moved = None
    with contextlib.suppress(FileNotFoundError):
        moved = move_aside(path, "corrupt")
    return CorruptFileError(path, moved, detail)
