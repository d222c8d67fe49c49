"""The installed command on a really full disk and a really read-only one.

A small tmpfs filled to the last byte answers ENOSPC from the kernel; a
read-only bind mount answers EROFS. Both need mount rights (see conftest);
without them these tests skip and test_fault_write_paths covers the same
paths with injected errors.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.unit.faults.conftest import fill, no_traceback

SECRET = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"


@pytest.mark.slow
def test_full_disk(real_tmpfs, run_cli, fake_openai, tmp_path):
    with real_tmpfs("2m") as root:
        home = root / "home"
        assert run_cli(home, "memory", "add", "I drink tea").code == 0
        fake_openai.reply("first answer")
        assert run_cli(home, "ask", "first question").code == 0
        db = home / "data" / "profiles" / "default" / "history.sqlite3"
        # Keep the database open, as a running app would: its -wal/-shm stay,
        # so the next ask opens fine and fails only when the WAL must grow.
        keeper = sqlite3.connect(str(db))
        keeper.execute("SELECT count(*) FROM messages").fetchone()
        filler = fill(root)
        try:
            fake_openai.reply("second answer " * 200)
            asked = run_cli(home, "ask", f"second question, token {SECRET} " + "words " * 3000)
            no_traceback(asked)
            assert asked.code == 1, asked.err
            assert "second answer" in asked.out
            assert "could not be saved to history" in asked.err and "disk is full" in asked.err
            recovery = asked.err.rsplit(" is in ", 1)[1].strip()
            text = Path(recovery).read_text()  # the full disk's own dir could not take it: temp dir
            assert "second question" in text and "second answer" in text and SECRET not in text
            for argv in (("memory", "add", "more tea"), ("memory", "set", "language", "en"),
                         ("profile", "create", "work")):
                result = run_cli(home, *argv)
                no_traceback(result)
                assert result.code == 1, (argv, result.err)
                assert "the disk is full" in result.err and str(home) in result.err
        finally:
            keeper.close()
            filler.unlink()
        listed = run_cli(home, "memory", "list")
        assert listed.code == 0 and "I drink tea" in listed.out and "more tea" not in listed.out
        assert run_cli(home, "profile", "create", "work").code == 0  # nothing half-made was left


@pytest.mark.slow
def test_read_only_data_directory(readonly_bind, run_cli, fake_openai, tmp_path):
    home = tmp_path / "home"
    assert run_cli(home, "memory", "add", "I drink tea").code == 0
    fake_openai.reply("an answer")
    assert run_cli(home, "ask", "a question").code == 0
    with readonly_bind(home) as view:
        listed = run_cli(view, "memory", "list")
        assert listed.code == 0 and "I drink tea" in listed.out  # reading needs no writes
        for argv in (("memory", "add", "x"), ("history", "list"), ("ask", "hello"),
                     ("profile", "create", "work")):
            result = run_cli(view, *argv)
            no_traceback(result)
            assert result.code == 1, (argv, result.err)
            assert "read-only" in result.err.lower() and str(view) in result.err, result.err
            assert "AGENTTUI_HOME" in result.err  # what to do
