"""``agenttui restore`` refuses oversized or unexpected archives with a clear message."""

from __future__ import annotations

import pytest

from tests.unit.config.test_restore_limits import _seed, archive_with, assert_untouched, many_files


@pytest.mark.slow
def test_cli_restore_says_why_and_takes_higher_limits(cli, paths, tmp_path):
    before = _seed(paths)
    archive = many_files(tmp_path / "many.tar.gz", 40)
    refused = cli("restore", str(archive), "--yes", "--max-files", "20")
    assert refused.code == 1 and "more than 20 files" in refused.err and "Traceback" not in refused.err
    assert_untouched(paths, before)
    evil = archive_with(tmp_path / "evil.tar.gz", {"config/evil.sh": b"#!/bin/sh\n"})
    refused = cli("restore", str(evil), "--yes")
    assert refused.code == 1 and "'config/evil.sh' is not a file an agenttui backup holds" in refused.err
    assert "--skip-unexpected" in refused.err
    kept = cli("restore", str(evil), "--yes", "--skip-unexpected")
    assert kept.code == 0, kept.err
    assert "left out (not files an agenttui backup holds): config/evil.sh" in kept.err
    assert not (paths.config_dir / "evil.sh").exists()
    assert cli("restore", str(archive), "--yes", "--max-size", "lots").code == 2  # usage error
    done = cli("restore", str(archive), "--yes", "--max-files", "100")
    assert done.code == 0, done.err
    assert (paths.project_dir("p") / "sessions" / "n0000039.md").read_text() == "x"
    assert not paths.user_memory_file.exists()  # restore = as it was in the archive
    assert paths.trash_dir.exists()
