"""A stdio server that dies while idle (restarted with backoff):
noticed when its stream ends, restarted in the background, so the next call
works; one that dies right after every start is given up on, not restarted
forever. Real processes: tests/mcp/hostile_server.py."""

from __future__ import annotations

import asyncio
import os
import signal
import sys

from tests.mcp import test_mcp_bridge
from tests.mcp.conftest import HOSTILE, alive
from tests.mcp.test_mcp_bridge import call, services_with

hostile = test_mcp_bridge.hostile  # the hostile server, started and ready (fixture)


async def _until(predicate, seconds: float = 60.0) -> bool:
    for _ in range(int(seconds * 10)):
        if predicate():
            return True
        await asyncio.sleep(0.1)
    return predicate()


async def test_a_server_killed_while_idle_is_restarted_before_the_next_call(hostile, monkeypatch):
    from agenttui.agent.tools.registry import ToolRegistry
    from agenttui.mcp import connection as connection_module
    from agenttui.mcp.manager import attached

    monkeypatch.setattr(connection_module, "BACKOFF_START", 0.2)
    connection = attached(hostile).connections["bad"]
    registry = ToolRegistry(hostile)
    first = int((await registry.execute(call("mcp__bad__pid"))).output)
    seen: list[str] = []
    attached(hostile).listeners.append(lambda _name: seen.append(connection.state))
    os.kill(first, signal.SIGKILL)  # dies while idle (the OOM killer, a crash in a timer)
    # noticed without any call: the state moves on and a new process is started in the background
    assert await _until(lambda: "restarting" in seen), seen
    assert "exited" in (connection.last_error or "")
    assert await _until(lambda: connection.state == "ready" and connection.client is not None)
    assert connection.restarts == 1 and not alive(first)
    outcome = await registry.execute(call("mcp__bad__pid"))  # the next call simply works
    assert outcome.ok, outcome.output
    assert int(outcome.output) != first


async def test_a_call_during_the_restart_waits_for_it(hostile, monkeypatch):
    from agenttui.agent.tools.registry import ToolRegistry
    from agenttui.mcp import connection as connection_module
    from agenttui.mcp.manager import attached

    monkeypatch.setattr(connection_module, "BACKOFF_START", 1.0)
    connection = attached(hostile).connections["bad"]
    registry = ToolRegistry(hostile)
    first = int((await registry.execute(call("mcp__bad__pid"))).output)
    os.kill(first, signal.SIGKILL)
    assert await _until(lambda: connection.state == "restarting")
    outcome = await registry.execute(call("mcp__bad__lying", {"count": 2}))  # in the backoff
    assert outcome.ok and outcome.output == "count=2"


async def test_a_server_that_dies_after_every_start_is_given_up(paths, monkeypatch):
    from agenttui.mcp import connection as connection_module
    from agenttui.mcp.manager import attach, detach

    monkeypatch.setattr(connection_module, "BACKOFF_START", 0.05)
    services = services_with(paths, {"flaky": {"command": sys.executable,
                                               "args": [HOSTILE, "--exit-after", "1.0"]}})
    manager = attach(services)
    manager.start_all()
    connection = manager.connections["flaky"]
    readies: list[int] = []
    manager.listeners.append(lambda _n: connection.state == "ready" and readies.append(1))
    try:
        assert await _until(lambda: connection.state == "failed", 180), connection.state
        assert readies, "it never got through a handshake: the test proves nothing"
        assert connection.restarts == connection_module.MAX_RESTARTS + 1
    finally:
        await detach(services)
        services.close()
