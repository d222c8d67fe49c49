"""The memory commands: /remember, /forget, /memory, /reset-memory, /audit.

Store calls run in threads and report back with toasts (a gate's rejection is
an error toast with its reason).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from agenttui.core.models import Origin, Scope
from agenttui.ui import messages as app_messages
from agenttui.ui.host import app_parts
from agenttui.ui.inert import inert_line
from agenttui.ui.slash.context import MissingArgument

if TYPE_CHECKING:
    from agenttui.ui.slash.context import SlashContext


async def remember(ctx: SlashContext, argument: str) -> None:
    scope: Scope = "user"
    if argument.endswith(" --profile") or argument == "--profile":
        scope, argument = "profile", argument.removesuffix("--profile").strip()
    if not argument:
        raise MissingArgument  # "/remember --profile": the usage toast
    origin = Origin(profile=ctx.services.profile_name, conversation_id=ctx.conversation_id)
    result = await asyncio.to_thread(ctx.services.memory.add_note, argument, scope, "explicit", origin)
    if not result.ok:
        ctx.notify(result.reason or "rejected", title="Not remembered", severity="error")
        return
    verb = {"refreshed": "Already remembered (refreshed)"}.get(result.status, "Remembered")
    detail = f" ({result.reason})" if result.reason else ""
    ctx.notify(f"{inert_line(result.item.display if result.item else argument, 120)}{detail}", title=verb)
    ctx.post_message(app_messages.MemoryChanged())


async def forget(ctx: SlashContext, argument: str) -> None:
    matches = await asyncio.to_thread(ctx.services.memory.find, argument)
    if not matches:
        ctx.notify(f"Nothing in memory contains {argument!r}.", severity="warning")
        return
    ids = [item.id for item in matches]
    if len(matches) == 1:
        await _forget(ctx, ids)
        return
    from agenttui.ui.screens.confirm import ConfirmScreen

    listing = "\n".join(f"• {inert_line(item.display, 100)}" for item in matches)
    screen = ConfirmScreen(
        f"Forget {len(matches)} items?", f"These memory items match {argument!r}:\n{listing}",
        backup=ctx.services.paths.memory_backups_dir, confirm_label="Forget")

    async def answered(confirmed: bool | None) -> None:
        if confirmed:
            await _forget(ctx, ids)

    ctx.app.push_screen(screen, answered)


async def _forget(ctx: SlashContext, ids: list[str]) -> None:
    removed = await asyncio.to_thread(ctx.services.memory.remove, ids)
    ctx.notify("\n".join(inert_line(item.display, 100) for item in removed),
               title=f"Forgot {len(removed)} item(s)")
    ctx.post_message(app_messages.MemoryChanged())


async def list_memory(ctx: SlashContext, argument: str) -> None:
    items = await asyncio.to_thread(ctx.services.memory.items, "all", False)
    if not items:
        await ctx.chat_log.notice("Memory is empty. /remember TEXT adds a note.")
    else:
        lines = [f"{'★ ' if item.pinned else ''}[{item.scope}/{item.source}] {inert_line(item.display, 160)}"
                 for item in items]  # ★: the Memory pane's pin mark
        await ctx.chat_log.notice(f"Memory ({len(items)} items):\n" + "\n".join(lines))
    # The pane is shown, the focus stays here: the next letters are a message, not
    # the Memory list's keys (e edits, d deletes).
    app_parts(ctx.app).show_pane("memory")


async def reset_memory(ctx: SlashContext, argument: str) -> None:  # the scope is checked (table)
    await ctx.app.run_action(f"reset_memory({argument.casefold()!r})")


async def audit(ctx: SlashContext, argument: str) -> None:
    if argument.casefold() != "deep":
        await ctx.app.run_action("open_audit")
        return
    from agenttui.ui.screens.audit import AuditScreen  # the model reviews memory too

    ctx.app.push_screen(AuditScreen(ctx.services, deep=True), app_parts(ctx.app).reload_memory_pane)
