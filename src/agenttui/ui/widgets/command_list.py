"""A side pane's list, whose letters are commands, and the keys typed right after one that opens a box.

History's ``/`` (search) and ``r`` (rename) and Memory's ``a`` (add) and ``e`` (edit) put the
focus in a text box for what is typed next. But Textual forwards each key to the focused
widget's queue as it reads it, a pane's binding runs only when its key has bubbled up to the
app, and a focus move lands after the keys already on their way. So with the box's text typed
in the same burst -- fast typing while the app was busy drawing a reply, a slow ssh link that
delivers keys in clumps, ``tmux send-keys`` -- its letters reached the list as commands:
"/weather" archived the conversation (``a``) and opened a rename (``r``), "/dad" asked to
delete it, and "add pizza" in Memory deleted two notes (``d``, ``d``).

Here such a key runs its action from the list's own queue, before the list reads the next
key, and the action moves the focus at once (:func:`focus_now`); each key that reaches the
list after the focus went to that box is handed to the app, which gives it to the box, in the
order typed. Once the focus is back on the list, its letters are commands again.
"""

from __future__ import annotations

from collections.abc import Collection

from textual import events
from textual.widget import Widget
from textual.widgets import OptionList


def focus_now(widget: Widget) -> None:
    """Focus ``widget`` before the next key is read (``Widget.focus`` waits for the app's queue)."""
    widget.screen.set_focus(widget)


class CommandList(OptionList):
    """``typing_bindings``: the ids of the pane bindings that put the focus in a box to type in."""

    def __init__(self, *args, typing_bindings: Collection[str] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.typing_bindings = frozenset(typing_bindings)
        self._typing_to: Widget | None = None  # the box a key of this list sent the focus to

    async def _on_key(self, event: events.Key) -> None:
        box = self._typing_to
        focused = self.screen.focused  # not has_focus: that follows the Focus event, queued
        if box is not None and focused is self:
            box = self._typing_to = None  # back on the list: its letters are commands again
        if box is not None:
            event.stop()
            event.prevent_default()
            if focused is box:  # typed for the box: given to it, through the app, in order
                self.app.post_message(events.Key(event.key, event.character))
            return  # the box closed meanwhile: the rest of the burst changes nothing here
        active = self.screen.active_bindings.get(event.key)
        if active is not None and active.enabled and active.binding.id in self.typing_bindings:
            event.stop()
            event.prevent_default()
            await self.app.run_action(active.binding.action, active.node)
            focused = self.screen.focused
            if focused is not None and focused is not self:
                self._typing_to = focused
            return
        await super()._on_key(event)
