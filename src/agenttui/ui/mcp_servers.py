"""MCP in the app: servers start in the background once the
panes are up (never before the first frame; nothing at all when none is
configured), stop when the app ends -- quit, Ctrl+C, or SIGTERM, which is
turned into a normal exit so the servers are stopped rather than orphaned."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Any

from textual.app import App

from agenttui.ui.host import app_parts

START_AFTER_S = 0.5  # after the panes are ready: the first turn's own preparation goes first


def start_mcp(app: App[Any]) -> None:
    from agenttui.mcp.manager import attach

    services = app_parts(app).services
    manager = attach(services)  # reads config.toml's [mcp] table; no SDK import when empty
    if manager is None:
        from agenttui.mcp.config import load

        warnings = load(services.paths, services.profile_name).warnings  # all entries bad?
    else:
        warnings = manager.config.warnings
    for warning in warnings:  # a bad entry is skipped, and said so
        app.notify(warning, title="MCP servers in config.toml", severity="warning", timeout=15)
    if manager is None:
        return
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not the main thread / loop
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, app.exit)

    def changed(name: str) -> None:  # a server given up on: said once, details on /mcp
        connection = manager.connections.get(name)
        if connection is not None and connection.state == "failed":
            app.notify(f"{name}: {connection.last_error or 'it keeps stopping'}. /mcp shows its stderr.",
                       title="MCP server stopped", severity="error", timeout=15)

    manager.listeners.append(changed)
    # the chat may go incognito with servers running: from then on MCP writes nothing (manager doc)
    manager.private = lambda: app_parts(app).incognito
    manager.start_all()


def sync_mcp(app: App[Any]) -> None:
    """config.toml changed while the app runs (the data watcher saw it): a server added with
    ``agenttui mcp add`` starts now, one removed stops (it showed "stopped" in /mcp until
    disabled and enabled again)."""
    from agenttui.mcp.config import load
    from agenttui.mcp.manager import attached

    services = app_parts(app).services

    async def sync() -> None:
        manager = attached(services)
        if manager is None or not manager.started:  # none configured at start, or /mcp's unstarted one
            start_mcp(app)
            manager = attached(services)
            if manager is None:
                return
        config = await asyncio.to_thread(load, services.paths, services.profile_name)
        await manager.sync(config)

    app.run_worker(sync(), group="mcp-sync", exclusive=True)


def restart_mcp(app: App[Any]) -> None:
    """After a profile switch: stop the old profile's servers, start the new one's."""
    async def restart() -> None:
        await stop_mcp(app)
        start_mcp(app)

    app.run_worker(restart(), group="mcp-restart", exclusive=True)


async def stop_mcp(app: App[Any]) -> None:
    from agenttui.mcp.manager import detach

    await detach(app_parts(app).services)
