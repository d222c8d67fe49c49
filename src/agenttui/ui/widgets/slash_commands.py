"""Slash commands: the table, parsing, completion, and the suggestion list.

The table is the single source for completion and ``/help``. What each
command *does* lives in the chat pane (it owns the conversation); commands
that open another screen go through App actions so the palette and the keys
reach the same code.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option


@dataclass(frozen=True)
class SlashCommand:
    name: str  # without the slash
    usage: str  # argument synopsis, "" when none
    help: str
    example: str = ""


COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand("remember", "TEXT [--profile]", "save a note to memory (user scope; --profile for this profile)",
                 "/remember I prefer short answers"),
    SlashCommand("forget", "SUBSTRING", "remove the memory notes that contain SUBSTRING", "/forget short answers"),
    SlashCommand("memory", "", "list what is remembered"),
    SlashCommand("reset", "", "archive this conversation and start a new one"),
    SlashCommand("reset-memory", "[user|profile|all]", "delete all memory of a scope (asks which, backs up)",
                 "/reset-memory profile"),
    SlashCommand("new", "", "start a new conversation"),
    SlashCommand("audit", "[deep]", "open the memory audit (deep: the model reviews memory and proposes changes)",
                 "/audit deep"),
    SlashCommand("profile", "", "switch, create or delete profiles"),
    SlashCommand("export", "[md|json] [PATH]", "export this conversation", "/export md notes.md"),
    SlashCommand("end", "", "ask the agent to update context.md, then archive the session"),
    SlashCommand("attach", "PATH", "attach an image to the next message", "/attach ~/shot.png"),
    SlashCommand("compact", "", "summarise the older messages (shown for editing); the summary is "
                 "sent instead of them, the originals stay in History"),
    SlashCommand("incognito", "", "chat without saving anything (memory is read); again to leave, "
                 "offering to save"),
    SlashCommand("mcp", "", "MCP servers: state, tools, stderr, enable/disable; insert a resource or prompt"),
    SlashCommand("help", "", "list commands and keys"),
)
BY_NAME = {command.name: command for command in COMMANDS}


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


class SlashSuggestions(OptionList):
    """The completion list shown above the prompt while a command is typed."""

    DEFAULT_CSS = """
    SlashSuggestions {
        height: auto; max-height: 8; display: none;
        border: none; padding: 0 1; background: $panel;
    }
    SlashSuggestions.-visible { display: block; }
    """
    can_focus = False

    def show(self, matches: list[SlashCommand]) -> None:
        self.clear_options()
        self.add_options(
            Option(Content.assemble((f"/{c.name}", "bold"), f" {c.usage}  ", (c.help, "dim")), id=c.name)
            for c in matches
        )
        if matches:
            self.highlighted = 0
        self.set_class(bool(matches), "-visible")

    @property
    def selected_name(self) -> str | None:
        if not self.has_class("-visible") or self.highlighted is None:
            return None
        return self.get_option_at_index(self.highlighted).id
