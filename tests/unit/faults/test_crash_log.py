"""A bug is one line naming a redacted crash log, never a traceback."""

from __future__ import annotations

import pytest

from agenttui.cli import main
from agenttui.core.crash_log import command_words, state_dirs, write_crash_log
from agenttui.core.memory.store import MemoryStore

SECRET = "sk-proj-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0"


@pytest.fixture
def a_bug(monkeypatch):
    """A bug somewhere under a command (a store method that breaks its contract)."""

    def broken(self, *args, **kwargs):
        raise RuntimeError(f"unexpected state while holding {SECRET}")

    monkeypatch.setattr(MemoryStore, "items", broken)


def test_a_bug_is_one_line_and_a_private_redacted_log(a_bug, isolated_home, capsys):
    assert main(["memory", "list", "--scope", "user"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    logs = list((isolated_home / "log").glob("crash-*.log"))
    assert len(logs) == 1
    assert err == (f"agenttui: internal error (RuntimeError); details are in {logs[0]} "
                   "(secrets redacted). Please report it with that file.\n")
    text = logs[0].read_text()
    assert "Traceback" in text and "RuntimeError" in text and "command: agenttui memory list" in text
    assert SECRET not in text and "[REDACTED" in text
    assert logs[0].stat().st_mode & 0o777 == 0o600
    assert (isolated_home / "log").stat().st_mode & 0o777 == 0o700


def test_the_log_falls_back_to_the_temp_dir(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    (home / "log").write_text("a file where the folder should be")  # the log dir cannot be made
    monkeypatch.setenv("AGENTTUI_HOME", str(home))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # re-read TMPDIR
    try:
        raise ValueError("boom")
    except ValueError as exc:
        path = write_crash_log(exc, ["history", "list"])
    assert path is not None and path.parent == state_dirs("log")[1]
    assert str(path).startswith(str(tmp_path / "tmp")) and "boom" in path.read_text()


def test_no_user_text_in_the_command_line_of_a_log():
    assert command_words(["memory", "add", "my secret diary entry"]) == "memory add"
    assert command_words(["--profile", "work", "ask", "hello"]) == "ask"
    assert command_words(["history", "search", "tea"]) == "history search"
    assert command_words(["profile", "create", "secretproject"]) == "profile create"
    assert command_words(["tui"]) == "tui"
    assert command_words(["Hello there"]) == ""
