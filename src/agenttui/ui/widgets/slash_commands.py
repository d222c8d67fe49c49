"""Slash commands in the prompt: completion and the suggestion list.

The table itself (name -> handler, help, argument spec) and parsing are in
:mod:`.chat_commands`, next to the handlers.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from agenttui.ui.widgets.chat_commands import COMMANDS, SlashCommand


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
