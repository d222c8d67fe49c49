"""``/compact``'s summary, shown for editing before it is kept.

The model's summary in a TextArea: the user corrects it (it is what the model
will see instead of those messages from now on) and keeps it with Save
(ctrl+s), or drops it with Cancel / Esc. Dismisses with the edited text, or
None. The text is model output: plain text in the editor, never markup.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static, TextArea


class CompactScreen(ModalScreen[str | None]):
    DEFAULT_CSS = """
    CompactScreen { align: center middle; }
    CompactScreen #compact-dialog {
        width: 85%; max-width: 110; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    CompactScreen #compact-editor { height: 16; margin: 1 0; }
    CompactScreen #compact-buttons { height: auto; align-horizontal: right; }
    CompactScreen Button { margin-left: 2; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="compact.cancel"),
        Binding("ctrl+s", "save", "Save summary", id="compact.save"),
    ]

    def __init__(self, summary: str, replaced: int, dropped: int = 0) -> None:
        super().__init__()
        self.summary = summary
        self.replaced = replaced
        self.dropped = dropped

    def compose(self) -> ComposeResult:
        cut = (f" The oldest {self.dropped} message(s) did not fit in the request and are not in it."
               if self.dropped else "")
        with Vertical(id="compact-dialog"):
            yield Static(Content.styled("Summary of the older messages", "bold"), id="compact-title")
            yield Static(Content(
                f"Sent from now on instead of {self.replaced} older message(s); they stay in History "
                f"and search. Edit it as needed.{cut}"), id="compact-statement")
            yield TextArea(self.summary, id="compact-editor", soft_wrap=True)
            with Horizontal(id="compact-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save summary", id="save", variant="primary")

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    @property
    def text(self) -> str:
        return self.query_one(TextArea).text

    def action_save(self) -> None:
        if self.text.strip():
            self.dismiss(self.text)
        else:
            self.notify("An empty summary is not kept: write something or Cancel.", severity="warning")

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#save")
    def _save(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_cancel()
