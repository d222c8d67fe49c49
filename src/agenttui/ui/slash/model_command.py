"""/model [NAME]: this conversation's model (:mod:`agenttui.ui.widgets.conversation_model`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agenttui.ui.slash.context import SlashContext


async def model(ctx: SlashContext, argument: str) -> None:
    if argument:
        await ctx.conversation_model.choose(argument)
    else:
        ctx.conversation_model.pick()
