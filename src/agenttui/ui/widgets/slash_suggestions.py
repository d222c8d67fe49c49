"""The suggestion list shown above the prompt while a slash command is typed.

What matches (:func:`~agenttui.ui.slash.table.completions`) comes from the
slash-command table.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from agenttui.ui.slash.table import SlashCommand


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
