"""``agenttui profile …`` as a subprocess."""

from __future__ import annotations

import json
import os
import pty

import pytest

from agenttui.core.config.paths import Paths


@pytest.mark.slow
def test_create_list_and_nearest_binding(cli, tmp_path):
    project = tmp_path / "proj"
    (project / "sub").mkdir(parents=True)
    created = cli("profile", "create", "proj", "--path", str(project))
    assert created.code == 0, created.err
    assert "created profile proj" in created.out
    assert cli("profile", "create", "other").code == 0

    listed = cli("profile", "list", "--json", cwd=project / "sub")
    rows = {row["name"]: row for row in json.loads(listed.out)}
    assert set(rows) == {"default", "proj", "other"}
    assert rows["proj"]["active"] and not rows["default"]["active"]
    assert rows["proj"]["paths"] == [str(project.resolve())]
    assert "* default" in cli("profile", "list", cwd=tmp_path).out
    assert "* other" in cli("--profile", "other", "profile", "list", cwd=project).out


def test_create_errors_exit_1(cli):
    assert cli("profile", "create", "dup").code == 0
    dup = cli("profile", "create", "dup")
    assert dup.code == 1 and "already exists" in dup.err
    bad = cli("profile", "create", "../x")
    assert bad.code == 1 and "invalid profile name" in bad.err


@pytest.mark.slow
def test_create_with_a_bad_path_creates_nothing(cli, tmp_path):
    """Exit 1 used to leave the profile created (unbound) behind."""
    missing = tmp_path / "nonexistent"
    result = cli("profile", "create", "work", "--path", str(missing))
    assert result.code == 1 and "not a directory" in result.err
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    assert cli("profile", "create", "work", "--path", str(a_file)).code == 1
    taken = tmp_path / "taken"
    taken.mkdir()
    assert cli("profile", "create", "first", "--path", str(taken)).code == 0
    clash = cli("profile", "create", "work", "--path", str(taken))
    assert clash.code == 1 and "already bound to profile 'first'" in clash.err
    names = {row["name"] for row in json.loads(cli("profile", "list", "--json").out)}
    assert names == {"default", "first"}
    created = cli("profile", "create", "work", "--path", str(tmp_path))  # the name is still free
    assert created.code == 0, created.err


def test_unknown_override_exit_1_lists_profiles(cli):
    result = cli("--profile", "nope", "profile", "list")
    assert result.code == 1 and "no profile named 'nope'" in result.err and "default" in result.err


def test_usage_errors_exit_2(cli):
    assert cli("profile").code == 2
    assert cli("profile", "frobnicate").code == 2


def test_delete_refuses_without_yes_when_stdin_is_not_a_terminal(cli, paths):
    cli("profile", "create", "work")
    result = cli("profile", "delete", "work")
    assert result.code == 1
    assert "refusing to delete profile 'work'" in result.err
    assert "without --yes (stdin is not a terminal)" in result.err
    assert paths.profile_dir("work").is_dir()
    assert not paths.backups_dir.exists()


@pytest.mark.slow
def test_delete_with_yes_backs_up_then_trashes(cli, paths):
    cli("profile", "create", "work")
    (paths.profile_dir("work") / "memory.json").write_text("{}")
    result = cli("profile", "delete", "work", "--yes")
    assert result.code == 0, result.err
    backups = list(paths.backups_dir.glob("agenttui-backup-*.tar.gz"))
    assert len(backups) == 1 and str(backups[0]) in result.out
    trashed = [p for p in paths.trash_dir.iterdir() if p.name.startswith("work-")]
    assert len(trashed) == 1 and str(trashed[0]) in result.out
    assert (trashed[0] / "memory.json").exists()
    assert not paths.profile_dir("work").exists()
    assert cli("profile", "delete", "work", "--yes").code == 1


@pytest.mark.slow
def test_delete_of_a_profile_open_in_another_process_is_refused_before_any_backup(cli, paths):
    from agenttui.core.history.store import HistoryStore

    cli("profile", "create", "work")
    history = HistoryStore(paths.history_db("work"))  # this test's process is "the app"
    history.create_conversation("open in the app")
    try:
        result = cli("profile", "delete", "work", "--yes")
        assert result.code == 1, result.out
        assert f"profile 'work' is open in agenttui (process {os.getpid()})" in result.err
        assert "nothing was moved" in result.err
        assert paths.profile_dir("work").is_dir()
        assert not paths.backups_dir.exists() or not list(paths.backups_dir.glob("agenttui-backup-*"))
    finally:
        history.close()
    assert cli("profile", "delete", "work", "--yes").code == 0
    assert not paths.profile_dir("work").exists()


def _on_a_terminal(cli, typed: str, *args: str):
    """Run with a pseudo-terminal as stdin and type ``typed``."""
    master, slave = pty.openpty()
    try:
        os.write(master, typed.encode())
        return cli(*args, stdin=slave)
    finally:
        os.close(slave)
        os.close(master)


@pytest.mark.slow
def test_on_a_terminal_the_profile_name_must_be_typed(cli):
    paths = Paths.from_env()
    cli("profile", "create", "work")
    wrong = _on_a_terminal(cli, "yes\n", "profile", "delete", "work")
    assert wrong.code == 1 and "cancelled" in wrong.err
    assert "Type 'work' to confirm" in wrong.out
    assert paths.profile_dir("work").is_dir()
    right = _on_a_terminal(cli, "work\n", "profile", "delete", "work")
    assert right.code == 0, right.err
    assert not paths.profile_dir("work").exists()


@pytest.mark.slow
def test_help_texts_name_no_internal_ids(cli):
    """`agenttui memory --help` once showed 'M9' in parentheses, an id of the old design document."""
    import re

    for command in (("--help",), ("memory", "--help"), ("history", "--help"), ("profile", "--help"),
                    ("backup", "--help"), ("key", "--help"), ("ask", "--help"), ("memory", "audit", "--help")):
        shown = cli(*command).out
        assert shown, command
        assert not re.search(r"\(([A-Z]\d+|§\d+)[,)]|\b[A-Z]\d{1,2}\)", shown), (command, shown)
