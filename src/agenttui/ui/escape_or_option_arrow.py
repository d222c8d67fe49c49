"""ESC f read with typing after it is Esc and "f", not Option+Right.

Textual's key table reads "ESC f" / "ESC b" as ctrl+right / ctrl+left (what iTerm2's
"natural text editing" and some macOS setups send for Option+Right/Left), and "ESC O"
with a lowercase letter as an rxvt ctrl+arrow or an application-keypad key ("ESC O k":
"+"). But a terminal sends Esc as the byte ESC too: Esc pressed and then "follow up"
typed, read at once (fast typing, a busy app, tmux send-keys), became ctrl+right and
"ollow up" -- the "f" lost, and Esc's action never ran (the Memory pane's add box kept
"ollow up" as a note instead of handing the message to the chat). Every other ESC +
letter already reaches the app as alt+<letter>, which :mod:`agenttui.ui.escape_then_key`
reads as Esc then the letter.

A real Option+Right is the terminal's one write of those bytes: it is read alone, or
with another key's escape sequence after it -- with text after it in the same read only
when the app fell behind the typist (then it is taken for Esc + letter: the rare loss);
Esc merged with typing always has text after it. So one of these sequences whose last
character is followed in the same read by a printable character is not looked up in the
table (:class:`EscapeAwareParser`): the parser reads on, as after any ESC + letter, and
makes alt+f, "o", "l"... of it. Alone at the end of a read it stays ctrl+right. "ESC O" with an
upper-case letter (F1-F4, Home/End, application-mode arrows) is left alone: F2 opens the
Memory box and typing follows it, in the same read when the app is busy.

ESC + a digit, "-" or "=" is a macOS Option character in the table (ESC 2 is "™"), and ESC +
a space or other punctuation is read as that character alone: the Esc vanished either way,
and in Settings, Esc and "2 cats?" typed at once saved ``model = "™ cats?"``. Such a
sequence with text typed right after it is an Esc key, then the character
(:data:`TYPED_AFTER_ESC`): an Esc, not alt+<digit>, since alt+1..3 are the pane keys. The
characters that open a terminal's own sequences ("[", "]", "P", "X", "^", "_", "\\") are
not among them: a reply the terminal sends must never read as Esc.

ESC + a ctrl+letter byte was that ctrl key alone (Textual drops the alt of alt+ctrl+r): Esc and
ctrl+r pressed one after the other -- stop the reply, ask again -- read at once lost the Esc, and
the chat said "A reply is still streaming: Esc stops it" to someone who had just pressed it. It is
an Esc key, then the ctrl key (:data:`ESC_THEN_CTRL`; the app binds no alt+ctrl key). Tab, Enter,
Backspace and ctrl+h are left as they were (ESC + Backspace is Option+Backspace, delete a word).

Textual's driver builds its parser in its input thread from ``linux_driver.XTermParser``;
:func:`install` points that name at :class:`EscapeAwareParser`, and does nothing when
Textual's internals are no longer as written for (pyproject pins its minor version; a
test checks the hook is in place).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from textual import events
from textual._ansi_sequences import ANSI_SEQUENCES_KEYS
from textual._xterm_parser import XTermParser
from textual.message import Message

# "\x1bf", "\x1bb" (Option+Right/Left) and "\x1bO" + a lowercase letter (rxvt ctrl+arrows,
# application keypad): table keys that Esc followed by typing also makes
MERGEABLE: frozenset[str] = frozenset(
    ({"\x1bf", "\x1bb"} & ANSI_SEQUENCES_KEYS.keys())
    | {key for key in ANSI_SEQUENCES_KEYS if len(key) == 3 and key.startswith("\x1bO") and key[2].islower()}
)
# ESC + a digit, "-", "=" (macOS Option characters in the table), a space or punctuation (read as
# that character alone): with text after them, an Esc key and then the character as typed
_SEQUENCE_OPENERS = frozenset("[]PX^_\\O")
TYPED_AFTER_ESC: frozenset[str] = frozenset(
    "\x1b" + c
    for c in "0123456789 !\"#$%&'()*+,-./:;<=>?@{|}~`"
    if c not in _SEQUENCE_OPENERS and not isinstance(ANSI_SEQUENCES_KEYS.get("\x1b" + c), tuple)
)
# ctrl+a .. ctrl+z as bytes, without Backspace (ctrl+h), Tab (ctrl+i), Enter (ctrl+j, ctrl+m): after an
# ESC, an Esc key and then the ctrl key
ESC_THEN_CTRL: frozenset[str] = frozenset(chr(code) for code in range(1, 27)) - {"\x08", "\t", "\n", "\r"}
_WATCHED = MERGEABLE | TYPED_AFTER_ESC
_MERGEABLE_RE = re.compile("|".join(re.escape(key) for key in sorted(_WATCHED, key=len, reverse=True)))
_TAIL = max(map(len, _WATCHED), default=1) - 1  # of the previous read: an Esc, or Esc and "O"


def typed_on_at(data: str, before: str = "") -> list[int]:
    """Where in ``data`` (one read) a :data:`MERGEABLE` or :data:`TYPED_AFTER_ESC` sequence ends
    with a printable character read right after it: the index of its last character. ``before``:
    the previous read (an Esc at its end, the letter at the start of this one)."""
    tail = before[max(0, len(before) - _TAIL) :]
    text = tail + data
    ends = []
    for match in _MERGEABLE_RE.finditer(text):
        last = match.end() - 1
        if last >= len(tail) and match.end() < len(text) and text[match.end()].isprintable():
            ends.append(last - len(tail))
    return ends


class EscapeAwareParser(XTermParser):
    """Textual's parser, but a :data:`MERGEABLE` sequence with text typed right after it in the
    same read is not a key: the parser reads on, as after any other ESC + letter."""

    def __init__(self, debug: bool = False) -> None:
        self._typed_on = False  # set while the one character ending such a sequence is fed
        self._previous = ""
        super().__init__(debug)

    def feed(self, data: str) -> Iterable[Message]:
        if not data:  # the end
            return super().feed(data)
        ends = typed_on_at(data, self._previous)
        self._previous = data
        return self._feed_pieces(data, ends) if ends else super().feed(data)

    def _feed_pieces(self, data: str, ends: list[int]) -> Iterator[Message]:
        # Textual's parser takes a read one character at a time: feeding it in pieces is the same
        start = 0
        for end in ends:
            if end > start:
                yield from super().feed(data[start:end])
            self._typed_on = True
            try:
                yield from super().feed(data[end])
            finally:
                self._typed_on = False
            start = end + 1
        if start < len(data):
            yield from super().feed(data[start:])

    def _sequence_to_key_events(self, sequence: str, alt: bool = False) -> Iterable[events.Key]:
        # only the lookup of one of these sequences is skipped: a character marked in a read that
        # is not the end of such a sequence (its ESC was in a paste) changes nothing
        if self._typed_on and sequence in MERGEABLE:
            return ()
        if self._typed_on and sequence in TYPED_AFTER_ESC:
            return [events.Key("escape", "\x1b"), *super()._sequence_to_key_events(sequence[1])]
        if alt and sequence in ESC_THEN_CTRL:
            return [events.Key("escape", "\x1b"), *super()._sequence_to_key_events(sequence)]
        return super()._sequence_to_key_events(sequence, alt)


def install() -> bool:
    """Have Textual's terminal driver read keys with :class:`EscapeAwareParser`. False, and
    nothing changed, when the driver cannot be imported here (Windows) or no longer builds
    its parser from that name."""
    try:
        from textual.drivers import linux_driver
    except ImportError:
        return False
    if getattr(linux_driver, "XTermParser", None) is XTermParser:
        linux_driver.XTermParser = EscapeAwareParser  # type: ignore[misc]
    return getattr(linux_driver, "XTermParser", None) is EscapeAwareParser
