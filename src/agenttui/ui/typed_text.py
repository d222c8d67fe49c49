"""Characters a keyboard types that Textual's text boxes would drop.

Textual's ``Input`` and ``TextArea`` insert a key's character only when
``str.isprintable()`` accepts it, and Python calls every space but the ASCII
one, and every format character, unprintable. So a Japanese or Chinese IME's
full-width space (U+3000), the no-break space many layouts type with
AltGr+space, the zero-width non-joiner of Persian and Hindi spelling, the
zero-width joiner that emoji sequences are made of (👨‍👩‍👧 is three people
joined by two) and the marks right-to-left text uses were typed and lost:
"東京　大阪" was sent as "東京大阪", a family emoji as three people. Pasted,
they were kept.

The app hands such a key to the focused widget as a one-character paste,
which every text box inserts at the cursor (the prompt after the characters
typed before it). The format characters are the ones the chat shows as text
(:data:`agenttui.core.visible_text.PROSE_FORMAT_CHARACTERS`); the bidi
overrides and other invisible characters it shows as escapes stay untyped.

A paste's line breaks: xterm, VTE terminals (GNOME Terminal) and ``tmux
paste-buffer`` send each as a carriage return, Windows' clipboard as CR LF.
``TextArea`` makes them its own newline, but a long paste the prompt keeps
aside (and a paste into the first frame's prompt) held them as they came: the
message went to the model and to history as one line of lone carriage
returns, shown as ``\x0d`` (:func:`paste_newlines`).
"""

from __future__ import annotations

import re
import unicodedata

from textual import events

from agenttui.core.visible_text import PROSE_FORMAT_CHARACTERS

_PASTE_NEWLINE = re.compile(r"\r\n?")


def paste_newlines(text: str) -> str:
    """``text`` with each CR LF and lone CR a newline, as ``TextArea`` inserts a paste."""
    return _PASTE_NEWLINE.sub("\n", text) if "\r" in text else text


def textual_would_drop(character: str | None) -> bool:
    """True for a character text needs that ``str.isprintable()`` rejects."""
    if character is None or len(character) != 1 or character.isprintable():
        return False
    return character in PROSE_FORMAT_CHARACTERS or unicodedata.category(character) == "Zs"


def as_paste(event: events.Event) -> events.Event:
    """``event``, or a paste of its character when it is a key Textual's text boxes would drop."""
    if isinstance(event, events.Key) and not event.is_forwarded:
        character = event.character
        if character is not None and textual_would_drop(character):
            return events.Paste(character)
    return event
