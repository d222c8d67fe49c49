"""``agenttui mcp add|list|remove`` against real servers."""

from __future__ import annotations

import json
import os
import sys
import tomllib
from pathlib import Path

import pytest

from tests.mcp.conftest import HOSTILE, server_bin

REPO = Path(__file__).resolve().parents[2]
SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"  # GitHub's documented token shape, made up


def config(home) -> dict:
    path = home / "config" / "config.toml"
    return tomllib.loads(path.read_text()) if path.exists() else {}


def listing(cli, *extra) -> list[dict]:
    result = cli(*extra, "mcp", "list", "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)


@pytest.mark.slow
def test_add_checks_a_real_server_and_list_shows_its_tools(cli, isolated_home):
    time_server = server_bin("mcp-server-time")
    added = cli("mcp", "add", "time", "--", time_server, "--local-timezone", "UTC")
    assert added.code == 0, added.err
    assert "get_current_time" in added.err
    entry = config(isolated_home)["mcp"]["profiles"]["default"]["servers"]["time"]
    assert entry == {"command": time_server, "args": ["--local-timezone", "UTC"]}
    [row] = listing(cli)
    assert row["name"] == "time" and row["scope"] == "profile" and row["state"] == "ok"
    assert row["tools"] == ["get_current_time", "convert_time"]
    text = cli("mcp", "list")
    assert "get_current_time, convert_time" in text.out


@pytest.mark.slow
def test_scopes_profile_entries_stay_in_their_profile(cli, isolated_home):
    assert cli("profile", "create", "work").code == 0
    assert cli("mcp", "add", "h", "--scope", "user", "--no-check", "--", sys.executable, HOSTILE).code == 0
    assert cli("--profile", "work", "mcp", "add", "t", "--no-check", "--",
               server_bin("mcp-server-time")).code == 0
    assert [r["name"] for r in listing(cli)] == ["h"]
    assert sorted(r["name"] for r in listing(cli, "--profile", "work")) == ["h", "t"]
    assert [r["state"] for r in listing(cli)] == ["not checked"]


@pytest.mark.slow
def test_a_secret_goes_to_the_keyring_and_is_never_printed(cli, isolated_home, file_keyring):
    keyring_file, env = file_keyring
    added = cli("mcp", "add", "gh", "--env", f"GITHUB_PERSONAL_ACCESS_TOKEN={SECRET}", "--env", "LOG=debug",
                "--", sys.executable, HOSTILE, env=env)
    assert added.code == 0, added.err
    entry = config(isolated_home)["mcp"]["profiles"]["default"]["servers"]["gh"]
    assert entry["env"] == {"GITHUB_PERSONAL_ACCESS_TOKEN": "@keyring", "LOG": "debug"}
    assert SECRET in keyring_file.read_text()
    shown = cli("mcp", "list", env=env)
    shown_json = cli("mcp", "list", "--json", env=env)
    for out in (added.out, added.err, shown.out, shown.err, shown_json.out):
        assert SECRET not in out
    assert "env GITHUB_PERSONAL_ACCESS_TOKEN, env LOG (values not shown)" in shown.out
    assert SECRET not in (isolated_home / "config" / "config.toml").read_text()
    removed = cli("mcp", "remove", "gh", env=env)
    assert removed.code == 0, removed.err
    assert SECRET not in keyring_file.read_text()
    assert "gh" not in config(isolated_home).get("mcp", {}).get("profiles", {}).get("default", {}).get("servers", {})


@pytest.mark.slow
def test_without_a_keyring_a_secret_is_refused_and_nothing_written(cli, isolated_home):
    refused = cli("mcp", "add", "gh", "--header", f"Authorization=Bearer {SECRET}",
                  "--url", "http://127.0.0.1:9/mcp")
    assert refused.code == 1
    assert "no keyring" in refused.err and "${AUTHORIZATION}" in refused.err
    assert SECRET not in refused.err + refused.out
    assert "mcp" not in config(isolated_home)
    # the alternative it offers works: a reference, expanded at start, is not a secret
    ok = cli("mcp", "add", "gh", "--no-check", "--header", "Authorization=${AUTHORIZATION}",
             "--url", "http://127.0.0.1:9/mcp")
    assert ok.code == 0, ok.err
    assert config(isolated_home)["mcp"]["profiles"]["default"]["servers"]["gh"]["headers"] == {
        "Authorization": "${AUTHORIZATION}"}


@pytest.mark.slow
def test_http_server_with_headers(cli, http_server, file_keyring):
    _, env = file_keyring
    added = cli("mcp", "add", "web", "--scope", "user", "--url", http_server,
                "--header", "X-Api-Key=" + SECRET, env=env)
    assert added.code == 0, added.err
    [row] = listing(cli, )
    assert row["transport"] == "http" and "header" in row["tools"]


@pytest.mark.slow
def test_a_failing_server_is_kept_with_its_error(cli):
    broken = cli("mcp", "add", "broken", "--", "/nonexistent/server")
    assert broken.code == 1
    assert "saved" in broken.err and "command not found" in broken.err
    lying = cli("mcp", "add", "lying", "--", sys.executable, HOSTILE, "--bad-listing", "--stderr")
    assert lying.code == 1
    assert "ListToolsResult" in lying.err and "hostile server starting\\x1b[31m" in lying.err
    rows = {r["name"]: r for r in listing(cli)}
    assert rows["broken"]["state"] == "error" and "command not found" in rows["broken"]["last_error"]


@pytest.mark.slow
def test_usage_errors_and_duplicates(cli):
    assert cli("mcp", "add", "x").code == 2
    assert cli("mcp", "add", "bad__name", "--", "true").code == 2
    assert cli("mcp", "add", "x", "--url", "http://h/mcp", "--", "cmd").code == 2
    assert cli("mcp", "add", "x", "--no-check", "--", "true").code == 0
    again = cli("mcp", "add", "x", "--no-check", "--", "true")
    assert again.code == 1 and "already exists" in again.err
    assert cli("mcp", "add", "x", "--scope", "user", "--no-check", "--", "true").code == 0
    both = cli("mcp", "remove", "x")
    assert both.code == 2 and "both" in both.err
    assert cli("mcp", "remove", "x", "--scope", "user").code == 0
    assert cli("mcp", "remove", "x").code == 0
    assert cli("mcp", "remove", "x").code == 1


def test_settings_keep_the_mcp_table(paths):
    from agenttui.core.config.file import load_settings, save_settings
    from agenttui.mcp.config import load, servers_table, update

    update(paths, lambda mcp: servers_table(mcp, "user", "default").__setitem__(
        "t", {"command": "mcp-server-time"}))
    loaded = load_settings(paths)
    assert loaded.warnings == []  # the [mcp] table is not an unknown key
    loaded.settings.model = "other-model"
    save_settings(paths, loaded.settings)
    assert list(load(paths, "default").servers) == ["t"]
    assert "other-model" in paths.config_file.read_text()


def test_bad_entries_warn_and_are_skipped(paths):
    from agenttui.mcp.config import effective

    config = effective({"servers": {"ok": {"command": "x", "timeout": -1}, "no": {"args": []},
                                    "bad name": {"command": "x"}},
                        "profiles": {"default": {"disabled": ["ok"]}}}, "default")
    assert list(config.servers) == ["ok"] and config.servers["ok"].enabled is False
    assert config.servers["ok"].timeout == 60
    joined = "\n".join(config.warnings)
    assert "needs `command`" in joined and "invalid MCP server name" in joined and "timeout" in joined


@pytest.mark.slow
def test_commands_that_need_no_server_do_not_start_or_import_one(cli, isolated_home, tmp_path):
    marker = str(tmp_path / "never-started")
    assert cli("mcp", "add", "h", "--no-check", "--", sys.executable, HOSTILE, marker).code == 0
    probe = ("import sys, agenttui.cli as c\ntry:\n    code = c.main(sys.argv[1:])\nfinally:\n"
             "    print('SDK', 'mcp' in sys.modules, file=sys.stderr)\nsys.exit(code)")
    for argv in (["--version"], ["paths"], ["doctor", "--offline"], ["mcp", "list"]):
        import subprocess

        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "src"), str(REPO)]))
        proc = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True,
                              env=env, timeout=60, cwd=tmp_path, check=False)
        assert "SDK False" in proc.stderr, (argv, proc.stderr)
    from tests.mcp.conftest import processes_with

    assert not processes_with(marker)


@pytest.mark.slow
async def test_http_headers_from_the_keyring_reach_the_server(paths, http_server, monkeypatch):
    import keyring

    from agenttui.agent.tools.registry import ToolRegistry
    from agenttui.bootstrap import build_services
    from agenttui.core.models import ToolCall
    from agenttui.mcp.config import KEYRING, keyring_user, servers_table, update
    from agenttui.mcp.manager import attach, detach
    from tests.fakes.memory_keyring import MemoryKeyring

    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    try:
        keyring.set_password("agenttui", keyring_user("user", "default", "web", "header", "X-Api-Key"),
                             "plain-value-42")
        monkeypatch.setenv("TRACE_ID", "trace-7")
        update(paths, lambda mcp: servers_table(mcp, "user", "default").__setitem__(
            "web", {"url": http_server, "headers": {"X-Api-Key": KEYRING, "X-Trace": "${TRACE_ID}"}}))
        services = build_services(paths)
        manager = attach(services)
        manager.start_all()
        await manager.wait_started(30)
        registry = ToolRegistry(services)
        for header, expected in (("x-api-key", "plain-value-42"), ("x-trace", "trace-7")):
            outcome = await registry.execute(ToolCall(id="c", name="mcp__web__header",
                                                      arguments=json.dumps({"name": header})))
            assert outcome.output == expected
        await detach(services)
        services.close()
    finally:
        keyring.set_keyring(previous)


@pytest.mark.slow
def test_a_secret_in_the_arguments_or_url_is_refused_and_var_references_work(cli, isolated_home, monkeypatch):
    refused = cli("mcp", "add", "gh", "--", sys.executable, HOSTILE, "--token", SECRET)
    assert refused.code == 1 and "argument 3 looks like a secret" in refused.err and SECRET not in refused.err
    refused = cli("mcp", "add", "web", "--url", f"https://example.com/mcp?token={SECRET}")
    assert refused.code == 1 and "the URL looks like a secret" in refused.err
    assert "mcp" not in config(isolated_home)
    # '${VAR}' in an argument: kept as written, expanded when the server starts
    added = cli("mcp", "add", "h", "--", sys.executable, HOSTILE, "${MARKER_ARG}", env={"MARKER_ARG": "--stderr"})
    assert added.code == 0, added.err
    assert config(isolated_home)["mcp"]["profiles"]["default"]["servers"]["h"]["args"] == [HOSTILE, "${MARKER_ARG}"]
    missing = cli("mcp", "add", "h2", "--", sys.executable, HOSTILE, "${NOT_SET_ANYWHERE}")
    assert missing.code == 1 and "uses ${NOT_SET_ANYWHERE}, which is not set" in missing.err
