"""One error policy for the CLI and the app: expected failures become sentences.

:func:`explain` turns an exception a real machine can produce -- disk full,
read-only file system, permission denied, I/O error, a lock held too long,
a database from a newer agenttui or a damaged one, a corrupt file moved
aside, text that is not UTF-8, and the core's own refusals (bad profile
name, broken backup, ...) -- into one message that says what happened,
which file, and what to do. Anything else is a bug: it returns ``None`` and
the caller writes a crash log (:mod:`agenttui.core.crash_log`) instead of
showing a traceback.

No import here loads a heavy module: the exception classes of our own
modules are looked up in ``sys.modules`` (a class whose module was never
imported cannot have been raised).
"""

from __future__ import annotations

import errno
import os
import re
import sys

# Our modules' exceptions whose text is already a message for the user.
_MESSAGE_ERRORS = (
    ("agenttui.core.history.store", "HistoryError"),
    ("agenttui.core.history.schema", "SchemaTooNewError"),
    ("agenttui.core.files", "CorruptFileError"),
    ("agenttui.core.config.profiles", "ProfileError"),
    ("agenttui.core.config.paths", "InvalidProfileName"),
    ("agenttui.core.config.api_key", "SecretsError"),
    ("agenttui.core.backup.archive", "BackupError"),
    ("agenttui.core.config.file", "ConfigError"),
    ("agenttui.core.history.importer", "ImportFormatError"),
    ("agenttui.core.memory.importer", "MemoryImportError"),
    ("agenttui.core.recall.embedding_client", "EmbeddingError"),
    ("agenttui.agent.images", "ImageError"),
)

_SPACE = "Free some space on that disk (`df -h` shows how full it is), then run the command again."
_READ_ONLY = ("agenttui needs to write there: remount it read-write, or put agenttui's files "
              "somewhere writable with AGENTTUI_HOME=DIR.")
_PERMISSION = ("Make sure that file and its folder belong to you and are writable "
               "(`ls -l` shows the owner; `chmod u+rw` fixes the mode).")
_IO = ("The disk or file system reported a failure: check it (`dmesg`), copy your data to "
       "another disk (`agenttui backup create`), then run the command again.")
_LOCKED = ("Another agenttui process is using it: close that one (or wait for it to finish), "
           "then run the command again.")

# (errno values, what happened, what to do)
_OS_ERRORS: tuple[tuple[frozenset[int], str, str], ...] = (
    (frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}), "the disk is full", _SPACE),
    (frozenset({errno.EROFS}), "the file system is read-only", _READ_ONLY),
    (frozenset({errno.EACCES, errno.EPERM}), "permission denied", _PERMISSION),
    (frozenset({errno.EIO}), "input/output error", _IO),
)

# SQLite primary result codes (sqlite3.Error.sqlite_errorcode & 0xff).
_SQLITE_ADVICE = {
    5: ("the database is locked", _LOCKED),  # SQLITE_BUSY
    6: ("the database is locked", _LOCKED),  # SQLITE_LOCKED
    8: ("the database is read-only", _READ_ONLY),  # SQLITE_READONLY
    10: ("input/output error", _IO),  # SQLITE_IOERR
    13: ("the disk is full", _SPACE),  # SQLITE_FULL
    14: ("the database file cannot be opened", _PERMISSION),  # SQLITE_CANTOPEN
}
_DAMAGED = re.compile(r"no such (table|column)|malformed|not a database", re.I)


def explain(exc: BaseException) -> str | None:
    """The message for an expected failure, or ``None`` for a bug."""
    if isinstance(exc, UnicodeError):
        return _unicode(exc)
    if _is_lock_timeout(exc):
        lock = getattr(exc, "lock_file", None) or "a lock file"
        return f"timed out waiting for the lock {lock}. {_LOCKED}"
    if isinstance(exc, OSError):
        return _os_error(exc)
    if _is_sqlite_error(exc):
        return _sqlite(exc, str(exc))
    if _is_message_error(exc):
        return _message(exc)
    return None


def _message(exc: BaseException) -> str:
    """An error of ours: its text, plus advice from the OS/SQLite error behind it."""
    text = str(exc) or type(exc).__name__
    cause = exc.__cause__
    if isinstance(cause, OSError):
        advice = _os_advice(cause)
        if advice and advice[1] not in text:
            return f"{text}. {advice[0][:1].upper()}{advice[0][1:]}. {advice[1]}"
    elif cause is not None and _is_sqlite_error(cause):
        if _disk_full_near(text):  # SQLite says "disk I/O error" when it cannot grow -shm
            return f"{text}. The disk is full. {_SPACE}"
        return _sqlite(cause, text)
    elif _DAMAGED.search(text) and "agenttui backup restore" not in text:
        return f"{text}. {_damaged_advice()}"
    return text


def _os_advice(exc: OSError) -> tuple[str, str] | None:
    for codes, what, advice in _OS_ERRORS:
        if exc.errno in codes:
            return what, advice
    return None


def _os_error(exc: OSError) -> str:
    where = _filename(exc)
    found = _os_advice(exc)
    if found is None:
        what = exc.strerror or str(exc) or type(exc).__name__
        return f"{what}{f': {where}' if where else ''}"
    what, advice = found
    if where and exc.errno in (errno.ENOSPC, errno.EROFS, getattr(errno, "EDQUOT", errno.ENOSPC)):
        where = f"could not write {where}"  # only writes meet these; a permission or I/O error may be a read
    return f"{what}{f': {where}' if where else ''}. {advice}"


def _filename(exc: OSError) -> str:
    name = exc.filename
    if name is None:
        return ""
    return name.decode(errors="replace") if isinstance(name, bytes) else str(name)


def _is_sqlite_error(exc: BaseException | None) -> bool:
    sqlite3 = sys.modules.get("sqlite3")  # not imported: nothing of it can have failed
    return sqlite3 is not None and isinstance(exc, sqlite3.Error)


def _sqlite(exc: BaseException, text: str) -> str:
    code = getattr(exc, "sqlite_errorcode", None)
    found = _SQLITE_ADVICE.get(code & 0xFF) if isinstance(code, int) else None
    if isinstance(code, int) and code & 0xFF == 14 and _read_only_near(text):
        # SQLite cannot create its -wal/-shm beside the file: the folder's file system is read-only
        return f"{text}: the file system is read-only. {_READ_ONLY}"
    if found is None:
        lowered = str(exc).lower()
        if "locked" in lowered or "busy" in lowered:
            found = _SQLITE_ADVICE[5]
        elif "disk is full" in lowered or "database or disk is full" in lowered:
            found = _SQLITE_ADVICE[13]
        elif "readonly" in lowered or "read-only" in lowered:
            found = _SQLITE_ADVICE[8]
        elif "disk i/o" in lowered:
            found = _SQLITE_ADVICE[10]
    if found is not None:
        return f"{text}. {found[1]}"
    if _DAMAGED.search(str(exc)):
        return f"{text}. {_damaged_advice()}"
    return text


_PATH = re.compile(r"(/[^\s:;,'\"]+)")


def _file_system_near(text: str) -> os.statvfs_result | None:
    """The file system of the first absolute path in ``text`` (its nearest existing folder)."""
    from pathlib import Path

    found = _PATH.search(text)
    if found is None or not hasattr(os, "statvfs"):
        return None
    path = Path(found.group(1))
    for candidate in (path, *path.parents):
        try:
            return os.statvfs(candidate)
        except OSError:
            continue
    return None


def _disk_full_near(text: str) -> bool:
    """Whether the file system of the first absolute path in ``text`` has no space left."""
    stats = _file_system_near(text)
    return stats is not None and stats.f_bavail == 0


def _read_only_near(text: str) -> bool:
    """Whether the file system of the first absolute path in ``text`` is mounted read-only."""
    stats = _file_system_near(text)
    return stats is not None and bool(stats.f_flag & getattr(os, "ST_RDONLY", 1))


def _damaged_advice() -> str:
    return ("The file is damaged: nothing was changed. Restore it from a backup "
            "(`agenttui backup restore FILE`), or move it aside to start afresh "
            "(the old file stays readable with `sqlite3`).")


def _unicode(exc: UnicodeError) -> str:
    if isinstance(exc, UnicodeEncodeError | UnicodeDecodeError):
        bad = exc.object[exc.start:exc.end]
        if isinstance(bad, str) and any(not "\udc80" <= c <= "\udcff" for c in bad):
            # half of a UTF-16 pair (a \ud83d escape in JSON), not an undecodable byte
            return (f"text holds half of a character (a lone UTF-16 surrogate, "
                    f"{' '.join(f'U+{ord(c):04X}' for c in bad[:4])} at position {exc.start}: a "
                    "\\u escape cut from its pair). Remove or complete it in the input, then run "
                    "the command again.")
        shown = (bad.encode("utf-8", "surrogateescape") if isinstance(bad, str) else bad)[:8]
        return (f"text is not valid UTF-8 (bytes {shown.hex(' ')} at position {exc.start}). "
                "agenttui stores UTF-8 text: convert the input (e.g. `iconv -f latin1 -t utf-8`) "
                "or set a UTF-8 locale (LANG=C.UTF-8), then run the command again.")
    return f"text could not be encoded: {exc}"


def clip(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out (a refused
    5 MB note must not be echoed in full on a terminal)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… (+{len(text) - limit:,} more characters)"


def _is_lock_timeout(exc: BaseException) -> bool:
    filelock = sys.modules.get("filelock")
    return filelock is not None and isinstance(exc, filelock.Timeout)


def _is_message_error(exc: BaseException) -> bool:
    for module_name, class_name in _MESSAGE_ERRORS:
        module = sys.modules.get(module_name)
        cls = getattr(module, class_name, None) if module is not None else None
        if cls is not None and isinstance(exc, cls):
            return True
    return False
