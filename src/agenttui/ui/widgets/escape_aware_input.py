"""A one-line Input in a side pane that reads Esc typed together with what follows.

A terminal sends Esc as ESC, and Textual's parser reads ESC followed at once by a
character as alt+<character> (:mod:`agenttui.ui.escape_then_key`). In the Memory
pane's add box, Esc (back to the chat) and the next message typed at once became
alt+h and "ello …": Textual's ``Input`` inserted the "h" and the rest, and Enter
kept the message as a memory note instead of sending it.

So an alt+<character> that nothing binds (or a "^" starting an empty box: the
parser's form of Esc before a long burst) runs Esc's binding here (the pane's: back
to the chat, or clear the search), then the character is typed where the focus now
is; and the keys typed after it in the same burst, already on their way here, are
handed to the app, which gives them to the widget that has the focus by then (the
prompt, where Enter sends; or this box again, if Esc kept the focus here). Only for boxes whose Esc
leads to the prompt or stays here: a box whose Esc lands on a list of one-letter
commands would run the message's letters as commands (the History search holding
text: ``ONLY_WHEN_EMPTY``; there the burst is typed into the box, as before).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widgets import Input

from agenttui.ui.escape_then_key import escape_here, merged_character, press_escape, typed_after_escape


class EscapeAwareInput(Input):
    #: Read Esc merged with the typing only while the box is empty: where Esc with text in the box
    #: goes to a list of one-letter commands (the History search: it clears and goes to the list)
    ONLY_WHEN_EMPTY = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Esc ran: the rest of the burst, already queued here, goes to the app, which gives it
        # to the focus (moved after the keys already queued: Widget.focus is deferred)
        self._handing_on = False
        # the keys handed on (a Key subclass would not reach ``_on_key``: Textual dispatches by
        # the message's class name): one that comes back (Esc kept the focus here) is typed
        self._handed: list[events.Key] = []

    async def _on_key(self, event: events.Key) -> None:
        if any(event is handed for handed in self._handed):  # Esc kept the focus here: ours after all
            self._stop_handing_on()
        elif self._handing_on:
            self._hand_on(event.key, event.character, event)
            return
        elif event.key == "escape" and not (self.ONLY_WHEN_EMPTY and self.value):
            # run here, at once: keys read right behind it (the parser's Esc + "2 cats?") are
            # already queued to this box, and through the binding they were typed into it
            await escape_here(self.app, event, self.screen.active_bindings)
            self._handing_on = True
            return
        elif merged_character(event) is not None and not (self.ONLY_WHEN_EMPTY and self.value):
            bindings = self.screen.active_bindings
            after = typed_after_escape(event, bindings, empty=not self.value)
            if after is not None:
                await press_escape(self.app, bindings)
                self._handing_on = True
                if after:
                    self._hand_on(after, after, event)
                else:
                    event.stop()
                    event.prevent_default()
                return
        if event.key.startswith("alt+") and event.key in self.screen.active_bindings:
            # alt+i from a terminal comes with the character "i": it is the binding's key (incognito),
            # not text, which Input would type and keep from the binding
            event.prevent_default()
            return
        await super()._on_key(event)

    def _on_focus(self, event: events.Focus) -> None:
        self._stop_handing_on()
        super()._on_focus(event)

    def _stop_handing_on(self) -> None:
        self._handing_on = False
        self._handed.clear()

    def _hand_on(self, key: str, character: str | None, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        handed = events.Key(key, character)
        self._handed.append(handed)
        self.app.post_message(handed)
