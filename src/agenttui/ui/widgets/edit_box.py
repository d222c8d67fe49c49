"""A one-line box that edits one value: Enter saves, Esc cancels (bound by the box or its pane).

A terminal sends Esc as ESC, and Textual reads ESC followed at once by a letter as
alt+<letter> (:mod:`agenttui.ui.escape_then_key`). Esc and "hello" typed quickly reached a
plain ``Input`` as alt+h and "ello": the edit went on with those letters typed over the value
(the box selects it on focus), and an Enter in the same burst saved them -- a Memory note or a
conversation's title replaced by "hello". Here an unbound alt+<letter> runs Esc's binding, like
Esc. Once the edit is saved or cancelled, the rest of a burst still on its way to the box changes
nothing, and it is not handed on: the focus goes back to a list whose letters are commands
(``d`` deletes).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widgets import Input

from agenttui.ui.escape_then_key import escape_here, typed_after_escape
from agenttui.ui.widgets.command_list import focus_now


class EditBox(Input):
    def __init__(self, *, select_on_focus: bool = True, **kwargs: Any) -> None:
        super().__init__(select_on_focus=select_on_focus, **kwargs)
        self.editing = False  # between begin() and Enter, Esc or end()

    def begin(self, value: str) -> None:
        self.value = value
        self.editing = True
        self.display = True
        focus_now(self)  # the keys typed right after the key that opened it are for it (command_list)
        self.cursor_position = len(value)

    def end(self) -> None:
        self.editing = False
        self.display = False

    async def _on_key(self, event: events.Key) -> None:
        bindings = self.screen.active_bindings
        escape = event.key == "escape" or typed_after_escape(event, bindings, not self.value) is not None
        if self.editing and not escape:
            await super()._on_key(event)
            return
        if not self.editing:  # answered: the rest of the burst changes nothing here
            event.stop()
            event.prevent_default()
            return
        await escape_here(self.app, event, bindings)  # Esc, or Esc merged with the typing after it
        self.editing = False

    async def action_submit(self) -> None:
        if self.editing:  # one answer: a second Enter in the same burst saves nothing
            self.editing = False
            await super().action_submit()
