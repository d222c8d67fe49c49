"""The conversation commands: /new, /reset, /export, /end, /attach, /incognito, /compact."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agenttui.ui.slash.context import SlashContext

END_INSTRUCTION = (
    "We are ending this session. Update the project context (context.md) with the "
    "current state, active focus, blockers and next steps from this conversation, "
    "using your update_context tool, then reply with a two-line summary."
)
EXPORT_FORMATS = ("md", "json")


def _looks_like_path(word: str) -> bool:
    """A file name has a dot or a folder in it; a bare word after /export is a format."""
    return "." in word or "/" in word or word.startswith("~")


async def new(ctx: SlashContext, argument: str) -> None:
    await ctx.new_conversation()


async def reset(ctx: SlashContext, argument: str) -> None:
    if ctx.conversation_id is None:  # nothing sent yet: nothing to archive, nothing to reset
        ctx.notify("Nothing to archive yet: this conversation is empty.", severity="warning")
        return
    await ctx.new_conversation(archive_current=True)


async def export(ctx: SlashContext, argument: str) -> None:
    conversation_id = ctx.conversation_id
    if conversation_id is None:
        ctx.notify("Nothing to export yet.", severity="warning")
        return
    parts = argument.split(maxsplit=1)
    if len(parts) == 1 and parts[0].lower() not in EXPORT_FORMATS and not _looks_like_path(parts[0]):
        # "/export pdf" meant a format, not a file named "pdf"
        ctx.notify(f"Unknown export format {parts[0]!r}: use md or json, or give a path such as "
                   f"{parts[0]}.md.", title="Not exported", severity="warning")
        return
    fmt = parts[0].lower() if parts and parts[0].lower() in EXPORT_FORMATS else "md"
    rest = parts[1] if len(parts) > 1 else (parts[0] if parts and parts[0].lower() not in EXPORT_FORMATS else "")
    # Without a path: agenttui's exports folder (named in the toast), not wherever the
    # app was started; a second export never overwrites the first.
    exports = ctx.services.paths.data_dir / "exports"
    target = Path(rest).expanduser() if rest else None
    history = ctx.services.history
    exporter = history.export_json if fmt == "json" else history.export_markdown

    def write() -> Path:
        from agenttui.core.history.export import write_export

        return write_export(exporter(conversation_id), target, exports, f"agenttui-{conversation_id[:8]}", fmt)

    try:
        written = await asyncio.to_thread(write)
    except OSError as exc:
        where = exc.filename or target or exports
        ctx.notify(f"{where}: {exc.strerror or exc}", title="Export failed", severity="error")
        return
    ctx.notify(str(written), title="Exported")


async def end(ctx: SlashContext, argument: str) -> None:
    if ctx.incognito:  # /end writes context.md and a session archive
        ctx.notify("Incognito writes nothing: /end needs the saved chat (/incognito leaves).", severity="warning")
        return
    if ctx.conversation_id is None:
        ctx.notify("Nothing to archive yet.", severity="warning")
        return
    await ctx.send(END_INSTRUCTION, show=True, then_archive=True)


async def attach(ctx: SlashContext, argument: str) -> None:
    from agenttui.agent.images import ImageError, load_image

    try:
        await asyncio.to_thread(load_image, argument)  # check it now, not at send time
        ctx.turns.image = str(Path(argument).expanduser())
    except ImageError as exc:
        ctx.notify(str(exc), title="Cannot attach", severity="error")
        return
    await ctx.chat_log.notice(f"Attached {argument}; it goes with your next message.")


async def incognito(ctx: SlashContext, argument: str) -> None:
    await ctx.toggle_incognito()


async def edit(ctx: SlashContext, argument: str) -> None:
    ctx.edit_draft(argument)


async def compact(ctx: SlashContext, argument: str) -> None:
    await ctx.meter.compact()
