"""Every write path under ENOSPC, EROFS, EACCES and EIO.

Each path is the real core code over a real AGENTTUI_HOME; the fault comes
from the ``os`` calls beneath it (conftest.fail_os). For every path and
fault: the error is one the policy explains (what happened, which file),
what was there before is still there and readable (never a silent loss),
and no temp file is left behind.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from agenttui.core.errors import explain
from tests.unit.faults.conftest import FAULTS, WORDS, fail_os


@pytest.fixture
def home(services, isolated_home) -> Path:
    """A profile with one of everything already written."""
    services.memory.add_note("I drink tea, not coffee", source="explicit")
    services.memory.set_fact("language", "en", source="explicit")
    services.project.append_decision("use sqlite", "one file per profile", day=date(2026, 1, 2))
    services.project.write_context("the project: agenttui")
    services.profiles.create("work")
    return isolated_home


def snapshot(root: Path) -> dict[str, bytes]:
    """Every regular file's bytes, lock files aside (their content means nothing)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.name.endswith(".lock")}


def _backup(services) -> None:
    from agenttui.core.backup.archive import create_backup

    create_backup(services.paths)


def _save_config(services) -> None:
    from agenttui.core.config.file import save_settings

    services.settings.memory.max_notes = 7
    save_settings(services.paths, services.settings)


WRITES: dict[str, Callable] = {
    "memory add": lambda s: s.memory.add_note("I prefer short answers", source="explicit"),
    "memory set": lambda s: s.memory.set_fact("timezone", "Asia/Jakarta", source="explicit"),
    "memory forget": lambda s: s.memory.remove([i.id for i in s.memory.items("all")][:1]),
    "profile create": lambda s: s.profiles.create("home"),
    "profile save": lambda s: s.profiles.save(s.profiles.get("work")),
    "decision append": lambda s: s.project.append_decision("second", "body", day=date(2026, 1, 3)),
    "context write": lambda s: s.project.write_context("rewritten"),
    "session archive": lambda s: s.project.archive_session("a session", day=date(2026, 1, 3)),
    "config save": _save_config,
    "backup create": _backup,
}


@pytest.mark.slow
@pytest.mark.parametrize("code", FAULTS, ids=lambda c: WORDS[c].split()[-1])
@pytest.mark.parametrize("name", list(WRITES))
def test_a_failed_write_is_explained_and_loses_nothing(name, code, services, home, monkeypatch):
    before = snapshot(home)
    with monkeypatch.context() as patch, pytest.raises(Exception) as caught:
        fail_os(patch, code, home)  # a context: undo() would also drop AGENTTUI_HOME
        WRITES[name](services)
    message = explain(caught.value)
    assert message is not None, f"{name}: {caught.value!r} is not an expected failure"
    assert WORDS[code] in message, message
    assert str(home) in message, f"{name}: the message names no file: {message}"
    after = snapshot(home)
    for rel, data in before.items():  # appends may have written part of the new entry: prefix
        assert rel in after, f"{name}: {rel} vanished"
        assert after[rel].startswith(data), f"{name}: {rel} changed"
    assert not [p for p in home.rglob("*.tmp")], f"{name}: temp files left"
    # and everything written before reads back through the real stores
    services.memory._cache.clear()
    assert {i.display for i in services.memory.items("all")} >= {"I drink tea, not coffee", "language = en"}
    assert services.profiles.get("work") is not None


def test_the_cli_says_it_in_one_line_with_exit_1(services, home, monkeypatch, capsys):
    from agenttui.cli import main

    for code in FAULTS:
        for argv in (["memory", "add", "note while failing"], ["memory", "set", "tz", "UTC"],
                     ["profile", "create", "other"]):
            with monkeypatch.context() as patch:
                fail_os(patch, code, home)
                result = main(argv)
            err = capsys.readouterr().err
            assert result == 1, (code, argv, err)
            assert WORDS[code] in err and str(home) in err, err
            assert "Traceback" not in err and err.count("\n") == 1, err
    assert main(["memory", "list"]) == 0
    out = capsys.readouterr().out
    assert "I drink tea" in out and "note while failing" not in out


def test_a_profile_create_that_failed_can_be_retried(services, home, monkeypatch):
    import errno

    from agenttui.core.config.profiles import ProfileExists

    with monkeypatch.context() as patch, pytest.raises(OSError):
        fail_os(patch, errno.ENOSPC, home)
        services.profiles.create("later")
    assert services.profiles.create("later").name == "later"  # not "already exists"
    with pytest.raises(ProfileExists):
        services.profiles.create("later")
