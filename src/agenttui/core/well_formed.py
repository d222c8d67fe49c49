"""Text that can be written as UTF-8: no lone UTF-16 surrogates.

JSON may spell a character as a ``\\ud83d\\ude00`` escape pair, and a producer that
cuts text by UTF-16 units (a JavaScript proxy splitting a stream, a truncated
export, a hand edit) leaves half of a pair: ``json.loads`` then gives a ``str``
with a surrogate code point, which Python holds but cannot encode as UTF-8.
SQLite and every file write would fail on it -- a reply lost, a turn that never
ends, a memory file no write can save -- so text from the wire and from files
is made well-formed where it is stored: the two halves of a pair that arrived
apart (two stream chunks joined) become the one character they spell, and a
half with no partner becomes U+FFFD, the replacement character.
"""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def has_surrogates(text: str) -> bool:
    """Whether ``text`` holds a surrogate code point (cheap for ASCII text)."""
    return not text.isascii() and _SURROGATE.search(text) is not None


def well_formed(text: str) -> str:
    """``text`` with surrogate pairs joined and lone surrogates replaced by U+FFFD."""
    if not has_surrogates(text):
        return text
    # UTF-16 round trip: a high + low pair decodes to its character, a lone half to U+FFFD
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
