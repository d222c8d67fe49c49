"""MCP in the TUI: lazy start after the panes, a tool call
end to end with approval (rendered with the server's name), the MCP screen,
/mcp inserting a prompt, and no server left running after quit."""

from __future__ import annotations

import os
import sys

import pytest

from tests.fakes.memory_keyring import memory_keyring_installed
from tests.mcp.conftest import HOSTILE, alive
from tests.ui.helpers import approve, send, wait_until


@pytest.fixture(autouse=True)
def memory_keyring():
    with memory_keyring_installed() as backend:
        yield backend


@pytest.fixture
def mcp_services(fake_openai, paths, tmp_path):
    from agenttui.bootstrap import build_services
    from agenttui.mcp.config import servers_table, update

    update(paths, lambda mcp: servers_table(mcp, "user", "default").__setitem__(
        "bad", {"command": sys.executable, "args": [HOSTILE, "--stderr"]}))
    services = build_services(paths=paths, cwd=tmp_path, environ=dict(os.environ))
    yield services
    services.close()


@pytest.mark.slow
async def test_tool_call_in_the_tui_and_no_server_after_quit(mcp_services, fake_openai):
    from agenttui.mcp.manager import attached
    from agenttui.ui.app import make_app
    from agenttui.ui.screens.approval import ApprovalScreen
    from agenttui.ui.widgets.tool_call_view import ToolCallView

    fake_openai.tool_call("mcp__bad__pid", {})
    fake_openai.reply("Done.")
    app = make_app(mcp_services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: attached(mcp_services) is not None
                         and attached(mcp_services).connections["bad"].state == "ready")
        await send(pilot, "what is your pid?")
        await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.focused is not None)
        assert "MCP server 'bad' tool 'pid'" in str(app.screen.query_one("#approval-command").render())
        await approve(pilot, app)
        await wait_until(pilot, lambda: len(fake_openai.chat_requests) >= 2)
        tool_message = [m for m in fake_openai.chat_requests[1]["messages"] if m["role"] == "tool"][-1]
        pid = int(tool_message["content"].split("\n")[1])
        assert alive(pid)
        view = app.screen.query_one(ToolCallView)
        await wait_until(pilot, lambda: view.status == "ok")
        heading = str(view._heading())
        assert heading.startswith("⚙ bad › pid (MCP)")
    assert not alive(pid), "the MCP server outlived the app"


@pytest.mark.slow
async def test_mcp_screen_shows_state_tools_stderr_and_inserts_a_prompt(mcp_services, paths):
    from agenttui.mcp.config import load
    from agenttui.mcp.manager import attached
    from agenttui.ui.app import make_app
    from agenttui.ui.screens.mcp import McpScreen

    app = make_app(mcp_services, check_api_key=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: attached(mcp_services) is not None
                         and attached(mcp_services).connections["bad"].state == "ready")
        await send(pilot, "/mcp")
        await wait_until(pilot, lambda: isinstance(app.screen, McpScreen))
        info = str(app.screen.query_one("#info").render())
        assert "bad  [user scope, stdio]  ready" in info and "huge, escapes" in info
        assert "hostile server starting\\x1b[31m (red)" in info  # stderr, inert
        await pilot.press("r")
        await wait_until(pilot, lambda: app.screen.query_one("#items").option_count > 0)
        app.screen.query_one("#items").highlighted = [item[2] for item in app.screen._items].index("review")
        await pilot.press("enter")
        try:
            await wait_until(pilot, lambda: not isinstance(app.screen, McpScreen), 10)
        except AssertionError as error:
            raise AssertionError(f"{list(app.notices)} focused={app.focused}") from error
        from tests.ui.helpers import chat

        assert "Review this code carefully" in chat(app).prompt.text
        await send(pilot, "/mcp")
        await wait_until(pilot, lambda: isinstance(app.screen, McpScreen))
        await pilot.press("e")  # disable for this profile: stopped now, written to config.toml
        connection = attached(mcp_services).connections["bad"]
        await wait_until(pilot, lambda: connection.state == "disabled")
        assert load(paths, "default").servers["bad"].enabled is False
        await pilot.press("e")
        await wait_until(pilot, lambda: connection.state == "ready")
        assert load(paths, "default").servers["bad"].enabled is True


@pytest.mark.slow
async def test_a_profile_switch_starts_that_profiles_servers(mcp_services, paths):
    from agenttui.mcp.config import servers_table, update
    from agenttui.mcp.manager import attached
    from agenttui.ui.app import make_app

    mcp_services.profiles.create("work")
    update(paths, lambda mcp: servers_table(mcp, "profile", "work").__setitem__(
        "worktime", {"command": sys.executable, "args": [HOSTILE]}))
    app = make_app(mcp_services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: attached(mcp_services) is not None
                         and attached(mcp_services).connections["bad"].state == "ready")
        old = attached(mcp_services).connections["bad"]
        app._switch_profile("work")
        await wait_until(pilot, lambda: attached(mcp_services) is not None
                         and "worktime" in attached(mcp_services).connections
                         and attached(mcp_services).connections["worktime"].state == "ready")
        assert old.state == "stopped" and set(attached(mcp_services).connections) == {"bad", "worktime"}


@pytest.mark.slow
async def test_tui_runs_a_real_pypi_server_tool(fake_openai, paths, tmp_path):
    """mcp-server-time (PyPI) end to end in the TUI: listed, approved, its answer in the next request."""
    from agenttui.bootstrap import build_services
    from agenttui.mcp.config import servers_table, update
    from agenttui.mcp.manager import attached
    from agenttui.ui.app import make_app
    from agenttui.ui.screens.approval import ApprovalScreen
    from tests.mcp.conftest import server_bin

    update(paths, lambda mcp: servers_table(mcp, "profile", "default").__setitem__(
        "time", {"command": server_bin("mcp-server-time"), "args": ["--local-timezone", "UTC"]}))
    services = build_services(paths=paths, cwd=tmp_path, environ=dict(os.environ))
    fake_openai.tool_call("mcp__time__convert_time", {"source_timezone": "Europe/Paris", "time": "09:30",
                                                      "target_timezone": "Asia/Tokyo"})
    fake_openai.reply("17:30 in Tokyo.")
    app = make_app(services, check_api_key=False)
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await wait_until(pilot, lambda: attached(services) is not None
                             and attached(services).connections["time"].state == "ready")
            await send(pilot, "09:30 in Paris is what time in Tokyo?")
            await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.focused is not None)
            await approve(pilot, app)
            await wait_until(pilot, lambda: len(fake_openai.chat_requests) >= 2)
            assert "mcp__time__convert_time" in {t["function"]["name"] for t in fake_openai.chat_requests[0]["tools"]}
            tool_message = [m for m in fake_openai.chat_requests[1]["messages"] if m["role"] == "tool"][-1]
            assert '"target"' in tool_message["content"] and "Asia/Tokyo" in tool_message["content"]
    finally:
        services.close()


@pytest.mark.slow
async def test_bad_entries_and_a_failing_server_are_said(fake_openai, paths, tmp_path, monkeypatch):
    from agenttui.bootstrap import build_services
    from agenttui.mcp import connection as connection_module
    from agenttui.mcp.config import servers_table, update
    from agenttui.ui.app import make_app
    from tests.ui.helpers import notifications

    monkeypatch.setattr(connection_module, "BACKOFF_START", 0.05)

    def change(mcp):
        servers_table(mcp, "user", "default").update({
            "nocommand": {"args": ["x"]},
            "dies": {"command": sys.executable, "args": ["-c", "import sys; sys.exit(3)"]}})
    update(paths, change)
    services = build_services(paths=paths, cwd=tmp_path, environ=dict(os.environ))
    app = make_app(services, check_api_key=False)
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await wait_until(pilot, lambda: any(t == "MCP server stopped" for _, t, _ in notifications(app)))
            said = {title: message for _, title, message in notifications(app)}
            assert "needs `command`" in said["MCP servers in config.toml"]
            assert said["MCP server stopped"].startswith("dies: ")
    finally:
        services.close()


async def _open_items(pilot, app, services, key: str) -> None:
    """/mcp, ``r``, and the item ``key`` (prompt name or URI template) highlighted."""
    from agenttui.mcp.manager import attached
    from agenttui.ui.screens.mcp import McpScreen

    await wait_until(pilot, lambda: attached(services) is not None
                     and attached(services).connections["bad"].state == "ready")
    await send(pilot, "/mcp")
    await wait_until(pilot, lambda: isinstance(app.screen, McpScreen))
    await pilot.press("r")
    await wait_until(pilot, lambda: app.screen.query_one("#items").option_count > 0)
    app.screen.query_one("#items").highlighted = [item[2] for item in app.screen._items].index(key)


async def test_a_prompt_with_arguments_asks_for_them_first(mcp_services):
    from agenttui.ui.app import make_app
    from agenttui.ui.screens.mcp import McpScreen
    from agenttui.ui.screens.mcp_arguments import McpArgumentsScreen
    from tests.ui.helpers import chat, notifications

    app = make_app(mcp_services, check_api_key=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await _open_items(pilot, app, mcp_services, "translate")
        labels = [str(o.prompt) for o in app.screen.query_one("#items").options]
        assert "prompt: translate (text, language)" in labels
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, McpArgumentsScreen) and app.focused is not None)
        form = app.screen
        shown = " ".join(str(w.render()) for w in form.query("Static"))
        assert "text  (required)" in shown and "The text to translate." in shown
        assert "language  (optional)" in shown and "Into which language." in shown
        assert app.focused.id == "arg-0"
        await pilot.press("tab", "tab")  # to Insert, with the required one empty: said, nothing sent
        await pilot.click("#submit")
        await wait_until(pilot, lambda: any("'text' is required" in m for _, _, m in notifications(app)))
        assert app.screen is form and app.focused.id == "arg-0"
        await pilot.press(*"good morning")
        await pilot.press("enter")  # to the next input
        assert app.focused.id == "arg-1"
        await pilot.press("enter")  # the last one: insert (empty optional -> the server's default)
        await wait_until(pilot, lambda: not isinstance(app.screen, (McpScreen, McpArgumentsScreen)), 15)
        assert chat(app).prompt.text == "Translate into French: good morning"


async def test_a_resource_template_asks_for_its_variables_and_esc_cancels(mcp_services):
    from agenttui.ui.app import make_app
    from agenttui.ui.screens.mcp import McpScreen
    from agenttui.ui.screens.mcp_arguments import McpArgumentsScreen
    from tests.ui.helpers import chat

    app = make_app(mcp_services, check_api_key=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await _open_items(pilot, app, mcp_services, "notes://{topic}/{day}")
        labels = [str(o.prompt) for o in app.screen.query_one("#items").options]
        assert "template: notes (notes://{topic}/{day})" in labels and "resource: status (status://now)" in labels
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, McpArgumentsScreen) and app.focused is not None)
        await pilot.press("escape")  # cancel: back to the list, nothing inserted
        await wait_until(pilot, lambda: isinstance(app.screen, McpScreen))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, McpArgumentsScreen) and app.focused is not None)
        assert "The notes on a topic for a day." in " ".join(str(w.render()) for w in app.screen.query("Static"))
        await pilot.press(*"mcp", "enter", *"monday", "enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, (McpScreen, McpArgumentsScreen)), 15)
        assert chat(app).prompt.text == "notes on mcp for monday: nothing new"
