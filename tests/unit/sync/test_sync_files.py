"""Profiles with their folder bindings, project memory, themes and the non-secret settings
reach the other machines; each machine's MCP servers stay its own and never leave it."""

from __future__ import annotations

import json
import subprocess
import tomllib

import pytest

from tests.unit.sync.test_sync_three_machines import _setup

pytestmark = pytest.mark.slow

MCP_TOKEN = "mcp-plain-value-quokkafig"


def _profiles(machine):
    from agenttui.core.config.profiles import ProfileStore

    return ProfileStore(machine.paths)


def _config(machine) -> dict:
    return tomllib.loads(machine.paths.config_file.read_text(encoding="utf-8"))


def test_profiles_project_memory_themes_and_settings_sync(machines, target, tmp_path):
    kind, _location, root = target
    a, b, c = _setup(machines, target)
    project = tmp_path / "src" / "billing"
    project.mkdir(parents=True)
    _profiles(a).create("work", bind=project)
    context = a.paths.project_dir("work") / "context.md"
    context.parent.mkdir(parents=True, exist_ok=True)
    context.write_text("# Context\nMigrating billing to Postgres 16.\n", encoding="utf-8")
    theme = a.paths.user_themes_dir / "dusk.toml"
    theme.parent.mkdir(parents=True, exist_ok=True)
    theme.write_text('name = "dusk"\nprimary = "#aa66cc"\n', encoding="utf-8")
    a.paths.config_file.write_text(
        '# my settings\nuser_name = "Budi"\n\n[history]\nwindow_messages = 40\n\n'
        f'[mcp.servers.docs]\ncommand = "docs-server"\nenv = {{ LOG_LEVEL = "{MCP_TOKEN}" }}\n',
        encoding="utf-8")
    b.paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    b.paths.config_file.write_text('temperature = 0.3\n\n[mcp.servers.local]\ncommand = "local-tool"\n',
                                   encoding="utf-8")

    a.sync()
    b.sync()
    c.sync()
    a.sync()

    for m in (b, c):
        work = _profiles(m).get("work")
        assert work is not None and [str(p) for p in work.paths] == [str(project.resolve())], m.name
        assert (m.paths.project_dir("work") / "context.md").read_text(encoding="utf-8") == context.read_text()
        assert (m.paths.user_themes_dir / "dusk.toml").read_text(encoding="utf-8") == theme.read_text()
        config = _config(m)
        assert config["user_name"] == "Budi" and config["history"]["window_messages"] == 40, m.name
        assert "docs" not in config.get("mcp", {}).get("servers", {}), m.name  # a's servers stay on a
    # b joined a group that had settings: the group's won, b's own servers stayed, and its
    # settings before are kept as a conflict
    assert _config(b)["mcp"]["servers"]["local"]["command"] == "local-tool"
    assert "temperature" not in _config(b)
    status = json.loads(b.run("sync", "status", "--json").out)
    assert any(c["key"] == "file/config.toml" and "0.3" in c["loser"] for c in status["conflicts"]), status
    assert "# my settings" in a.paths.config_file.read_text(encoding="utf-8")  # values sync; comments stay
    assert _config(a)["mcp"]["servers"]["docs"]["command"] == "docs-server"
    assert "local" not in _config(a)["mcp"]["servers"]

    # an edit later on b goes everywhere, and a keeps its own servers
    b.paths.config_file.write_text(b.paths.config_file.read_text().replace('"Budi"', '"Budi S."'))
    with open(a.paths.project_dir("work") / "decisions.md", "w", encoding="utf-8") as handle:
        handle.write("# Decisions\n## 2026-11-27: Postgres 16\nChosen for its MERGE.\n")
    b.sync()
    a.sync()
    c.sync()
    b.sync()
    assert _config(a)["user_name"] == "Budi S." and _config(a)["mcp"]["servers"]["docs"]
    assert _config(c)["user_name"] == "Budi S."
    for m in (b, c):
        assert "Chosen for its MERGE" in (m.paths.project_dir("work") / "decisions.md").read_text()

    found = subprocess.run(["grep", "-r", "-l", "-e", MCP_TOKEN, "-e", "Postgres", str(root)],
                           capture_output=True, text=True)
    assert found.returncode == 1, found.stdout
    again = a.sync()
    assert again.out.startswith("sent 0 changes, received 0"), again.out  # applying changed nothing to resend


def test_settings_are_not_merged_into_a_local_file_that_does_not_parse(machines, tmp_path):
    a, b = machines("a", "b")
    folder = str(tmp_path / "Sync")
    for m in (a, b):
        assert m.join("folder", folder).code == 0
    for m in (a, b):
        m.paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    a.paths.config_file.write_text('user_name = "Budi"\n', encoding="utf-8")
    theme = a.paths.user_themes_dir / "dusk.toml"
    theme.parent.mkdir(parents=True, exist_ok=True)
    theme.write_text('name = "dusk"\n', encoding="utf-8")
    a.sync()
    b.paths.config_file.write_text("user_name = \n[broken", encoding="utf-8")
    result = b.sync()
    assert "does not parse" in result.err and "config.toml" in result.err, result.err
    assert b.paths.config_file.read_text(encoding="utf-8") == "user_name = \n[broken"  # left as it was
    assert (b.paths.user_themes_dir / "dusk.toml").read_text(encoding="utf-8") == 'name = "dusk"\n'
