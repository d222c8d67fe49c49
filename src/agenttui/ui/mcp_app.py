"""MCP in the app (issue 14 item 3): servers start in the background once the
panes are up (never before the first frame; nothing at all when none is
configured), stop when the app ends -- quit, Ctrl+C, or SIGTERM, which is
turned into a normal exit so the servers are stopped rather than orphaned."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Any

START_AFTER_S = 0.5  # after the panes are ready: the first turn's own preparation goes first


def start_mcp(app: Any) -> None:
    from agenttui.mcp.manager import attach

    manager = attach(app.services)  # reads config.toml's [mcp] table; no SDK import when empty
    if manager is None:
        return
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not the main thread / loop
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, app.exit)
    manager.start_all()


def restart_mcp(app: Any) -> None:
    """After a profile switch: stop the old profile's servers, start the new one's."""
    async def restart() -> None:
        await stop_mcp(app)
        start_mcp(app)

    app.run_worker(restart(), group="mcp-restart", exclusive=True)


async def stop_mcp(app: Any) -> None:
    from agenttui.mcp.manager import detach

    await detach(app.services)
