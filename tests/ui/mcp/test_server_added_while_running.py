"""A server added to config.toml while the app runs (``agenttui mcp add`` in another shell)
starts without a restart; it showed "stopped" in /mcp until disabled and enabled again."""

from __future__ import annotations

import sys

from agenttui.mcp.config import servers_table, update
from agenttui.mcp.manager import attached
from agenttui.ui.app import make_app
from agenttui.ui.widgets.data_watcher import DataWatcher
from tests.mcp.conftest import HOSTILE
from tests.ui.helpers import wait_until


def _add(paths, name: str) -> None:
    # what ``agenttui mcp add NAME -- COMMAND ARGS`` writes (mcp/config.update under its lock)
    update(paths, lambda mcp: servers_table(mcp, "user", "default").__setitem__(
        name, {"command": sys.executable, "args": [HOSTILE, "--stderr"]}))


def _state(services, name: str) -> str | None:
    manager = attached(services)
    connection = manager.connections.get(name) if manager is not None else None
    return connection.state if connection is not None else None


async def test_a_server_added_while_running_starts(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        watcher = app.main.query_one(DataWatcher)
        await wait_until(pilot, lambda: watcher.polls >= 1)  # the baseline is taken
        assert attached(services) is None  # nothing configured at start
        _add(services.paths, "late")
        await wait_until(pilot, lambda: _state(services, "late") == "ready", timeout=60)
        _add(services.paths, "later")  # a second one, with the manager running
        await wait_until(pilot, lambda: _state(services, "later") == "ready", timeout=60)
