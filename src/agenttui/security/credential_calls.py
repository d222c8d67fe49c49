"""Passwords passed as string literals to .NET credential constructors.

`new NetworkCredential("user", "pw")` (the password is the second argument)
and `new DirectoryEntry("LDAP://…", "user", "pw")` (the third). Each regex is
led by the lowered class name, so ordinary text costs one literal scan (and
none when the keyword pass did not see the name); every part is bounded and
possessive. Values are read back from the original text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .secret_patterns import CONTEXT
from .values import is_placeholder

Candidate = tuple[int, int, str, int]

_GAP = r"[ \t\r\n]{0,40}+"
_ARG = r'"[^"\r\n]{0,512}+"'
_VALUE = r'"(?P<value>[^"\r\n]{1,256}+)"'
_CALLS = (
    re.compile(rf"networkcredential\({_GAP}{_ARG}{_GAP},{_GAP}{_VALUE}"),
    re.compile(rf"directoryentry\({_GAP}{_ARG}{_GAP},{_GAP}{_ARG}{_GAP},{_GAP}{_VALUE}"),
)
NEEDLES = ("networkcredential", "directoryentry")


def find_credential_calls(text: str, lowered: str) -> Iterator[Candidate]:
    for rx in _CALLS:
        for m in rx.finditer(lowered):
            start, end = m.span("value")
            if not is_placeholder(text[start:end]):
                yield start, end, "password", CONTEXT
