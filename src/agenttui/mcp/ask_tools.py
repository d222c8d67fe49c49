"""MCP for ``agenttui ask``: servers connect before the first request (so the
model sees their tools) and are all stopped before the event loop ends."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

START_TIMEOUT = 30.0  # seconds all servers together may take to connect


async def start_for_ask(services: Services, warn: Callable[[str], None]) -> None:
    from agenttui.mcp.manager import attach

    manager = attach(services)  # None (and no SDK import) when no server is configured
    if manager is None:
        return
    manager.start_all()
    await manager.wait_started(START_TIMEOUT)
    for connection in manager.connections.values():
        if connection.server.enabled and connection.state != "ready":
            warn(f"MCP server {connection.server.name!r} is {connection.state}: "
                 f"{connection.last_error or 'not ready'}; its tools are left out")


async def stop_for_ask(services: Services) -> None:
    from agenttui.mcp.manager import detach

    await detach(services)
