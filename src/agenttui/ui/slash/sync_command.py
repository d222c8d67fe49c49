"""/sync: a sync now, in the background (:mod:`agenttui.ui.widgets.sync_status`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agenttui.ui.slash.context import SlashContext


async def sync(ctx: SlashContext, argument: str) -> None:
    from agenttui.ui.widgets.sync_status import SyncStatus

    found = ctx.app.screen.query(SyncStatus)
    if not found:
        ctx.notify("Sync is not available on this screen.", title="Sync", severity="warning")
        return
    found.first().start(manual=True)
