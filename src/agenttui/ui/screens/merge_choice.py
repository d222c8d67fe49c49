"""Which wording to keep when duplicates are merged.

Lists the highlighted note and its duplicates, each with its scope and why it
was matched; Enter keeps the highlighted wording and folds the others into
it (``MemoryStore.merge``: uses summed, the best confidence, the earliest
date), Escape cancels. Texts go through :func:`inert_line`: they are data.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from agenttui.core.models import MemoryItem
from agenttui.ui.inert import inert_line
from agenttui.ui.screens.answer_once import dismiss_once

TEXT_CHARS = 160


class MergeChoiceScreen(ModalScreen[str | None]):
    """Dismisses with the id of the item to keep, or None."""

    CSS_PATH = "confirm.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="merge.cancel")]

    def __init__(self, items: list[MemoryItem], why: dict[str, str]) -> None:
        super().__init__()
        self.items = items
        self.why = why  # item id -> why it matches the first item

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Static(Text(f"Merge {len(self.items)} notes: which wording do you keep?", style="bold"),
                         id="confirm-title")
            options = []
            for item in self.items:
                label = Text(inert_line(item.display, TEXT_CHARS))
                label.append(f"\n  {item.scope}, {item.source}", style="dim")
                if item.id in self.why:
                    label.append(f" · {self.why[item.id]}", style="dim")
                options.append(Option(label, id=item.id))
            yield OptionList(*options, id="merge-options")
            yield Static(Text("Enter keeps the highlighted wording; the others are folded into it "
                              "(a backup is made first). Escape cancels.", style="dim"))

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = 0
        options.focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        dismiss_once(self, event.option.id)

    def action_cancel(self) -> None:
        dismiss_once(self, None)
