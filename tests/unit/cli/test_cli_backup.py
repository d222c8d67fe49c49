"""``agenttui backup`` / ``restore``."""

from __future__ import annotations

import io
import json
import stat
import tarfile

import pytest

from agenttui.core.files import atomic_write_text


@pytest.mark.slow
def test_backup_then_restore(cli, paths, tmp_path):
    atomic_write_text(paths.user_memory_file, '{"v": 1}')
    out = tmp_path / "b.tar.gz"
    made = cli("backup", "--output", str(out))
    assert made.code == 0, made.err
    assert made.out.strip() == str(out)
    assert stat.S_IMODE(out.stat().st_mode) == 0o600

    atomic_write_text(paths.user_memory_file, '{"v": 2}')
    refused = cli("restore", str(out))
    assert refused.code == 1 and "without --yes (stdin is not a terminal)" in refused.err
    assert paths.user_memory_file.read_text() == '{"v": 2}'

    done = cli("restore", str(out), "--yes")
    assert done.code == 0, done.err
    assert paths.user_memory_file.read_text() == '{"v": 1}'
    before = list(paths.backups_dir.glob("agenttui-pre-restore-*.tar.gz"))
    assert len(before) == 1 and str(before[0]) in done.out


def test_default_location(cli, paths):
    made = cli("backup")
    assert made.code == 0
    assert made.out.strip().startswith(str(paths.backups_dir))


def test_restore_refuses_bad_archives(cli, paths, tmp_path):
    assert cli("restore", str(tmp_path / "missing.tar.gz"), "--yes").code == 1
    evil = tmp_path / "evil.tar.gz"
    with tarfile.open(evil, "w:gz") as tar:
        for name, data in (("manifest.json",
                            json.dumps({"format": "agenttui-backup", "version": 1}).encode()),
                           ("../../outside", b"x")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    result = cli("restore", str(evil), "--yes")
    assert result.code == 1 and "unsafe path" in result.err
    assert not paths.backups_dir.exists()
