"""MCP while the app's chat is incognito: a server
started before incognito keeps running and its tools work, but from the moment
the chat is incognito nothing MCP does writes under the data dir -- not the
stderr it prints, not a restart (which would refresh the tool cache and empty
the log). Checked as tests/ui/incognito/test_incognito.py does: every file byte for byte.
Real server (tests/mcp/hostile_server.py), real app under Pilot."""

from __future__ import annotations

import os
import signal
import sys

import pytest

from tests.fakes.memory_keyring import memory_keyring_installed
from tests.mcp.conftest import HOSTILE, alive
from tests.ui.helpers import approve, chat, replies, send, wait_until
from tests.ui.incognito.test_incognito import tree


@pytest.fixture(autouse=True)
def memory_keyring():
    with memory_keyring_installed() as backend:
        yield backend


async def test_incognito_with_an_mcp_server_leaves_the_data_dir_byte_identical(
        fake_openai, paths, tmp_path, isolated_home, monkeypatch):
    from agenttui.bootstrap import build_services
    from agenttui.mcp import connection as connection_module
    from agenttui.mcp.config import servers_table, update
    from agenttui.mcp.manager import attached
    from agenttui.ui.app import make_app
    from agenttui.ui.screens.approval import ApprovalScreen
    from agenttui.ui.screens.confirm import ConfirmScreen

    monkeypatch.setattr(connection_module, "BACKOFF_START", 0.2)
    update(paths, lambda mcp: servers_table(mcp, "user", "default").__setitem__(
        "bad", {"command": sys.executable, "args": [HOSTILE, "--stderr"]}))
    seeding = build_services(paths=paths, cwd=tmp_path, environ=dict(os.environ))
    seeding.history.create_conversation("an earlier chat")  # the store exists and is settled,
    seeding.close()  # as in tests/ui/incognito/test_incognito.py (closing it checkpoints the new file)
    services = build_services(paths=paths, cwd=tmp_path, environ=dict(os.environ))
    log = paths.data_dir / "mcp" / "logs" / "default" / "bad.stderr"
    cache = paths.data_dir / "mcp" / "servers.json"
    fake_openai.tool_call("mcp__bad__shout", {"text": "incognito-only words"})
    fake_openai.reply("Shouted.")
    # the history indexer writes vectors of saved messages: paused while incognito, but it may run
    # before the test enters incognito (tests/ui/incognito/test_incognito.py)
    services.settings.recall.semantic = False
    app = make_app(services, check_api_key=False)
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            # outside incognito the server writes its log and the cache, as before
            await wait_until(pilot, lambda: attached(services) is not None
                             and attached(services).connections["bad"].state == "ready")
            await wait_until(pilot, lambda: log.exists() and "hostile server starting" in log.read_text()
                             and cache.exists() and '"shout"' in cache.read_text())
            connection = attached(services).connections["bad"]
            first = int(next(c.text for c in (await connection.call_tool("pid", {})).content))
            before = tree(isolated_home)

            await wait_until(pilot, lambda: app.main.panes_ready)
            await pilot.press("alt+i")
            await wait_until(pilot, lambda: chat(app).incognito)
            # a tool of the running server, through the model and the approval, as usual
            await send(pilot, "shout something")
            await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.focused is not None)
            await approve(pilot, app)
            await wait_until(pilot, lambda: not chat(app).streaming and replies(app) == ["Shouted."])
            tool_message = [m for m in fake_openai.chat_requests[-1]["messages"] if m["role"] == "tool"][-1]
            assert "shouted" in tool_message["content"]
            # its stderr is on the MCP screen (memory), not in the log file
            await wait_until(pilot, lambda: "incognito-only words" in connection.stderr_tail())
            # it dies while idle and is restarted during incognito: no cache refresh, log not emptied
            os.kill(first, signal.SIGKILL)
            await wait_until(pilot, lambda: connection.restarts == 1 and connection.state == "ready", 60)
            await wait_until(pilot, lambda: "hostile server starting" in connection.stderr_tail())
            assert not alive(first)
            assert tree(isolated_home) == before

            await pilot.press("ctrl+q")  # quitting while incognito: "Cancel" keeps nothing
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("escape")
            await wait_until(pilot, lambda: not app.is_running)
    finally:
        services.close()
    # the open history store's -wal/-shm files went away when the services closed (SQLite's own)
    assert tree(isolated_home) == {k: v for k, v in before.items() if not k.endswith(("-wal", "-shm"))}
    assert "incognito-only words" not in log.read_text()


def test_servers_attached_after_the_chat_went_incognito_are_the_twins_too(paths, tmp_path):
    """The app attaches MCP 0.5 s after the panes; a chat made incognito before that had no MCP
    tools for the rest of its session (the twin kept a copy of the session state)."""
    from agenttui.bootstrap import build_services
    from agenttui.mcp.config import servers_table, update
    from agenttui.mcp.manager import attach, attached

    update(paths, lambda mcp: servers_table(mcp, "user", "default").__setitem__(
        "bad", {"command": sys.executable, "args": [HOSTILE]}))
    services = build_services(paths=paths, cwd=tmp_path)
    try:
        twin = services.incognito_twin()
        assert attached(twin) is None
        manager = attach(services)  # not started: attaching is what the twin must see
        assert manager is not None and attached(twin) is manager
        assert twin.session.unsaved is not services.session.unsaved  # never the queue of writes
    finally:
        services.close()
