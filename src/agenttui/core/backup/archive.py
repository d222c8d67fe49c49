"""Full backups, restore and the trash (docs/storage.md).

One ``.tar.gz`` (0600) holds ``manifest.json`` (first member), ``config/``
(config.toml passed through redaction, user themes) and ``data/`` (user
memory and every profile directory: profile.toml, memory.json, project/ and
the history database). ``backups/`` and ``trash/`` are never included.

Decisions:

* SQLite files are snapshotted with ``Connection.backup()`` into a temp file
  and stored in rollback-journal mode -- a live WAL database is never copied
  raw (its newest pages may sit in ``-wal``). A file SQLite reports as not a
  database or damaged is stored raw (losing it is worse); any other failure
  (busy, I/O) fails the backup rather than read a live database outside
  SQLite, which would also drop this process's locks on it (see
  ``history.store._not_a_database``). ``-wal``/``-shm``/``.lock`` and temp
  files are skipped.
* Restore validates the whole archive before touching anything: manifest
  format/version, and every member must be a plain file or directory with a
  relative path under ``config/`` or ``data/`` -- absolute paths, ``..``,
  symlinks, hard links and devices are rejected (tar path traversal) -- and
  one of the kinds of file a backup holds, within the file-count and size
  limits (:mod:`agenttui.core.backup.limits`), with room for it on disk. Files
  are extracted by hand (never ``extractall``) into a staging dir *inside*
  the destination dir, so the swap is a rename on one filesystem.
* Restore first writes a backup of the current data (its path is returned),
  then moves each replaced top-level entry to
  ``trash/replaced-by-restore-<timestamp>/`` and renames the staged one into
  place; if a step fails, the moves done so far are undone. Restore means
  "make it as it was": data the archive lacks (a newer profile) is moved to
  that trash folder, not kept.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tarfile
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from agenttui.core.backup.limits import RestoreLimits
from agenttui.core.config.paths import Paths

FORMAT = "agenttui-backup"
VERSION = 1
MANIFEST = "manifest.json"
MAX_MANIFEST = 4 * 1024**2  # a list of file names
_SKIP_SUFFIXES = (".lock", ".tmp", "-wal", "-shm", "-journal")
_DB_SUFFIXES = (".sqlite3", ".sqlite", ".db")
_EXCLUDED_DATA = {"backups", "trash"}


class BackupError(Exception):
    pass


class UnexpectedMember(BackupError):
    """A safe path, but not a file a backup holds (left out with ``skip_unexpected``)."""


# --------------------------------------------------------------------------
# trash
# --------------------------------------------------------------------------
def _unique(target: Path) -> Path:
    """``target``, or ``NAME-2`` (``NAME-2.tar.gz`` for an archive: it stays one), ``-3``, ... if taken."""
    stem, suffix = target.name, ""
    if stem.endswith(".tar.gz"):
        stem, suffix = stem[: -len(".tar.gz")], ".tar.gz"
    candidate, n = target, 1
    while candidate.exists() or candidate.is_symlink():
        n += 1
        candidate = target.with_name(f"{stem}-{n}{suffix}")
    return candidate


def _move(source: Path, target: Path) -> None:
    try:
        os.replace(source, target)
    except OSError:  # another filesystem (config dir vs data dir)
        shutil.move(str(source), str(target))


def move_to_trash(paths: Paths, path: Path) -> Path:
    """Move ``path`` to ``trash/<name>-<timestamp>``; returns the new location."""
    from agenttui.core.files import ensure_dir, timestamp_slug

    ensure_dir(paths.trash_dir)
    target = _unique(paths.trash_dir / f"{path.name}-{timestamp_slug()}")
    _move(path, target)
    return target


# --------------------------------------------------------------------------
# create
# --------------------------------------------------------------------------
def _skipped(path: Path) -> bool:
    return path.name.endswith(_SKIP_SUFFIXES) or path.name.startswith(".")


def _walk(root: Path) -> list[Path]:
    """Regular files under ``root`` (symlinks are not followed or stored)."""
    found: list[Path] = []
    for directory, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            path = Path(directory) / name
            if not path.is_symlink() and path.is_file() and not _skipped(path):
                found.append(path)
    return found


def _snapshot_db(source: Path, target: Path) -> None:
    import sqlite3

    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            dst.close()
    finally:
        src.close()


_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26  # primary result codes (the extended ones add high bits)


def _unreadable_by_sqlite(exc: BaseException) -> bool:
    """Not a database, or a damaged one: the only files a backup stores raw."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB)


def _collect(paths: Paths, scratch: Path, skipped: list[str] | None = None) -> list[tuple[str, Path]]:
    """``(archive name, file to read)`` for everything a backup holds.

    Files a restore would refuse (not agenttui's, see ``backup.limits.ALLOWED``)
    are left out and their names appended to ``skipped``.
    """
    import sqlite3

    from agenttui.core.backup.limits import allowed_file
    from agenttui.core.files import atomic_write_text
    from agenttui.security import redact_secrets

    members: list[tuple[str, Path]] = []
    if paths.config_file.is_file():
        clean = scratch / "config.toml"
        text = paths.config_file.read_bytes().decode("utf-8", errors="replace")
        atomic_write_text(clean, redact_secrets(text))  # never a secret in a backup
        members.append(("config/config.toml", clean))
    if paths.user_themes_dir.is_dir():
        for path in _walk(paths.user_themes_dir):
            name = f"config/{path.relative_to(paths.config_dir).as_posix()}"
            if allowed_file(name):
                members.append((name, path))
            elif skipped is not None:
                skipped.append(name)
    if paths.data_dir.is_dir():
        for entry in sorted(paths.data_dir.iterdir()):
            if entry.name in _EXCLUDED_DATA or entry.name.startswith("."):
                continue
            files = [entry] if entry.is_file() and not _skipped(entry) else (
                _walk(entry) if entry.is_dir() and not entry.is_symlink() else [])
            for path in files:
                name = f"data/{path.relative_to(paths.data_dir).as_posix()}"
                if not allowed_file(name):
                    if skipped is not None:
                        skipped.append(name)
                    continue
                if path.name.endswith(_DB_SUFFIXES):
                    snap = scratch / f"db-{len(members)}.sqlite3"
                    try:
                        _snapshot_db(path, snap)
                        path = snap
                    except sqlite3.DatabaseError as exc:
                        if not _unreadable_by_sqlite(exc):
                            # busy, I/O error: a live database is never copied raw (its
                            # newest pages are in -wal, and reading it here outside SQLite
                            # would drop this process's locks on it: see history.store)
                            raise BackupError(f"cannot snapshot {path}: {exc}") from exc
                        # not a database SQLite can read: nobody's live one, keep its bytes
                members.append((name, path))
    return members


def _add(tar: tarfile.TarFile, name: str, source: Path | None = None,
         data: bytes | None = None) -> None:
    info = tarfile.TarInfo(name)
    info.mode = 0o600
    info.mtime = int(datetime.now(UTC).timestamp())
    if data is not None:
        import io

        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
        return
    assert source is not None
    with source.open("rb") as handle:
        info.size = os.fstat(handle.fileno()).st_size
        tar.addfile(info, handle)


def default_backup_path(paths: Paths, kind: str = "backup") -> Path:
    from agenttui.core.files import timestamp_slug

    return _unique(paths.backups_dir / f"agenttui-{kind}-{timestamp_slug()}.tar.gz")


def create_backup(paths: Paths, output: Path | None = None) -> Path:
    """Write one archive of config, memory, project memory and history."""
    from agenttui import __version__
    from agenttui.core.files import atomic_writer, ensure_dir

    target = Path(output) if output is not None else default_backup_path(paths)
    ensure_dir(paths.backups_dir)
    with tempfile.TemporaryDirectory(prefix=".backup-", dir=paths.backups_dir) as tmp:
        skipped: list[str] = []
        members = _collect(paths, Path(tmp), skipped)
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "created": datetime.now(UTC).isoformat(),
            "app_version": __version__,
            "contents": [name for name, _ in members],
            "skipped": skipped,  # files in the data dir that are not agenttui's
        }
        with atomic_writer(target) as handle, tarfile.open(fileobj=handle, mode="w:gz") as tar:
            _add(tar, MANIFEST, data=json.dumps(manifest, indent=2).encode())
            for name, source in members:
                _add(tar, name, source)
    return target


# --------------------------------------------------------------------------
# restore
# --------------------------------------------------------------------------
def _check_member(member: tarfile.TarInfo) -> tuple[str, PurePosixPath] | None:
    """``(side, relative path)`` for a file; ``None`` for the manifest/dirs."""
    name = member.name
    if not (member.isfile() or member.isdir()):
        raise BackupError(f"refusing archive: {name!r} is a link or special file")
    pure = PurePosixPath(name)
    if not pure.parts or name.startswith(("/", "\\")) or pure.is_absolute() \
            or ".." in pure.parts or "\\" in name or ":" in pure.parts[0]:  # "." has no parts
        raise BackupError(f"refusing archive: unsafe path {name!r}")
    if name == MANIFEST:
        return None
    side, *rest = pure.parts
    if side not in ("config", "data") or not rest:
        if member.isdir() and side in ("config", "data"):
            return None
        raise BackupError(f"refusing archive: unexpected member {name!r}")
    if side == "data" and (rest[0] in _EXCLUDED_DATA or rest[0].startswith(".")):
        raise BackupError(f"refusing archive: unexpected member {name!r}")
    _check_allowed(member, name)
    return (side, PurePosixPath(*rest)) if member.isfile() else None


def _check_allowed(member: tarfile.TarInfo, name: str) -> None:
    from agenttui.core.backup.limits import allowed_description, allowed_dir, allowed_file

    if member.isdir() and not allowed_dir(name) or member.isfile() and not allowed_file(name):
        raise UnexpectedMember(
            f"refusing archive: {name!r} is not a file an agenttui backup holds (it may hold: "
            f"{allowed_description()}); nothing was changed. To restore the rest without such "
            "files, run again with --skip-unexpected")


@dataclass
class ArchiveSummary:
    manifest: dict[str, Any]
    files: int  # members, directories included
    total_bytes: int  # expanded size
    skipped: list[str] = field(default_factory=list)  # unexpected files left out (skip_unexpected)


def _scan(tar: tarfile.TarFile, archive: Path, limits: RestoreLimits,
          skipped: list[str]) -> tuple[int, int]:
    """Check every member header, stopping at the first one over a limit (nothing is extracted)."""
    from agenttui.core.backup.limits import human_size

    count = total = 0
    seen: set[str] = set()
    for member in tar:  # lazily: a bomb's first header is enough to refuse it
        count += 1
        total += max(0, member.size) if member.isfile() else 0
        if count > limits.max_files:
            raise BackupError(
                f"refusing archive: {archive} holds more than {limits.max_files:,} files (a backup "
                "holds a few per profile); if you trust it, run again with a higher --max-files")
        if total > limits.max_bytes:
            raise BackupError(
                f"refusing archive: {archive} expands to more than {human_size(limits.max_bytes)} "
                f"(at {member.name!r}: {human_size(total)} so far); if you trust it, run again with "
                "a higher --max-size")
        try:
            _check_member(member)
        except UnexpectedMember:
            if not limits.skip_unexpected:
                raise
            skipped.append(member.name)
            continue
        key = member.name.rstrip("/")
        if key in seen and member.isfile():
            raise BackupError(f"refusing archive: {member.name!r} appears twice")
        seen.add(key)
        if member.name == MANIFEST and member.size > MAX_MANIFEST:
            raise BackupError(f"refusing archive: its manifest is {human_size(member.size)}")
    return count, total


def _read_problem(exc: BaseException) -> str:
    """One line for an unreadable archive, not tarfile's list of every method it tried
    ("- method gz: …  - method bz2: …"), which tells a newcomer nothing."""
    text = str(exc)
    if isinstance(exc, tarfile.ReadError) and "could not be opened successfully" in text:
        return "not a readable backup archive: not a .tar.gz, or damaged (backups are made by agenttui backup)"
    if isinstance(exc, EOFError) or "unexpected end of data" in text or "truncated" in text:
        return "the archive is incomplete (cut off before its end); copy it again"
    return text.splitlines()[0] if text.strip() else type(exc).__name__


def check_archive(archive: Path, limits: RestoreLimits | None = None) -> ArchiveSummary:
    """Validate ``archive`` completely (paths, kinds, limits, manifest) from its headers."""
    limits = limits or RestoreLimits()
    try:
        with tarfile.open(archive, "r:*") as tar:
            skipped: list[str] = []
            count, total = _scan(tar, archive, limits, skipped)
            try:
                handle = tar.extractfile(MANIFEST)
            except KeyError:
                raise BackupError(f"{archive} is not an agenttui backup (no manifest)") from None
            manifest = json.loads(handle.read()) if handle else None
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise BackupError(f"cannot read {archive}: {_read_problem(exc)}") from exc
    except json.JSONDecodeError as exc:
        raise BackupError(f"{archive}: manifest is not valid JSON ({exc})") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{archive} is not an agenttui backup")
    if not isinstance(manifest.get("version"), int) or manifest["version"] > VERSION:
        raise BackupError(f"{archive} has backup format version {manifest.get('version')!r}; "
                          f"this agenttui reads up to {VERSION}")
    return ArchiveSummary(manifest, count, total, skipped)


def read_manifest(archive: Path, limits: RestoreLimits | None = None) -> dict[str, Any]:
    """Validate ``archive`` completely and return its manifest."""
    return check_archive(archive, limits).manifest


def _check_room(paths: Paths, needed: int) -> None:
    """The expanded files (staged in the data dir) and the pre-restore backup must fit."""
    from agenttui.core.backup.limits import human_size

    directory = paths.data_dir
    while not directory.exists() and directory != directory.parent:
        directory = directory.parent
    free = shutil.disk_usage(directory).free
    if needed > free:
        raise BackupError(f"refusing archive: it expands to {human_size(needed)} but {directory} has "
                          f"only {human_size(free)} free; nothing was changed")


def _extract(archive: Path, staging: dict[str, Path], skip: set[str]) -> None:
    from agenttui.core.files import FILE_MODE, ensure_dir

    with tarfile.open(archive, "r:*") as tar:
        for member in tar.getmembers():
            if member.name in skip:
                continue
            checked = _check_member(member)
            if checked is None:
                continue
            side, rel = checked
            dest = staging[side].joinpath(*rel.parts)
            ensure_dir(dest.parent)
            source = tar.extractfile(member)
            assert source is not None
            fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
            with os.fdopen(fd, "wb") as out:
                shutil.copyfileobj(source, out)
                out.flush()
                os.fsync(out.fileno())


def restore_backup(paths: Paths, archive: Path, limits: RestoreLimits | None = None) -> Path:
    """Replace current data with ``archive``; returns the backup made first."""
    from agenttui.core.files import ensure_dir, timestamp_slug

    archive = Path(archive)
    summary = check_archive(archive, limits)  # all checks before anything changes
    _check_room(paths, summary.total_bytes)
    before = create_backup(paths, default_backup_path(paths, "pre-restore"))
    stamp = timestamp_slug()
    roots = {"config": paths.config_dir, "data": paths.data_dir}
    staging = {side: ensure_dir(root / f".restore-{stamp}") for side, root in roots.items()}
    trash = _unique(paths.trash_dir / f"replaced-by-restore-{stamp}")
    done: list[tuple[Path, Path]] = []  # (from, to) renames, for rollback
    try:
        _extract(archive, staging, set(summary.skipped))
        for side, root in roots.items():
            current = {p.name for p in root.iterdir()
                       if not p.name.startswith(".") and not p.name.endswith(".lock")}
            if side == "config":
                current &= {"config.toml", "themes"}
            else:
                current -= _EXCLUDED_DATA
            incoming = {p.name for p in staging[side].iterdir()}
            for name in sorted(current | incoming):
                if name in current:
                    ensure_dir(trash / side)
                    _move(root / name, trash / side / name)
                    done.append((root / name, trash / side / name))
                if name in incoming:
                    os.replace(staging[side] / name, root / name)
                    done.append((staging[side] / name, root / name))
    except BaseException:
        for source, target in reversed(done):
            with contextlib.suppress(OSError):
                _move(target, source)
        raise
    finally:
        for directory in staging.values():
            shutil.rmtree(directory, ignore_errors=True)
    return before
