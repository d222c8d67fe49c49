"""Full backup and restore, including the live history database."""

from __future__ import annotations

import io
import json
import stat
import tarfile

import pytest

from agenttui.core.backup.archive import BackupError, create_backup, move_to_trash, restore_backup
from agenttui.core.files import atomic_write_text
from agenttui.core.models import Message


def _history(paths, profile="work"):
    from agenttui.core.history.store import HistoryStore

    return HistoryStore(paths.history_db(profile))


def _seed(paths):
    atomic_write_text(paths.config_file, 'model = "m1"\n')
    atomic_write_text(paths.user_memory_file, '{"schema": 1, "note": "user v1"}')
    atomic_write_text(paths.project_dir("work") / "context.md", "context v1\n")
    atomic_write_text(paths.profile_file("work"), "paths = []\n")


def test_backup_contains_everything_and_is_private(paths):
    _seed(paths)
    history = _history(paths)
    conv = history.create_conversation("first")
    history.append(conv.id, Message(role="user", content="hello from the live db"))
    archive = create_backup(paths)  # the store is still open, in WAL mode
    history.close()
    assert archive.parent == paths.backups_dir
    assert stat.S_IMODE(archive.stat().st_mode) == 0o600
    with tarfile.open(archive) as tar:
        names = tar.getnames()
        manifest = json.load(tar.extractfile("manifest.json"))
        assert names[0] == "manifest.json"
        assert manifest["format"] == "agenttui-backup" and manifest["version"] == 1
        assert set(manifest["contents"]) == set(names[1:])
        assert {"config/config.toml", "data/memory/user.json", "data/profiles/work/profile.toml",
                "data/profiles/work/project/context.md",
                "data/profiles/work/history.sqlite3"} <= set(names)
        assert not [n for n in names if n.endswith(("-wal", "-shm", ".lock"))]
        assert not [n for n in names if n.startswith(("data/backups", "data/trash"))]


def test_round_trip_restores_history_memory_and_config(paths):
    _seed(paths)
    history = _history(paths)
    conv = history.create_conversation("kept")
    history.append(conv.id, Message(role="user", content="message before the backup"))
    archive = create_backup(paths)
    history.append(conv.id, Message(role="user", content="message after the backup"))
    history.close()
    atomic_write_text(paths.user_memory_file, '{"schema": 1, "note": "user v2"}')
    atomic_write_text(paths.config_file, 'model = "m2"\n')
    atomic_write_text(paths.profile_file("newer"), "paths = []\n")

    before = restore_backup(paths, archive)

    assert before.exists() and before != archive
    assert "user v1" in paths.user_memory_file.read_text()
    assert paths.config_file.read_text() == 'model = "m1"\n'
    assert not paths.profile_dir("newer").exists()  # restore = as it was
    restored = _history(paths)
    texts = [m.content for m in restored.messages(conv.id)]
    restored.close()
    assert texts == ["message before the backup"]
    # the data it replaced went to the trash, and into the pre-restore backup
    trashed = list(paths.trash_dir.glob("replaced-by-restore-*/data/profiles/newer"))
    assert len(trashed) == 1
    with tarfile.open(before) as tar:
        assert "data/profiles/newer/profile.toml" in tar.getnames()


def _evil_archive(tmp_path, name: str, member: tarfile.TarInfo, data: bytes = b"x") -> str:
    path = tmp_path / name
    with tarfile.open(path, "w:gz") as tar:
        manifest = json.dumps({"format": "agenttui-backup", "version": 1}).encode()
        info = tarfile.TarInfo("manifest.json")
        info.size = len(manifest)
        tar.addfile(info, io.BytesIO(manifest))
        if member.isfile():
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
        else:
            tar.addfile(member)
    return path


def _file(name):
    return tarfile.TarInfo(name)


def _link(name, target, kind):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info


@pytest.mark.parametrize("member", [
    _file("../escape.txt"),
    _file("data/../../escape.txt"),
    _file("/tmp/absolute.txt"),
    _file("data/trash/x"),
    _file("elsewhere/x"),
    _link("data/memory/user.json", "/etc/passwd", tarfile.SYMTYPE),
    _link("data/memory/user.json", "../../../etc/passwd", tarfile.LNKTYPE),
], ids=["dotdot", "nested-dotdot", "absolute", "trash", "outside", "symlink", "hardlink"])
def test_unsafe_archives_are_refused_before_anything_changes(paths, tmp_path, member):
    _seed(paths)
    archive = _evil_archive(tmp_path, "evil.tar.gz", member)
    with pytest.raises(BackupError, match="refusing archive"):
        restore_backup(paths, archive)
    assert paths.config_file.read_text() == 'model = "m1"\n'
    assert not paths.backups_dir.exists()  # not even the pre-restore backup
    assert not (tmp_path / "escape.txt").exists()


def test_not_a_backup_is_refused(paths, tmp_path):
    plain = tmp_path / "plain.tar.gz"
    with tarfile.open(plain, "w:gz") as tar:
        info = tarfile.TarInfo("data/memory/user.json")
        tar.addfile(info, io.BytesIO(b""))
    with pytest.raises(BackupError, match="no manifest"):
        restore_backup(paths, plain)
    garbage = tmp_path / "garbage.tar.gz"
    garbage.write_bytes(b"not a tar")
    with pytest.raises(BackupError, match="cannot read"):
        restore_backup(paths, garbage)


def test_secret_in_config_is_redacted_in_the_backup(paths):
    secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
    atomic_write_text(paths.config_file, f'soul = "key {secret}"\n')
    with tarfile.open(create_backup(paths)) as tar:
        assert secret.encode() not in tar.extractfile("config/config.toml").read()


def test_move_to_trash_never_clobbers(paths):
    for n in range(2):
        victim = paths.data_dir / "victim"
        victim.mkdir(parents=True)
        (victim / "f").write_text(str(n))
        moved = move_to_trash(paths, victim)
        assert moved.parent == paths.trash_dir and (moved / "f").read_text() == str(n)
    assert len(list(paths.trash_dir.iterdir())) == 2


def test_backups_made_in_the_same_second_keep_their_extension(paths):
    """The second one was once named '….tar.gz-2' (not found by *.tar.gz, not opened as one)."""
    import time

    from agenttui.core.backup.archive import default_backup_path
    from agenttui.core.files import timestamp_slug

    paths.backups_dir.mkdir(parents=True, exist_ok=True)
    now = time.time()
    # this second and the next ten minutes are taken: on a loaded machine (a CI run with two CPU
    # hogs beside it) more than six seconds passed before the backup's name was chosen
    for second in range(600):
        (paths.backups_dir / f"agenttui-backup-{timestamp_slug(now + second)}.tar.gz").touch()
    path = default_backup_path(paths)
    assert path.name.endswith(".tar.gz") and not path.exists()
    assert path.name.startswith("agenttui-backup-") and path.name.count("-") == 3  # …Z-2.tar.gz
    made = create_backup(paths, output=path)
    assert made in set(paths.backups_dir.glob("*.tar.gz"))
