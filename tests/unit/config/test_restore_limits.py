"""Restore limits: size, file count and allowed paths, checked before any write.

The archives are built in tmp in well under a second: a "bomb" is a gzip file
of many concatenated members (RFC 1952 section 2.2: a gzip file is a series of
members, and Python's gzip reader reads them all), each the compressed form of
the same megabyte of zeros, so 3 GB of tar data costs ~3 MB on disk.
"""

from __future__ import annotations

import gzip
import io
import json
import tarfile
from pathlib import Path

import pytest

from agenttui.core.backup.archive import BackupError, check_archive, create_backup, restore_backup
from agenttui.core.backup.limits import RestoreLimits, allowed_file, human_size, parse_size
from agenttui.core.files import atomic_write_text

MANIFEST = json.dumps({"format": "agenttui-backup", "version": 1}).encode()
MB = 1024 * 1024


def _member(name: str, size: int) -> bytes:
    info = tarfile.TarInfo(name)
    info.size = size
    info.mode = 0o600
    return info.tobuf(format=tarfile.GNU_FORMAT)


def _gzip_member(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=1, mtime=0)


def _padded(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 512)


def bomb(path: Path, name: str, size: int) -> Path:
    """A valid .tar.gz whose member ``name`` expands to ``size`` bytes of zeros."""
    assert size % MB == 0
    zeros = _gzip_member(b"\0" * MB)
    with path.open("wb") as out:
        out.write(_gzip_member(_member("manifest.json", len(MANIFEST)) + _padded(MANIFEST)
                               + _member(name, size)))
        for _ in range(size // MB):
            out.write(zeros)
        out.write(_gzip_member(b"\0" * 1024))  # end-of-archive blocks
    return path


def many_files(path: Path, count: int) -> Path:
    """A .tar.gz of the manifest and ``count`` one-byte session notes.

    One header is built by tarfile; the others are copies with the number in the
    name and the header checksum (POSIX ustar: the byte sum with the checksum
    field read as spaces) patched, which builds 100,000 members in a blink.
    """
    template = bytearray(_member("data/profiles/p/project/sessions/n0000000.md", 1))
    at = template.index(b"0000000.md")
    base = sum(template) - sum(template[148:156]) + 8 * ord(" ") - sum(b"0000000")
    block = _padded(b"x")
    parts = [_member("manifest.json", len(MANIFEST)), _padded(MANIFEST)]
    for i in range(count):
        digits = b"%07d" % i
        template[at:at + 7] = digits
        template[148:156] = b"%06o\0 " % (base + sum(digits))
        parts += [bytes(template), block]
    parts.append(b"\0" * 1024)
    path.write_bytes(gzip.compress(b"".join(parts), compresslevel=1, mtime=0))
    return path


def archive_with(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in {"manifest.json": MANIFEST, **members}.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def _seed(paths) -> dict[Path, bytes]:
    atomic_write_text(paths.config_file, 'model = "mine"\n')
    atomic_write_text(paths.user_memory_file, '{"schema": 1}')
    return {p: p.read_bytes() for p in (paths.config_file, paths.user_memory_file)}


def assert_untouched(paths, before: dict[Path, bytes]) -> None:
    assert {p: p.read_bytes() for p in before} == before
    assert not paths.backups_dir.exists()  # not even the pre-restore backup was written
    leftovers = [p for root in (paths.config_dir, paths.data_dir) for p in root.iterdir()
                 if p.name.startswith(".restore-")]
    assert leftovers == []


def test_a_small_archive_expanding_to_3_gb_is_refused_from_its_header(paths, tmp_path):
    before = _seed(paths)
    archive = bomb(tmp_path / "bomb.tar.gz", "data/profiles/work/history.sqlite3", 3 * 1024 * MB)
    assert archive.stat().st_size < 14 * MB
    with pytest.raises(BackupError, match=r"expands to more than 2\.1 GB") as caught:
        restore_backup(paths, archive)
    assert "--max-size" in str(caught.value)
    assert_untouched(paths, before)


@pytest.mark.slow
def test_100000_small_files_are_refused_at_the_file_limit(paths, tmp_path):
    before = _seed(paths)
    archive = many_files(tmp_path / "many.tar.gz", 100_000)
    with pytest.raises(BackupError, match="holds more than 10,000 files") as caught:
        restore_backup(paths, archive)
    assert "--max-files" in str(caught.value)
    assert_untouched(paths, before)


@pytest.mark.parametrize("name", [
    "config/evil.sh",
    "config/themes/dusk.sh",
    "data/profiles/work/evil.sh",
    "data/profiles/work/project/run.py",
    "data/memory/user.json.sh",
    "data/profiles/bad\nname/memory.json",
    "data/profiles/.hidden/memory.json",
    "data/autostart.desktop",
])
def test_files_a_backup_never_holds_are_refused(paths, tmp_path, name):
    before = _seed(paths)
    archive = archive_with(tmp_path / "evil.tar.gz", {"config/config.toml": b"", name: b"#!/bin/sh\n"})
    with pytest.raises(BackupError, match="refusing archive") as caught:
        restore_backup(paths, archive)
    assert repr(name) in str(caught.value) or "unexpected member" in str(caught.value)
    assert_untouched(paths, before)
    assert not (paths.config_dir / "evil.sh").exists()


def test_a_file_listed_twice_is_refused(paths, tmp_path):
    with tarfile.open(tmp_path / "t.tar", "w") as tar:
        for name in ("manifest.json", "data/memory/user.json", "data/memory/user.json"):
            data = MANIFEST if name == "manifest.json" else b"{}"
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    with pytest.raises(BackupError, match="appears twice"):
        check_archive(tmp_path / "t.tar")


def test_everything_a_backup_writes_restores_and_strays_are_named_not_archived(paths, tmp_path):
    from agenttui.core.history.store import HistoryStore

    _seed(paths)
    atomic_write_text(paths.user_themes_dir / "dusk.toml", 'name = "dusk"\n')
    atomic_write_text(paths.profile_file("work"), "paths = []\n")
    atomic_write_text(paths.project_dir("work") / "context.md", "ctx\n")
    atomic_write_text(paths.project_dir("work") / "sessions" / "2026-11-20.md", "s\n")
    atomic_write_text(paths.profile_memory_file("work").with_name("memory.json.corrupt-20261121T061000Z"), "{")
    atomic_write_text(paths.data_dir / "state" / "endpoints.json", "{}")
    atomic_write_text(paths.data_dir / "notes.txt", "not agenttui's")
    store = HistoryStore(paths.history_db("work"))
    store.create_conversation("kept")
    store.close()

    archive = create_backup(paths, tmp_path / "b.tar.gz")
    summary = check_archive(archive)
    assert summary.manifest["skipped"] == ["data/notes.txt"]
    assert all(allowed_file(name) for name in summary.manifest["contents"])
    assert len(summary.manifest["contents"]) == 9
    restore_backup(paths, archive)
    assert (paths.project_dir("work") / "sessions" / "2026-11-20.md").read_text() == "s\n"
    assert (paths.user_themes_dir / "dusk.toml").exists()


def test_raised_limits_let_a_trusted_big_archive_through(paths, tmp_path):
    archive = bomb(tmp_path / "big.tar.gz", "data/profiles/work/project/context.md", 8 * MB)
    with pytest.raises(BackupError, match="more than 4.2 MB"):
        check_archive(archive, RestoreLimits(max_bytes=4 * MB))
    assert check_archive(archive, RestoreLimits(max_bytes=9 * MB)).total_bytes == 8 * MB + len(MANIFEST)
    archive = many_files(tmp_path / "few.tar.gz", 30)
    with pytest.raises(BackupError, match="more than 20 files"):
        check_archive(archive, RestoreLimits(max_files=20))
    summary = check_archive(archive, RestoreLimits(max_files=31))
    assert summary.files == 31 and summary.total_bytes == 30 + len(MANIFEST)


def test_no_room_on_disk_is_refused_before_writing(paths, tmp_path, monkeypatch):
    import shutil

    before = _seed(paths)
    archive = archive_with(tmp_path / "ok.tar.gz", {"data/memory/user.json": b'{"schema": 1}' * 100})
    real = shutil.disk_usage
    monkeypatch.setattr(shutil, "disk_usage", lambda p: real(p)._replace(free=100))  # a full disk
    with pytest.raises(BackupError, match="has only 100 bytes free"):
        restore_backup(paths, archive)
    assert_untouched(paths, before)


@pytest.mark.parametrize(("text", "size"), [
    ("123456", 123456), ("4G", 4 * 10**9), ("500MB", 500 * 10**6), ("3GiB", 3 * 2**30),
    ("1.5k", 1500), ("2 gb", 2 * 10**9)])
def test_sizes_parse(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "G", "-1", "4 apples", "1e9"])
def test_bad_sizes_are_refused(text):
    with pytest.raises(ValueError):
        parse_size(text)


def test_human_sizes():
    assert human_size(3 * 1024**3) == "3.2 GB" and human_size(512) == "512 bytes"


def test_skip_unexpected_restores_the_rest_and_never_a_link(paths, tmp_path):
    _seed(paths)
    archive = archive_with(tmp_path / "old.tar.gz", {
        "config/config.toml": b'model = "restored"\n', "config/evil.sh": b"#!/bin/sh\n",
        "data/profiles/work/project/todo.txt": b"mine", "data/memory/user.json": b'{"schema": 1}'})
    summary = check_archive(archive, RestoreLimits(skip_unexpected=True))
    assert summary.skipped == ["config/evil.sh", "data/profiles/work/project/todo.txt"]
    restore_backup(paths, archive, RestoreLimits(skip_unexpected=True))
    assert paths.config_file.read_text() == 'model = "restored"\n'
    assert not (paths.config_dir / "evil.sh").exists()
    assert not (paths.project_dir("work") / "todo.txt").exists()
    link = tarfile.TarInfo("data/memory/user.json")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
    with tarfile.open(tmp_path / "link.tar.gz", "w:gz") as tar:
        info = tarfile.TarInfo("manifest.json")
        info.size = len(MANIFEST)
        tar.addfile(info, io.BytesIO(MANIFEST))
        tar.addfile(link)
    with pytest.raises(BackupError, match="link or special file"):
        check_archive(tmp_path / "link.tar.gz", RestoreLimits(skip_unexpected=True))
