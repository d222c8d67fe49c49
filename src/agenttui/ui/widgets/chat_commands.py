"""What the chat's slash commands do (the table is in ``slash_commands``).

A mixin of :class:`~agenttui.ui.widgets.chat_pane.ChatPane`: each command is a
small method; store calls run in thread workers and report back with toasts
(gate rejections are error toasts with the gate's reason). Commands that
open another screen call the App action of the same name, so keys, the
palette and the slash command share one path.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from agenttui.core.models import Origin, Scope
from agenttui.ui import messages as app_messages
from agenttui.ui.inert import inert_line
from agenttui.ui.widgets.slash_commands import BY_NAME, parse

END_INSTRUCTION = (
    "We are ending this session. Update the project context (context.md) with the "
    "current state, active focus, blockers and next steps from this conversation, "
    "using your update_context tool, then reply with a two-line summary."
)

if TYPE_CHECKING:
    from textual.widget import Widget

    from agenttui.bootstrap import Services
    from agenttui.ui.app import AgentTUI
    from agenttui.ui.widgets.chat_log import ChatLog

    _Widget = Widget
else:
    _Widget = object  # at run time the widget half is ChatPane's other base

_APP_ACTIONS = {
    "audit": "open_audit",
    "profile": "open_profiles",
    "mcp": "open_mcp",
}


class SlashCommandsMixin(_Widget):
    if TYPE_CHECKING:  # what ChatPane provides
        services: Services
        conversation_id: str | None
        _end_session: bool
        _image: str | None
        app: AgentTUI

        @property
        def chat_log(self) -> ChatLog: ...
        async def send(self, text: str, *, show: bool = True, retry: bool = False) -> None: ...
        async def new_conversation(self, archive_current: bool = False) -> None: ...
        async def compact(self) -> None: ...
        async def toggle_incognito(self) -> None: ...

    async def run_slash_command(self, text: str) -> bool:
        """Run ``text`` if it is a slash command; False means "send it as a message"."""
        parsed = parse(text)
        if parsed is None:
            return False
        name, argument = parsed
        if name not in BY_NAME:
            self.notify(f"Unknown command /{inert_line(name, 40)}. /help lists them.", severity="error")
            return True
        if name == "audit" and argument.strip().casefold() == "deep":
            from agenttui.ui.screens.audit import AuditScreen  # the model reviews memory too

            self.app.push_screen(AuditScreen(self.services, deep=True), self.app._after_memory_screen)
            return True
        if name in _APP_ACTIONS:
            await self.app.run_action(_APP_ACTIONS[name])
            return True
        handler = getattr(self, f"_cmd_{name.replace('-', '_')}")
        try:
            await handler(argument)
        except Exception as exc:
            from agenttui.core.errors import explain  # /remember on a full disk: a notice
            from agenttui.core.incognito import IncognitoRefused
            from agenttui.core.stale_install import stale_install_message  # upgraded under us

            message = str(exc) if isinstance(exc, IncognitoRefused) else (
                explain(exc) or stale_install_message(exc))
            if message is None:
                raise  # a bug: the app's error policy ends it with a crash log
            self.notify(message, title=f"/{name} failed", severity="error", timeout=30)
        return True

    def _usage(self, name: str) -> None:
        command = BY_NAME[name]
        self.notify(f"Usage: /{name} {command.usage}\nExample: {command.example}",
                    title=f"/{name} needs an argument", severity="warning")

    # -- memory -----------------------------------------------------------
    async def _cmd_remember(self, argument: str) -> None:
        scope: Scope = "user"
        if argument.endswith(" --profile") or argument == "--profile":
            scope, argument = "profile", argument.removesuffix("--profile").strip()
        if not argument:
            self._usage("remember")
            return
        origin = Origin(profile=self.services.profile_name, conversation_id=self.conversation_id)
        result = await asyncio.to_thread(
            self.services.memory.add_note, argument, scope, "explicit", origin)
        if not result.ok:
            self.notify(result.reason or "rejected", title="Not remembered", severity="error")
            return
        verb = {"refreshed": "Already remembered (refreshed)"}.get(result.status, "Remembered")
        detail = f" ({result.reason})" if result.reason else ""
        self.notify(f"{inert_line(result.item.display if result.item else argument, 120)}{detail}", title=verb)
        self.post_message(app_messages.MemoryChanged())

    async def _cmd_forget(self, argument: str) -> None:
        if not argument:
            self._usage("forget")
            return
        matches = await asyncio.to_thread(self.services.memory.find, argument)
        if not matches:
            self.notify(f"Nothing in memory contains {argument!r}.", severity="warning")
            return
        ids = [item.id for item in matches]
        if len(matches) == 1:
            await self._forget(ids)
            return
        from agenttui.ui.screens.confirm import ConfirmScreen

        listing = "\n".join(f"• {inert_line(item.display, 100)}" for item in matches)
        screen = ConfirmScreen(
            f"Forget {len(matches)} items?", f"These memory items match {argument!r}:\n{listing}",
            backup=self.services.paths.memory_backups_dir, confirm_label="Forget")

        async def answered(confirmed: bool | None) -> None:
            if confirmed:
                await self._forget(ids)

        self.app.push_screen(screen, answered)

    async def _forget(self, ids: list[str]) -> None:
        removed = await asyncio.to_thread(self.services.memory.remove, ids)
        self.notify("\n".join(inert_line(item.display, 100) for item in removed),
                    title=f"Forgot {len(removed)} item(s)")
        self.post_message(app_messages.MemoryChanged())

    async def _cmd_memory(self, argument: str) -> None:
        items = await asyncio.to_thread(self.services.memory.items, "all", False)
        if not items:
            await self.chat_log.notice("Memory is empty. /remember TEXT adds a note.")
        else:
            lines = [f"{'★ ' if item.pinned else ''}[{item.scope}/{item.source}] {inert_line(item.display, 160)}"
                     for item in items]  # ★: the Memory pane's pin mark
            await self.chat_log.notice(f"Memory ({len(items)} items):\n" + "\n".join(lines))
        # The pane is shown, the focus stays here: the next letters are a message, not
        # the Memory list's keys (e edits, d deletes).
        show_pane = getattr(self.screen, "show_pane", None)
        if show_pane is not None:
            show_pane("memory")

    async def _cmd_reset_memory(self, argument: str) -> None:
        scope = argument.strip().casefold()
        if scope not in ("", "user", "profile", "all"):
            self.notify(f"/reset-memory takes a scope: user, profile or all (not {inert_line(scope, 30)!r}).",
                        severity="error")
            return
        await self.app.run_action(f"reset_memory({scope!r})")

    # -- conversations ----------------------------------------------------
    async def _cmd_new(self, argument: str) -> None:
        await self.new_conversation()

    async def _cmd_reset(self, argument: str) -> None:
        if self.conversation_id is None:  # nothing sent yet: nothing to archive, nothing to reset
            self.notify("Nothing to archive yet: this conversation is empty.", severity="warning")
            return
        await self.new_conversation(archive_current=True)

    async def _cmd_export(self, argument: str) -> None:
        if self.conversation_id is None:
            self.notify("Nothing to export yet.", severity="warning")
            return
        parts = argument.split(maxsplit=1)
        fmt = parts[0].lower() if parts and parts[0].lower() in ("md", "json") else "md"
        rest = parts[1] if len(parts) > 1 else (parts[0] if parts and parts[0].lower() not in ("md", "json") else "")
        # Without a path: agenttui's exports folder (named in the toast), not wherever the
        # app was started; a second export never overwrites the first.
        exports = self.services.paths.data_dir / "exports"
        target = Path(rest).expanduser() if rest else None
        history = self.services.history
        exporter = history.export_json if fmt == "json" else history.export_markdown
        conversation_id = self.conversation_id

        def write() -> Path:
            from agenttui.core.history_export import write_export

            return write_export(exporter(conversation_id), target, exports, f"agenttui-{conversation_id[:8]}", fmt)

        try:
            written = await asyncio.to_thread(write)
        except OSError as exc:
            where = exc.filename or target or exports
            self.notify(f"{where}: {exc.strerror or exc}", title="Export failed", severity="error")
            return
        self.notify(str(written), title="Exported")

    async def _cmd_end(self, argument: str) -> None:
        if getattr(self, "incognito", False):  # /end writes context.md and a session archive
            self.notify("Incognito writes nothing: /end needs the saved chat (/incognito leaves).",
                        severity="warning")
            return
        if self.conversation_id is None:
            self.notify("Nothing to archive yet.", severity="warning")
            return
        self._end_session = True
        await self.send(END_INSTRUCTION, show=True)

    async def _cmd_attach(self, argument: str) -> None:
        if not argument:
            self._usage("attach")
            return
        from agenttui.agent.images import ImageError, load_image

        try:
            await asyncio.to_thread(load_image, argument)  # check it now, not at send time
            self._image = str(Path(argument).expanduser())
        except ImageError as exc:
            self.notify(str(exc), title="Cannot attach", severity="error")
            return
        await self.chat_log.notice(f"Attached {argument}; it goes with your next message.")

    async def _cmd_compact(self, argument: str) -> None:
        await self.compact()  # chat_context.ContextMixin

    async def _cmd_incognito(self, argument: str) -> None:
        await self.toggle_incognito()  # chat_incognito.IncognitoMixin

    async def _cmd_help(self, argument: str) -> None:
        await self.app.run_action("help")


def help_text(commands, bindings) -> str:
    """Plain-text help (commands, then keys) shown in the chat by /help and F1."""
    # No padded columns: the chat is often 40 columns wide, where padding wrapped
    # every entry into ragged fragments. "name — what" wraps cleanly at any width.
    lines = ["Commands:"]
    lines += [f"  /{c.name}{' ' + c.usage if c.usage else ''} — {c.help}" for c in commands]
    lines += ["", "Keys (remap in config.toml [keys] by the id in brackets):"]
    lines += [f"  {key} — {description} [{binding_id}]" for binding_id, key, description in bindings]
    lines += ["", "Replies:", *(f"  {line}" for line in USED_HELP)]
    from agenttui.ui.widgets.message_cursor import MESSAGE_HELP

    lines += ["", "Messages (Shift+Tab from the prompt, or click one):", *(f"  {line}" for line in MESSAGE_HELP)]
    return "\n".join(lines)


USED_HELP = (
    "“used: …” under a reply — what it used from memory and past conversations "
    "(this session's replies); click it, or Tab/Shift+Tab to it and Enter (F4: the last reply's)",
    "in that list: e edit a note · d forget it (asks first) · Enter opens a past message · Esc close",
)
