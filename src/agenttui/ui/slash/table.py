"""The slash-command table: one row per command (name, handler, help, argument spec).

``COMMANDS`` is the single source for dispatch (:mod:`.dispatch`), completion
(:func:`completions`, the suggestion list above the prompt) and ``/help``
(:func:`help_text`). A row's argument spec is checked before its handler runs,
so handlers do not repeat it. Commands that open another screen run the App
action of the same name, so keys, the palette and the slash command share one path.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agenttui.ui.slash import conversation_commands as conv
from agenttui.ui.slash import memory_commands as mem
from agenttui.ui.slash.model_command import model
from agenttui.ui.slash.sync_command import sync

if TYPE_CHECKING:
    from agenttui.ui.slash.context import SlashContext

Handler = Callable[["SlashContext", str], Awaitable[None]]


@dataclass(frozen=True)
class SlashCommand:
    """One row of the table: what ``/name ARGUMENT`` runs, and what completion and /help say."""

    name: str  # without the slash
    usage: str  # argument synopsis, "" when none
    help: str
    run: Handler  # awaited with the chat and the argument (stripped; "" when none)
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


def completions(text: str) -> list[SlashCommand]:
    """Commands matching a partial ``/na`` (only while the first word is typed)."""
    if not text.startswith("/") or any(c.isspace() for c in text):
        return []
    prefix = text[1:].lower()
    return [command for command in COMMANDS if command.name.startswith(prefix)]


def _app_action(action: str) -> Handler:
    """A command that opens another screen: the App action, as its key and the palette run it."""

    async def run(ctx: SlashContext, argument: str) -> None:
        await ctx.app.run_action(action)

    return run


async def _profile(ctx: SlashContext, argument: str) -> None:
    """``/profile``: the picker; ``/profile NAME``: that profile (it was ignored: the picker opened,
    and nothing said the name was not used)."""
    from agenttui.ui.host import app_parts
    from agenttui.ui.inert import inert_line

    if not argument:
        await ctx.app.run_action("open_profiles")
    elif argument == ctx.services.profile_name:
        ctx.notify(f"Profile {inert_line(argument, 40)!r} is the one in use.")
    elif ctx.services.profiles.get(argument) is None:
        names = ", ".join(p.name for p in ctx.services.profiles.list())
        ctx.notify(f"No profile named {inert_line(argument, 40)!r} (there are: {names}). /profile opens the "
                   "picker, where new ones are made.", title="/profile", severity="error")
    else:
        app_parts(ctx.app).switch_profile(argument)


async def _help(ctx: SlashContext, argument: str) -> None:
    await ctx.app.run_action("help")


COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand("remember", "TEXT [--profile]", "save a note to memory (user scope; --profile for this profile)",
                 mem.remember, "/remember I prefer short answers", required=True),
    SlashCommand("forget", "SUBSTRING", "remove the memory notes that contain SUBSTRING", mem.forget,
                 "/forget short answers", required=True),
    SlashCommand("memory", "", "list what is remembered", mem.list_memory),
    SlashCommand("reset", "", "archive this conversation and start a new one", conv.reset),
    SlashCommand("reset-memory", "[user|profile|all]", "delete all memory of a scope (asks which, backs up)",
                 mem.reset_memory, "/reset-memory profile", choices=("user", "profile", "all"),
                 choices_are="a scope"),
    SlashCommand("new", "", "start a new conversation", conv.new),
    SlashCommand("audit", "[deep]", "open the memory audit (deep: the model reviews memory and proposes changes)",
                 mem.audit, "/audit deep"),
    SlashCommand("model", "[NAME]", "the model for this conversation only (no name: pick from the "
                 "endpoint's models; new conversations use the default)", model, "/model gpt-4o-mini"),
    SlashCommand("profile", "[NAME]", "switch to profile NAME; no name: switch, create or delete profiles",
                 _profile, "/profile work"),
    SlashCommand("export", "[md|json] [PATH]", "export this conversation", conv.export, "/export md notes.md"),
    SlashCommand("end", "", "ask the agent to update context.md, then archive the session", conv.end),
    SlashCommand("attach", "PATH", "attach an image to the next message", conv.attach,
                 "/attach ~/shot.png", required=True),
    SlashCommand("compact", "", "summarise the older messages (shown for editing); the summary is "
                 "sent instead of them, the originals stay in History", conv.compact),
    SlashCommand("incognito", "", "chat without saving anything (memory is read); again to leave, "
                 "offering to save", conv.incognito),
    SlashCommand("edit", "[TEXT]", "write the message in your $EDITOR (alt+e: the prompt's draft); it comes "
                 "back to the prompt unsent", conv.edit),
    SlashCommand("mcp", "", "MCP servers: state, tools, stderr, enable/disable; insert a resource or prompt",
                 _app_action("open_mcp")),
    SlashCommand("sync", "[status]", "sync memory and history with your other machines now (agenttui sync); "
                 "status: the devices, pending changes and conflicts kept", sync, "/sync status",
                 choices=("status",), choices_are="an action"),
    SlashCommand("help", "", "list commands and keys", _help),
)
BY_NAME = {command.name: command for command in COMMANDS}

USED_HELP = (
    "“used: …” under a reply — what it used from memory and past conversations "
    "(this session's replies); click it, or Tab/Shift+Tab to it and Enter (F4: the last reply's)",
    "in that list: e edit a note · d forget it (asks first) · Enter opens a past message · Esc close",
)


def help_text(commands: tuple[SlashCommand, ...], bindings: Iterable[tuple[str, str, str]]) -> str:
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
