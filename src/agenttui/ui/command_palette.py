"""Textual's command palette, with its list's keys safe before the list is laid out.

Textual's ``OptionList`` pages by a map from option to line that its layout builds; the
palette hands PageUp/PageDown (and the other list keys) to its list from the app's own key
handling. Pressed as the palette opens -- ctrl+p then PageDown at once, before the list
has been laid out -- the map was empty, ``KeyError`` escaped the app's message loop and the
app ended (found by a random key storm in tmux; then by hand: ctrl+p, PageDown).

Esc typed together with what follows reaches the palette as alt+<letter>
(:mod:`agenttui.ui.escape_then_key`), and its search box typed it: Esc and a message
typed quickly after it ("clear history", Enter) stayed in the palette, Enter ran the best
match, and the message was gone. :func:`close_on_merged_escape`, called by the app before
it hands a key on, closes the palette and turns the key into its letter, for the prompt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events
from textual.command import CommandInput, CommandPalette

from agenttui.ui.escape_then_key import press_escape, typed_after_escape

if TYPE_CHECKING:
    from textual.app import App


class SafeCommandPalette(CommandPalette):
    def _action_command_list(self, action: str) -> None:
        try:
            super()._action_command_list(action)
        except KeyError:  # the list's line map, not built yet: the key has nothing to move
            return


async def close_on_merged_escape(app: App[Any], event: events.Event) -> events.Event | None:
    """``event``, or -- for Esc merged with the next key while the palette is open -- the
    palette closed and that key's letter, to be handed to what has the focus now (None:
    nothing to hand on)."""
    screen = app.screen
    if not isinstance(event, events.Key) or not isinstance(screen, CommandPalette):
        return event
    box = next(iter(screen.query(CommandInput)), None)
    after = typed_after_escape(event, screen.active_bindings, empty=box is None or not box.value)
    if after is None:
        return event
    await press_escape(app, screen.active_bindings)
    return events.Key(after, after) if after else None
