"""Passwords passed as string literals to .NET credential constructors.

`new NetworkCredential("user", "pw")` (the password is the second argument),
`new DirectoryEntry("LDAP://…", "user", "pw")` (the third), and PowerShell's
`ConvertTo-SecureString "pw" -AsPlainText -Force` (the literal, before or
after `-AsPlainText`; a `$variable` is no literal, so it is left alone).
Also a secret written as the default of an environment lookup:
`os.getenv("API_TOKEN", "…")`, `os.environ.get('DJANGO_SECRET_KEY', '…')`,
`ENV.fetch("DB_PASSWORD", "…")`, `process.env.JWT_SECRET || "…"` — and an
Android build's `buildConfigField "String", "API_KEY", "\"…\""` (the value is
a Java literal inside a Gradle string), when the name is secret-bearing (the
assignment rules' key classes). Each regex is
led by the lowered class name, so ordinary text costs one literal scan (and
none when the keyword pass did not see the name); every part is bounded and
possessive. Values are read back from the original text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Set

from .anchor_positions import scan
from .context_rules import _classify_key
from .secret_patterns import CONTEXT
from .values import is_placeholder

Candidate = tuple[int, int, str, int]

_GAP = r"[ \t\r\n]{0,40}+"
_ARG = r'"[^"\r\n]{0,512}+"'
_VALUE = r'"(?P<value>[^"\r\n]{1,256}+)"'
_SP = r"[ \t]{1,8}+"
_LITERAL = r"""(?:"(?P<value>[^"\r\n]{1,256}+)"|'(?P<single>[^'\r\n]{1,256}+)')"""
_Q = r"[\"']"
_PS_OPT = rf"(?:-force{_SP}|-string{_SP})"
_CALLS = (
    re.compile(rf"networkcredential\({_GAP}{_ARG}{_GAP},{_GAP}{_VALUE}"),
    re.compile(rf"directoryentry\({_GAP}{_ARG}{_GAP},{_GAP}{_ARG}{_GAP},{_GAP}{_VALUE}"),
    # The literal first, then -AsPlainText; or the switches first, then the literal.
    re.compile(rf"convertto-securestring{_SP}(?:-string{_SP})?{_LITERAL}{_SP}-asplaintext\b"),
    re.compile(rf"convertto-securestring{_SP}-asplaintext{_SP}{_PS_OPT}{{0,2}}+{_LITERAL}"),
)
# Each regex is led by its needle, so `re` scans for that literal alone, and it
# runs only when the keyword pass saw its needle (`present`), or else when the
# needle is in the text: code such as Python's standard library holds
# `getenv(` in places and the others nowhere.
_LOOKUP_TAIL = rf"""{_GAP}{_Q}(?P<key>[a-z0-9_.-]{{1,80}}+){_Q}{_GAP},{_GAP}{_LITERAL}"""
_NAMED_LITERALS = tuple(
    (needle, re.compile(re.escape(needle) + tail))
    for needle, tail in (
        *((fn, _LOOKUP_TAIL) for fn in ("getenv(", "environ.get(", "environ.setdefault(", "env.fetch(", "env.get(")),
        ("process.env.", rf"(?P<key>[a-z0-9_]{{1,80}}+)[ \t]{{0,8}}+(?:\|\||\?\?)[ \t]{{0,8}}+{_LITERAL}"),
        ("buildconfigfield", rf"[ \t]{{0,8}}+\(?{_GAP}{_Q}string{_Q}{_GAP},{_GAP}{_Q}(?P<key>[a-z0-9_]{{1,80}}+){_Q}"
                             rf'{_GAP},{_GAP}{_Q}\\?"(?P<value>[^"\'\\\r\n]{{1,256}}+)\\?"'),
    )
)
_CALL_NEEDLES = ("networkcredential", "directoryentry", "convertto-securestring", "convertto-securestring")
NEEDLES = (*dict.fromkeys(_CALL_NEEDLES), *(n for n, _ in _NAMED_LITERALS))


def _value_span(m: re.Match[str]) -> tuple[int, int]:
    """The span of the literal: `value` (double-quoted), or `single` where the regex has one and it matched."""
    if "single" in m.re.groupindex and m.start("single") >= 0:
        return m.span("single")
    return m.span("value")


def find_credential_calls(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    """`present`: the needles the keyword pass found in `lowered`, if known (each regex
    is led by its needle: tried at its located starts, if the sparse pass has them)."""
    seen = present if present is not None else lowered
    for needle, rx in zip(_CALL_NEEDLES, _CALLS, strict=True):
        if needle not in seen:
            continue
        for m in scan(rx, lowered, (needle,), present):
            start, end = _value_span(m)
            if not is_placeholder(text[start:end]):
                yield start, end, "password", CONTEXT
    for needle, rx in _NAMED_LITERALS:
        if needle not in seen:
            continue
        for m in scan(rx, lowered, (needle,), present):
            verdict = _classify_key(m.group("key"), text[m.start("key") : m.end("key")])
            if verdict is None or not verdict[1]:
                continue  # not a secret's name (`LOG_LEVEL`, `TOKEN_URL`), or a weak one (`KEY`)
            start, end = _value_span(m)
            value = text[start:end]
            if len(value) >= 4 and not is_placeholder(value) and not any(c.isspace() for c in value):
                yield start, end, verdict[0], CONTEXT
