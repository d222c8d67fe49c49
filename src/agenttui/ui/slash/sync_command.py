"""/sync: a sync now, in the background (:mod:`agenttui.ui.widgets.sync_status`);
/sync status: the target, the last sync, pending changes and the conflicts kept, in the chat."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agenttui.ui.slash.context import SlashContext

SHOWN_CONFLICTS = 20


async def sync(ctx: SlashContext, argument: str) -> None:
    if argument.casefold() == "status":
        await _status(ctx)
        return
    from agenttui.ui.widgets.sync_status import SyncStatus

    found = ctx.app.screen.query(SyncStatus)
    if not found:
        ctx.notify("Sync is not available on this screen.", title="Sync", severity="warning")
        return
    found.first().start(manual=True)


async def _status(ctx: SlashContext) -> None:
    from agenttui.sync import engine

    try:
        info = await asyncio.to_thread(engine.status, ctx.services.paths,
                                       tuple(ctx.services.settings.redaction.extra_patterns))
    except Exception as exc:  # noqa: BLE001 -- a sync state or config it cannot read: said, not raised
        ctx.notify(str(exc), title="Sync status", severity="error")
        return
    await ctx.chat_log.notice(status_text(info))


def status_text(info: dict[str, Any]) -> str:
    from agenttui.sync.conflicts import conflict_line
    from agenttui.ui.inert import inert_line

    if not info.get("syncing"):
        return "This machine does not sync: run `agenttui sync init --git URL` or `--folder DIR` in a shell."
    here = info["devices"][0]
    lines = [f"Sync target: {info['target']}",
             f"This machine: {here['name']}, last sync {here['last_sync'] or 'never'} (UTC)"]
    lines += [f"  {d['name']}: last applied {d['last_sync']}" for d in info["devices"][1:]]
    lines.append(f"Pending local changes: {info['pending_changes']}")
    conflicts = info.get("conflicts") or []
    if conflicts:
        lines.append(f"Conflicts kept ({len(conflicts)}; the latest {min(len(conflicts), SHOWN_CONFLICTS)}):")
        lines += [f"  {inert_line(conflict_line(c['key'], c['loser']), 200)}"
                  for c in conflicts[-SHOWN_CONFLICTS:]]
        lines.append("`agenttui sync status --json` shows each losing version whole.")
    return "\n".join(lines)
