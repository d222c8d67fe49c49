"""``ask --yes`` runs an MCP tool end to end against a real server."""

from __future__ import annotations

import json
import sys

import pytest

from tests.mcp.conftest import HOSTILE, processes_with, server_bin, wait_until


@pytest.mark.slow
def test_ask_yes_runs_a_real_server_tool(cli, fake_openai):
    env = {"OPENAI_BASE_URL": fake_openai.base_url, "OPENAI_API_KEY": "sk-test-fake"}
    assert cli("mcp", "add", "time", "--", server_bin("mcp-server-time"), "--local-timezone", "UTC").code == 0
    fake_openai.tool_call("mcp__time__get_current_time", {"timezone": "Asia/Tokyo"})
    fake_openai.reply("It is morning in Tokyo.")
    result = cli("ask", "--yes", "What time is it in Tokyo?", env=env)
    assert result.code == 0, result.err
    assert "It is morning in Tokyo." in result.out
    assert "approved [medium risk] mcp__time__get_current_time: MCP server 'time' tool 'get_current_time'" in result.err
    first, second = fake_openai.chat_requests[:2]
    tools = {t["function"]["name"] for t in first["tools"]}
    assert {"mcp__time__get_current_time", "mcp__time__convert_time"} <= tools
    tool_message = [m for m in second["messages"] if m["role"] == "tool"][-1]
    assert '<tool_output tool="mcp__time__get_current_time">' in tool_message["content"]
    assert json.loads(tool_message["content"].split("\n", 1)[1].rsplit("\n", 1)[0])["timezone"] == "Asia/Tokyo"


@pytest.mark.slow
def test_ask_without_yes_denies_and_leaves_no_server_running(cli, fake_openai, tmp_path):
    env = {"OPENAI_BASE_URL": fake_openai.base_url, "OPENAI_API_KEY": "sk-test-fake"}
    marker = str(tmp_path / "marker-ask")  # in the server's argv: found among processes by it
    assert cli("mcp", "add", "bad", "--no-check", "--", sys.executable, HOSTILE, marker).code == 0
    target = tmp_path / "victim.txt"
    fake_openai.tool_call("mcp__bad__wipe", {"path": str(target)})
    fake_openai.reply("Could not.")
    result = cli("ask", "wipe it", env=env)
    assert result.code == 0, result.err
    assert "denied (rerun with --yes to allow)" in result.err and not target.exists()
    assert wait_until(lambda: not processes_with(marker), 10), "the MCP server outlived ask"


@pytest.mark.slow
def test_ask_warns_about_a_server_that_does_not_start(cli, fake_openai):
    env = {"OPENAI_BASE_URL": fake_openai.base_url, "OPENAI_API_KEY": "sk-test-fake"}
    assert cli("mcp", "add", "gone", "--no-check", "--", "/nonexistent/server").code == 0
    fake_openai.reply("Hello.")
    result = cli("ask", "hi", env=env)
    assert result.code == 0, result.err
    assert "MCP server 'gone' is restarting: command not found" in result.err
    assert not any(t["function"]["name"].startswith("mcp__") for t in fake_openai.chat_requests[0]["tools"])


@pytest.mark.slow
def test_dry_run_shows_the_cached_mcp_tools_and_starts_nothing(cli, tmp_path):
    marker = str(tmp_path / "marker-dry")
    assert cli("mcp", "add", "bad", "--", sys.executable, HOSTILE, marker).code == 0
    assert wait_until(lambda: not processes_with(marker), 10)
    result = cli("ask", "--dry-run", "--json", "hello")
    assert result.code == 0, result.err
    names = [t["function"]["name"] for t in json.loads(result.out)["tools"]]
    assert "mcp__bad__huge" in names and "run_shell" in names
    assert not processes_with(marker)


@pytest.mark.slow
def test_ask_incognito_uses_mcp_tools_and_writes_nothing(cli, fake_openai, isolated_home):
    env = {"OPENAI_BASE_URL": fake_openai.base_url, "OPENAI_API_KEY": "sk-test-fake"}
    assert cli("mcp", "add", "time", "--", server_bin("mcp-server-time")).code == 0
    assert cli("ask", "warm up", env=env).code == 0  # the data folder exists as it would
    before = {p: p.read_bytes() for p in isolated_home.rglob("*") if p.is_file()}
    fake_openai.tool_call("mcp__time__get_current_time", {"timezone": "UTC"})
    fake_openai.reply("Noon.")
    result = cli("ask", "--incognito", "--yes", "time?", env=env)
    assert result.code == 0, result.err
    tool_results = [m for m in fake_openai.chat_requests[-1]["messages"] if m["role"] == "tool"]
    assert '"timezone": "UTC"' in tool_results[-1]["content"]
    after = {p: p.read_bytes() for p in isolated_home.rglob("*") if p.is_file()}
    changed = sorted(str(p.relative_to(isolated_home)) for p in before.keys() | after.keys()
                     if before.get(p) != after.get(p) and not _housekeeping(p, before, after))
    assert changed == [], result.err  # which files the incognito run wrote


WAL_HEADER = 32  # bytes: a -wal file holding no frame, i.e. no page written


def _housekeeping(path, before: dict, after: dict) -> bool:
    """SQLite's own sidecars, created or removed with no data in them: the -shm index, and a
    -wal that holds no frame. Whether they are there after a run depends on which connection
    of which process closed last (twice under load in CI they were). A -wal with a frame is
    a page written: that still fails."""
    name = path.name
    if name.endswith("-shm"):
        return True
    if name.endswith("-wal"):
        return all(len(side.get(path, b"")) <= WAL_HEADER for side in (before, after))
    return False
