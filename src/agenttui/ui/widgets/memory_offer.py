"""The row that offers to remember an auto-detected correction (docs/memory.md).

Two shapes, decided by the setting behind the write:

* **offer** (the item is not stored yet: ``corrections = "offer"`` or a
  model proposal waiting for consent) -> "Remember" / "Dismiss";
* **saved** (``corrections = "save"``, model consent ``save``) -> "Undo" /
  "OK": the item is already in memory and one key takes it back.

The row only reports the user's choice (``Chosen``); the pane does the write.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Static

from agenttui.core.models import WriteResult


class MemoryOffer(Vertical):
    DEFAULT_CSS = """
    MemoryOffer {
        height: auto;
        border: round $accent;
        padding: 0 1;
        display: none;
    }
    MemoryOffer #offer-buttons { height: auto; }
    MemoryOffer Button { min-width: 8; margin-right: 1; }
    """

    class Chosen(Message):
        """``choice`` is "remember", "dismiss", "undo" or "keep"."""

        def __init__(self, offer: MemoryOffer, choice: str, text: str, result: WriteResult) -> None:
            super().__init__()
            self.offer = offer
            self.choice = choice
            self.text = text
            self.result = result

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.text = ""
        self.result: WriteResult | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="offer-text")
        with Horizontal(id="offer-buttons"):
            yield Button("Remember", id="offer-primary", variant="primary", compact=True)
            yield Button("Dismiss", id="offer-secondary", compact=True)

    @property
    def saved(self) -> bool:
        return bool(self.result and self.result.ok and not _waiting(self.result))

    def show(self, text: str, result: WriteResult) -> None:
        self.text, self.result = text, result
        shown = result.item.display if result.item else text
        if self.saved:
            self.border_title = "remembered"
            primary, secondary = "Undo", "OK"
        else:
            self.border_title = "remember this?"
            primary, secondary = "Remember", "Dismiss"
        self.query_one("#offer-text", Static).update(Text(shown))
        self.query_one("#offer-primary", Button).label = primary
        self.query_one("#offer-secondary", Button).label = secondary
        self.display = True

    def hide(self) -> None:
        self.display = False
        self.text, self.result = "", None

    @on(Button.Pressed, "#offer-primary")
    def _primary(self, event: Button.Pressed) -> None:
        event.stop()
        self._choose("undo" if self.saved else "remember")

    @on(Button.Pressed, "#offer-secondary")
    def _secondary(self, event: Button.Pressed) -> None:
        event.stop()
        self._choose("keep" if self.saved else "dismiss")

    def _choose(self, choice: str) -> None:
        if self.result is not None:
            self.post_message(self.Chosen(self, choice, self.text, self.result))
        self.hide()


def _waiting(result: WriteResult) -> bool:
    return result.pending or result.status == "pending"
