"""The chat's slash commands: one table (name -> handler, help, argument), and what each does.

``COMMANDS`` is the single source for dispatch, completion (``slash_commands``)
and ``/help`` (:func:`help_text`): a command is one row, whose handler is a
small method of :class:`SlashCommandsMixin`, a mixin of
:class:`~agenttui.ui.widgets.chat_pane.ChatPane`. The row's argument spec is
checked before the handler runs (a required argument that is missing shows the
usage; an argument outside ``choices`` is refused), so handlers do not repeat it.
Store calls run in thread workers and report back with toasts (gate rejections
are error toasts with the gate's reason). Commands that open another screen
call the App action of the same name, so keys, the palette and the slash
command share one path.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agenttui.core.models import Origin, Scope
from agenttui.ui import messages as app_messages
from agenttui.ui.inert import inert_line

END_INSTRUCTION = (
    "We are ending this session. Update the project context (context.md) with the "
    "current state, active focus, blockers and next steps from this conversation, "
    "using your update_context tool, then reply with a two-line summary."
)

if TYPE_CHECKING:
    from textual.widget import Widget

    from agenttui.agent.turn import TurnController
    from agenttui.bootstrap import Services
    from agenttui.ui.app import AgentTUI
    from agenttui.ui.widgets.chat_log import ChatLog

    _Widget = Widget
else:
    _Widget = object  # at run time the widget half is ChatPane's other base

Handler = Callable[["SlashCommandsMixin", str], Awaitable[None]]


EXPORT_FORMATS = ("md", "json")


def _looks_like_path(word: str) -> bool:
    """A file name has a dot or a folder in it; a bare word after /export is a format."""
    return "." in word or "/" in word or word.startswith("~")


@dataclass(frozen=True)
class SlashCommand:
    """One row of the table: what ``/name ARGUMENT`` runs, and what completion and /help say."""

    name: str  # without the slash
    usage: str  # argument synopsis, "" when none
    help: str
    run: Handler  # awaited with the pane and the argument (stripped; "" when none)
    example: str = ""
    required: bool = False  # an empty argument shows the usage and example instead of running
    choices: tuple[str, ...] = ()  # the argument, casefolded, is "" or one of these
    choices_are: str = ""  # what the choices are, for the refusal ("a scope")


def parse(text: str) -> tuple[str, str] | None:
    """``"/remember  x y"`` -> ``("remember", "x y")``; None when not a slash command."""
    stripped = text.strip()
    if not stripped.startswith("/") or stripped.startswith("//"):
        return None
    name, _, argument = stripped[1:].partition(" ")
    return name.lower(), argument.strip()


def _or_list(words: tuple[str, ...]) -> str:
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else "".join(words)


class SlashCommandsMixin(_Widget):
    if TYPE_CHECKING:  # what ChatPane provides
        services: Services
        conversation_id: str | None
        turns: TurnController
        app: AgentTUI

        @property
        def chat_log(self) -> ChatLog: ...
        async def send(self, text: str, *, show: bool = True, retry_of: int | None = None,
                       edit_of: int | None = None, then_archive: bool = False) -> None: ...
        async def new_conversation(self, archive_current: bool = False) -> None: ...
        async def compact(self) -> None: ...
        async def toggle_incognito(self) -> None: ...

    async def run_slash_command(self, text: str) -> bool:
        """Run ``text`` if it is a slash command; False means "send it as a message"."""
        parsed = parse(text)
        if parsed is None:
            return False
        name, argument = parsed
        command = BY_NAME.get(name)
        if command is None:
            self.notify(f"Unknown command /{inert_line(name, 40)}. /help lists them.", severity="error")
            return True
        if command.required and not argument:
            self._usage(name)
            return True
        if command.choices and argument.casefold() not in ("", *command.choices):
            self.notify(f"/{name} takes {command.choices_are}: {_or_list(command.choices)} "
                        f"(not {inert_line(argument.casefold(), 30)!r}).", severity="error")
            return True
        try:
            await command.run(self, argument)
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

    async def _cmd_reset_memory(self, argument: str) -> None:  # the scope is checked (table)
        await self.app.run_action(f"reset_memory({argument.casefold()!r})")

    async def _cmd_audit(self, argument: str) -> None:
        if argument.casefold() != "deep":
            await self.app.run_action("open_audit")
            return
        from agenttui.ui.screens.audit import AuditScreen  # the model reviews memory too

        self.app.push_screen(AuditScreen(self.services, deep=True), self.app._after_memory_screen)

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
        if len(parts) == 1 and parts[0].lower() not in EXPORT_FORMATS and not _looks_like_path(parts[0]):
            # "/export pdf" meant a format, not a file named "pdf"
            self.notify(f"Unknown export format {parts[0]!r}: use md or json, or give a path such as "
                        f"{parts[0]}.md.", title="Not exported", severity="warning")
            return
        fmt = parts[0].lower() if parts and parts[0].lower() in EXPORT_FORMATS else "md"
        rest = parts[1] if len(parts) > 1 else (parts[0] if parts and parts[0].lower() not in EXPORT_FORMATS else "")
        # Without a path: agenttui's exports folder (named in the toast), not wherever the
        # app was started; a second export never overwrites the first.
        exports = self.services.paths.data_dir / "exports"
        target = Path(rest).expanduser() if rest else None
        history = self.services.history
        exporter = history.export_json if fmt == "json" else history.export_markdown
        conversation_id = self.conversation_id

        def write() -> Path:
            from agenttui.core.history.export import write_export

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
        await self.send(END_INSTRUCTION, show=True, then_archive=True)

    async def _cmd_attach(self, argument: str) -> None:
        from agenttui.agent.images import ImageError, load_image

        try:
            await asyncio.to_thread(load_image, argument)  # check it now, not at send time
            self.turns.image = str(Path(argument).expanduser())
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


def _app_action(action: str) -> Handler:
    """A command that opens another screen: the App action, as its key and the palette run it."""

    async def run(pane: SlashCommandsMixin, argument: str) -> None:
        await pane.app.run_action(action)

    return run


_Mixin = SlashCommandsMixin
COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand("remember", "TEXT [--profile]", "save a note to memory (user scope; --profile for this profile)",
                 _Mixin._cmd_remember, "/remember I prefer short answers", required=True),
    SlashCommand("forget", "SUBSTRING", "remove the memory notes that contain SUBSTRING", _Mixin._cmd_forget,
                 "/forget short answers", required=True),
    SlashCommand("memory", "", "list what is remembered", _Mixin._cmd_memory),
    SlashCommand("reset", "", "archive this conversation and start a new one", _Mixin._cmd_reset),
    SlashCommand("reset-memory", "[user|profile|all]", "delete all memory of a scope (asks which, backs up)",
                 _Mixin._cmd_reset_memory, "/reset-memory profile", choices=("user", "profile", "all"),
                 choices_are="a scope"),
    SlashCommand("new", "", "start a new conversation", _Mixin._cmd_new),
    SlashCommand("audit", "[deep]", "open the memory audit (deep: the model reviews memory and proposes changes)",
                 _Mixin._cmd_audit, "/audit deep"),
    SlashCommand("profile", "", "switch, create or delete profiles", _app_action("open_profiles")),
    SlashCommand("export", "[md|json] [PATH]", "export this conversation", _Mixin._cmd_export,
                 "/export md notes.md"),
    SlashCommand("end", "", "ask the agent to update context.md, then archive the session", _Mixin._cmd_end),
    SlashCommand("attach", "PATH", "attach an image to the next message", _Mixin._cmd_attach,
                 "/attach ~/shot.png", required=True),
    SlashCommand("compact", "", "summarise the older messages (shown for editing); the summary is "
                 "sent instead of them, the originals stay in History", _Mixin._cmd_compact),
    SlashCommand("incognito", "", "chat without saving anything (memory is read); again to leave, "
                 "offering to save", _Mixin._cmd_incognito),
    SlashCommand("mcp", "", "MCP servers: state, tools, stderr, enable/disable; insert a resource or prompt",
                 _app_action("open_mcp")),
    SlashCommand("help", "", "list commands and keys", _Mixin._cmd_help),
)
BY_NAME = {command.name: command for command in COMMANDS}


def help_text(commands: tuple[SlashCommand, ...], bindings) -> str:
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
