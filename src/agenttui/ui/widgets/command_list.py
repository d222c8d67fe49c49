"""A side pane's list, whose letters are commands, and the keys typed right after one that sends
the focus to a text box.

History's ``/`` (search) and ``r`` (rename), Memory's ``a`` (add) and ``e`` (edit), and Enter
(open the conversation in the chat, edit the note) put the focus in a box for what is typed
next. But Textual forwards each key to the focused widget's queue as it reads it, a pane's
binding runs only when its key has bubbled up to the app, and a focus move lands after the keys
already on their way. So with the box's text typed in the same burst -- fast typing while the
app was busy drawing a reply or loading a long conversation, a slow ssh link that delivers keys
in clumps, ``tmux send-keys`` -- its letters reached the list as commands: "/weather" archived
the conversation (``a``) and opened a rename (``r``), "/dad" asked to delete it, "add pizza" in
Memory deleted two notes (``d``, ``d``), and Enter with "do you remember" asked to delete the
conversation just opened and renamed it "emember".

Here ``/ r a e`` run their action from the list's own queue, before the list reads the next key,
and the action moves the focus at once (:func:`focus_now`); the keys that reach the list after
the focus went to that box are handed to it through the app, in the order typed. Enter's action
(the pane's, then the chat's, after loading the conversation) moves the focus later: the keys
typed with it and while it works wait on the list until the focus has left, then follow it. Keys
go on only to a text box (never to a dialog's buttons, where ``y`` could answer); keys typed well
after an Enter that moved nothing are the list's commands again.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from textual import events
from textual._time import get_time  # the clock Textual stamps each event with (Message.time)
from textual.widget import Widget
from textual.widgets import Input, OptionList, TextArea

#: How long an Enter's action may take to move the focus (opening a long conversation
#: included): keys typed within it, the focus still on the list, wait for where it goes.
ENTER_MOVES_FOCUS_WITHIN_S = 3.0


def focus_now(widget: Widget) -> None:
    """Focus ``widget`` before the next key is read (``Widget.focus`` waits for the app's queue)."""
    widget.screen.set_focus(widget)


class CommandList(OptionList):
    """``typing_bindings``: the ids of the pane bindings that put the focus in a box to type in."""

    def __init__(self, *args, typing_bindings: Collection[str] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.typing_bindings = frozenset(typing_bindings)
        self._typing_to: Widget | None = None  # the box a key of this list sent the focus to
        self._held: list[events.Key] = []  # read with an Enter whose action has not moved the focus yet
        self._selected_at: float | None = None  # when that Enter was handled

    async def _on_key(self, event: events.Key) -> None:
        focused = self.screen.focused  # not has_focus: that follows the Focus event, queued
        if self._selected_at is not None and self._hold(event, focused):
            return
        box = self._typing_to
        if box is not None and focused is self:
            box = self._typing_to = None  # back on the list: its letters are commands again
        if box is not None:
            self._stop(event)
            if focused is box:  # typed for the box: given to it, through the app, in order
                self._hand([event], focused)
            return  # the box closed meanwhile: the rest of the burst changes nothing here
        active = self.screen.active_bindings.get(event.key)
        if active is not None and active.enabled and active.binding.id in self.typing_bindings:
            self._stop(event)
            await self.app.run_action(active.binding.action, active.node)
            focused = self.screen.focused
            if focused is not None and focused is not self:
                self._typing_to = focused
            return
        if (
            active is not None
            and active.enabled
            and active.node is self
            and active.binding.action == "select"
            and self.highlighted is not None
        ):
            self._stop(event)
            self._selected_at = get_time()
            self.action_select()
            return
        await super()._on_key(event)

    def _hold(self, event: events.Key, focused: Widget | None) -> bool:
        """After Enter: hold ``event`` (True) while the focus is still here, hand it on once it left."""
        if focused is self:
            if self._selected_at is not None and event.time - self._selected_at < ENTER_MOVES_FOCUS_WITHIN_S:
                self._stop(event)
                self._held.append(event)
                return True
            # typed well after the Enter and the focus stayed: a command; what was held
            # was meant for a box that never came, and is not run as commands either
            self._held, self._selected_at = [], None
            return False
        held, self._held, self._selected_at = self._held, [], None
        self._stop(event)
        self._hand([*held, event], focused)
        return True

    def on_blur(self, event: events.Blur) -> None:
        if self._selected_at is not None:  # Enter's action moved the focus: the keys follow it
            held, self._held, self._selected_at = self._held, [], None
            self._hand(held, self.screen.focused)

    def _hand(self, keys: Iterable[events.Key], target: Widget | None) -> None:
        if isinstance(target, Input | TextArea):
            for key in keys:
                self.app.post_message(events.Key(key.key, key.character))

    @staticmethod
    def _stop(event: events.Key) -> None:
        event.stop()
        event.prevent_default()
