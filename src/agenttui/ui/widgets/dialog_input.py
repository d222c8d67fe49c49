"""A text field in a dialog: Esc typed together with what follows closes the dialog.

Textual reads ESC followed at once by a letter as alt+<letter>
(:mod:`agenttui.ui.escape_then_key`), and its ``Input`` types that letter. In Settings,
Esc (cancel) and a message typed quickly after it ("hello", Enter) went into the model
field, selected on focus, and Enter saved ``model = "hello"`` to config.toml. Here such a
key runs Esc's binding at once (the dialog closes) and the letter goes to the app, as typed;
the keys of the burst already queued to this field follow it there, in order, instead of
being typed here (an Enter would submit the closed dialog). Waiting for the key to bubble to
the dialog's own :class:`~agenttui.ui.escape_then_key.Handover` is too late: the field
handles the whole burst first. A plain Esc with keys read right behind it (the parser's
Esc + "2 cats?") closes the dialog here too, before those keys: through the dialog's
binding they were typed into the closing field and lost.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from agenttui.ui.escape_then_key import escape_here, press_escape, typed_after_escape


class DialogInput(Input):
    async def _on_key(self, event: events.Key) -> None:
        if not self.screen.is_current:  # the dialog closed under a burst: typed for below
            self._hand_on(event, event.key, event.character)
            return
        if event.key == "escape":  # closes the dialog now: keys queued behind it are for below
            await escape_here(self.app, event, self.screen.active_bindings)
            return
        after = typed_after_escape(event, self.screen.active_bindings, not self.value)
        if after is None:
            await super()._on_key(event)
            return
        await press_escape(self.app, self.screen.active_bindings)
        if after:
            self._hand_on(event, after, after)
        else:
            event.stop()
            event.prevent_default()

    def _hand_on(self, event: events.Key, key: str, character: str | None) -> None:
        event.stop()
        event.prevent_default()
        self.app.post_message(events.Key(key, character))
