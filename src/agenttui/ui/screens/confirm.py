"""The destructive-action dialog (docs/storage.md#destructive-actions).

One modal for every destructive action: reset memory, delete a conversation,
clear history, delete a profile, bulk delete in the audit, restore over
existing data. It states exactly what will go, says where the backup goes,
starts with focus on **Cancel** (Enter on a fresh dialog never destroys
anything) and, for the most destructive actions, keeps **Confirm** disabled
until the user has typed ``require_word``. Those open with the focus in the
word's field, so typing goes there at once; Enter confirms only with the
exact word (surrounding spaces ignored), otherwise the dialog stays open and
says what to type (Enter never cancels silently: Esc or Cancel does).

``choices`` (value, label, statement) offer alternatives as radio buttons
(reset memory: both scopes, the user's, the profile's); the statement shown
is the chosen one's and :attr:`choice` says which was confirmed.

The dialog only answers yes/no (``ModalScreen[bool]``); the caller makes the
backup and does the work, so the statement and the action cannot drift apart.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, RadioButton, RadioSet, Static

from agenttui.ui.escape_then_key import Handover
from agenttui.ui.screens.answer_once import dismiss_once
from agenttui.ui.widgets.dialog_input import DialogInput


class ConfirmScreen(ModalScreen[bool]):
    """Ask before destroying something. Dismisses with ``True`` only on Confirm."""

    CSS_PATH = "confirm.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="confirm.cancel")]

    def __init__(
        self,
        title: str,
        statement: str,
        *,
        backup: str | Path | None = None,
        require_word: str | None = None,
        confirm_label: str = "Delete",
        choices: tuple[tuple[str, str, str], ...] = (),
    ) -> None:
        super().__init__()
        self.title_text = title
        self.statement = choices[0][2] if choices else statement
        self.choices = choices
        self.choice: str | None = choices[0][0] if choices else None
        self.backup = backup
        self.require_word = require_word
        self._handover = Handover()
        self.confirm_label = confirm_label

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            # Text objects, not markup: names in the statement are user data.
            yield Static(Text(self.title_text, style="bold"), id="confirm-title")
            if self.choices:
                with RadioSet(id="confirm-choices"):
                    for index, (value, label, _statement) in enumerate(self.choices):
                        yield RadioButton(label, value=index == 0, id=f"choice-{value}")
            yield Static(Text(self.statement), id="confirm-statement")
            if self.backup is not None:
                yield Static(Text(f"A backup is made first: {self.backup}"), id="confirm-backup")
            if self.require_word:
                where = " (shift+tab: the choices above)" if self.choices else ""
                yield Static(
                    Text(f"Type {self.require_word!r} to confirm{where}:"), id="confirm-word-label"
                )
                yield DialogInput(placeholder=self.require_word, id="confirm-word")
                yield Static("", id="confirm-hint")
            with Horizontal(id="confirm-buttons"):
                yield Button("Cancel", id="cancel", variant="primary")
                yield Button(
                    self.confirm_label,
                    id="confirm",
                    variant="error",
                    disabled=bool(self.require_word),
                )

    def on_mount(self) -> None:
        self.query_one("#confirm-word" if self.require_word else "#cancel").focus()

    @on(RadioSet.Changed, "#confirm-choices")
    def _chosen(self, event: RadioSet.Changed) -> None:
        value = (event.pressed.id or "").removeprefix("choice-")
        for choice, _label, statement in self.choices:
            if choice == value:
                self.choice, self.statement = choice, statement
                self.query_one("#confirm-statement", Static).update(Text(statement))

    @on(Input.Changed, "#confirm-word")
    def _word_typed(self, event: Input.Changed) -> None:
        self.query_one("#confirm", Button).disabled = event.value.strip() != self.require_word

    @on(Input.Submitted, "#confirm-word")
    def _word_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip() == self.require_word:
            dismiss_once(self, True)
            return
        typed = f"{event.value.strip()!r} is not {self.require_word!r}" if event.value.strip() else "Nothing typed"
        hint = self.query_one("#confirm-hint", Static)
        hint.update(Text(f"{typed}: type {self.require_word!r} and press Enter, or Esc to cancel."))
        hint.add_class("-shown")

    @on(Button.Pressed, "#confirm")
    def _confirmed(self) -> None:
        dismiss_once(self, True)

    def on_key(self, event: events.Key) -> None:
        # Esc and the next key typed at once reach us as one alt+key (escape_then_key.py)
        self._handover.on_key(self.app, event, self.action_cancel)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        dismiss_once(self, False)
