"""A theme, a project file, a profile or the settings deleted on one machine is deleted on the
others, each copy moved to the trash first; a deletion that races an edit made on another
machine loses to the edit on every machine, and the deletion is kept as a conflict."""

from __future__ import annotations

import json
import tomllib

import pytest

pytestmark = pytest.mark.slow


def _pair(machines, tmp_path):
    a, b = machines("a", "b")
    folder = str(tmp_path / "Sync")
    for m in (a, b):
        assert m.join("folder", folder).code == 0
    return a, b


def _write(path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _trashed(machine, name: str) -> list[str]:
    trash = machine.paths.trash_dir
    return [p.read_text(encoding="utf-8") for p in trash.rglob(name) if p.is_file()] if trash.is_dir() else []


def test_a_deleted_theme_project_file_and_settings_go_on_the_other_machine_via_its_trash(machines, tmp_path):
    a, b = _pair(machines, tmp_path)
    theme = a.paths.user_themes_dir / "dusk.toml"
    _write(theme, 'name = "dusk"\n')
    context = a.paths.project_dir("default") / "context.md"
    _write(context, "# Context\nthe billing service\n")
    _write(a.paths.config_file, 'user_name = "Budi"\n')
    a.sync()
    b.sync()
    b_theme = b.paths.user_themes_dir / "dusk.toml"
    b_context = b.paths.project_dir("default") / "context.md"
    assert b_theme.exists() and b_context.exists()
    # b's own MCP servers: never synced, and a deletion of the settings must not take them
    b.paths.config_file.write_text(b.paths.config_file.read_text(encoding="utf-8")
                                   + '\n[mcp.servers.local]\ncommand = "local-tool"\n', encoding="utf-8")
    b.sync()

    theme.unlink()
    context.unlink()
    a.paths.config_file.unlink()
    sent = a.sync()
    assert sent.out.startswith("sent 3 changes"), sent.out
    b.sync()
    assert not b_theme.exists() and not b_context.exists()
    assert _trashed(b, "dusk.toml") == ['name = "dusk"\n']
    assert _trashed(b, "context.md") == ["# Context\nthe billing service\n"]
    settings = tomllib.loads(b.paths.config_file.read_text(encoding="utf-8"))
    assert "user_name" not in settings and settings["mcp"]["servers"]["local"]["command"] == "local-tool"
    assert any("Budi" in text for text in _trashed(b, "config.toml"))

    # nothing comes back: both ends agree and send nothing more
    for m in (a, b, a):
        again = m.sync()
        assert again.out.startswith("sent 0 changes, received 0"), (m.name, again.out)
    assert not theme.exists() and not context.exists() and not a.paths.config_file.exists()


def test_a_profile_deleted_whole_goes_to_the_trash_on_the_other_machine(machines, tmp_path):
    from agenttui.core.config.profiles import ProfileStore

    a, b = _pair(machines, tmp_path)
    ProfileStore(a.paths).create("work")
    _write(a.paths.project_dir("work") / "decisions.md", "# Decisions\n")
    a.sync()
    b.sync()
    assert ProfileStore(b.paths).get("work") is not None

    ProfileStore(a.paths).delete("work")
    a.sync()
    b.sync()
    assert "work" not in ProfileStore(b.paths).names()
    trashed = [p for p in b.paths.trash_dir.iterdir() if p.name.startswith("work-")]
    assert trashed and (trashed[0] / "project" / "decisions.md").exists()
    for m in (a, b):
        assert m.sync().out.startswith("sent 0 changes, received 0")
    assert "work" not in ProfileStore(a.paths).names()


def test_a_profile_deleted_elsewhere_while_open_here_waits_until_it_is_closed(machines, tmp_path):
    """An app here with the profile open would go on writing into the trash: the deletion waits."""
    import os

    from agenttui.core.config.profiles import ProfileStore
    from agenttui.core.history.store import HistoryStore

    a, b = _pair(machines, tmp_path)
    ProfileStore(a.paths).create("work")
    a.sync()
    b.sync()
    open_here = HistoryStore(b.paths.history_db("work"))
    open_here.create_conversation("still writing")  # its connection (and claim) stays open
    ProfileStore(a.paths).delete("work")
    a.sync()
    waiting = b.run("sync")
    assert waiting.code == 1, (waiting.out, waiting.err)
    assert f"profile 'work' is open in agenttui (process {os.getpid()})" in waiting.err, waiting.err
    assert "applied at the next sync after it is closed here" in waiting.err, waiting.err
    assert "delete again" not in waiting.err, waiting.err  # the CLI's advice, not sync's
    assert b.paths.profile_dir("work").is_dir() and ProfileStore(b.paths).get("work") is not None

    open_here.close()
    b.sync()
    assert "work" not in ProfileStore(b.paths).names()
    trashed = [p for p in b.paths.trash_dir.iterdir() if p.name.startswith("work-")]
    assert trashed and (trashed[0] / "history.sqlite3").exists()
    assert b.sync().out.startswith("sent 0 changes, received 0")


def test_a_deletion_that_races_an_edit_loses_to_it_on_both_machines(machines, tmp_path):
    a, b = _pair(machines, tmp_path)
    theme = a.paths.user_themes_dir / "dusk.toml"
    _write(theme, 'name = "dusk"\n')
    a.sync()
    b.sync()
    b_theme = b.paths.user_themes_dir / "dusk.toml"

    # b edits first and a deletes later (a's clock is the later one), neither knowing of the other
    b_theme.write_text('name = "dusk"\nprimary = "#aa66cc"\n', encoding="utf-8")
    b.sync()
    theme.unlink()
    a.sync()  # receives b's edit after recording its own deletion
    b.sync()  # receives a's deletion
    a.sync()

    edited = 'name = "dusk"\nprimary = "#aa66cc"\n'
    assert theme.read_text(encoding="utf-8") == edited
    assert b_theme.read_text(encoding="utf-8") == edited
    for m in (a, b):
        status = json.loads(m.run("sync", "status", "--json").out)
        kept = [c for c in status["conflicts"] if c["key"] == "file/themes/dusk.toml"]
        assert kept and json.loads(kept[0]["loser"]) == {"path": "themes/dusk.toml", "deleted": True}, m.name
