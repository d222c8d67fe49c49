"""Esc pressed and a key typed at once, which the terminal delivered as one alt+key.

A terminal sends Esc as the byte ESC, and alt+h as ESC h: Textual's parser reads
an ESC followed by a character within ``ESCDELAY`` (100 ms), or already waiting
when a loaded machine first reads the input, as alt+<character> -- and an ESC
followed by "[" and text that makes no escape sequence as a "^" key, then the
text. So a user who closes a dialog with Esc and at once types their next message
loses the Esc: the dialog stays open and the message lands on its keys -- the
prompt inspector's one-letter commands ("e" edits a note, "d" forgets one, Enter
opens or saves), the audit's ("d" deletes a note), the MCP and profile lists'.

A dialog whose keys are letters therefore reads an alt+<character> it does not
bind as what was typed: its Esc (close), then the character, posted to the app
again as a key, so it reaches whatever has the focus once the dialog is closed
(the chat's prompt) with that widget's bindings (Enter sends); so are the keys
typed after it that were already on their way to the dialog (:class:`Handover`).

The boxes that type text read them so too (:func:`typed_after_escape`): the chat's
prompt runs Esc's binding (it cancels a streaming reply) and types the character
ahead of the keys typed after it (``PromptInput``); before, the cancel and the
message's first letter were lost, or the cancel was lost and a "^" typed. The
Memory pane's add box and the History search run their Esc (back to the chat) and
hand the message on (``EscapeAwareInput``). A bound alt+<character> (alt+i:
incognito) stays the binding. A "^" counts as Esc only at the start of an empty
box while Esc has something to do there: the parser's "^" comes after 31 keys
typed without a pause, so it starts the burst; a "^" typed after text is text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from textual import events
from textual.app import App
from textual.binding import ActiveBinding


def merged_character(event: events.Key) -> str | None:
    """What ``event`` is when it is an Esc merged with what was typed after it: the character
    of an alt+<character>, or "" for an Esc the parser gave up on as the start of an escape
    sequence and reissued as "^" (the text following); else None."""
    if event.key == "circumflex_accent":
        return ""
    if not event.key.startswith("alt+") or event.character is None or len(event.character) != 1:
        return None
    return event.character if event.character.isprintable() else None


def typed_after_escape(event: events.Key, bindings: Mapping[str, ActiveBinding], empty: bool) -> str | None:
    """For a box that types text: when ``event`` is Esc merged with the typing after it, what
    to type once Esc's binding ran ("" for nothing); else None.

    An alt+<character> that ``bindings`` (the screen's active ones) do not hold: its character.
    A "^": only in an ``empty`` box, and only while Esc has something to do there -- after
    text, or with Esc idle, a "^" is what the user typed ("2^3"), and it is typed.
    """
    character = merged_character(event)
    if character is None or event.key in bindings:
        return None
    if character == "" and not (empty and _enabled(bindings.get("escape"))):
        return None
    return character


async def press_escape(app: App[object], bindings: Mapping[str, ActiveBinding]) -> None:
    """Run what Esc is bound to among ``bindings`` (the screen's active ones), if anything."""
    active = bindings.get("escape")
    if active is not None and _enabled(active):
        await app.run_action(active.binding.action, active.node)


async def escape_here(app: App[object], event: events.Key, bindings: Mapping[str, ActiveBinding]) -> None:
    """Esc's binding run by the box that got the key, at once: the keys read right behind it
    are already queued to that box, and through the normal dispatch they were typed into it."""
    event.stop()
    event.prevent_default()
    await press_escape(app, bindings)


def _enabled(active: ActiveBinding | None) -> bool:
    return active is not None and active.enabled


class Handover:
    """A dialog's keys after Esc: the merged alt+<character> closes it and is typed again, to
    the app; the keys read before it closed, still on their way to it, follow, in order.

    (Textual forwards each key to the focused widget's queue as it reads it, so a burst of
    typing is queued to the dialog before the first key of it is handled.)
    """

    def __init__(self) -> None:
        self._closed = False

    def on_key(self, app: App[object], event: events.Key, close: Callable[[], object]) -> bool:
        """Handle ``event`` (True) or leave it to the dialog (False); ``close`` is its Esc."""
        if self._closed:  # typed before it closed, meant for below
            self._hand(app, event.key, event.character, event)
            return True
        character = merged_character(event)
        if character is None:
            return False
        close()  # pops the dialog at once: keys read from now on go to the screen below
        self._closed = True
        event.stop()
        event.prevent_default()
        if character:
            app.post_message(events.Key(character, character))
        return True

    def _hand(self, app: App[object], key: str, character: str | None, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        # to the app, as the terminal's keys come: its bindings (Enter sends) apply below too
        app.post_message(events.Key(key, character))
