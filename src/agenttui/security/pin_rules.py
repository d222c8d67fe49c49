"""PINs and "login: who / password" lines, in English and Indonesian.

- a PIN: the word ``pin`` (also ``bank_pin``, ``m-pin``, ``PIN-nya``), up to
  four words of its context ("ATM saya", "my debit card", "BCA", "is",
  "adalah") and then 4-8 digits standing alone: "PIN ATM saya 936465",
  ``bank_pin = 4821``, "my card PIN is 4567". The digits are the secret.
  "pinned 14 notes", "pin the tweet", "the PIN must be 6 digits" and "PIN
  pad model 2000X" stay (no word boundary, no 4-8 digit run after a known
  context word);
- a login line: ``login``/``akun``/``account``/``masuk`` then a user (an
  e-mail or a user name) and, after ``/``, ``|`` or a comma, a chosen
  password (letters with digits or symbols, 6-128 characters): "login:
  nadia@gmail.com / Sup3rS3cret!". The password is the secret, the user name
  is kept. "login / logout buttons" stays (no chosen value).

Both are context rules (priority ``CONTEXT``) gated by their keyword in the
redaction's single keyword pass, so text without "pin" or "login" pays nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Set

from .anchor_positions import scan
from .anchored import AnchoredPattern
from .secret_patterns import CONTEXT

Candidate = tuple[int, int, str, int]

# Words that sit between "PIN" and its digits. A closed list: "PIN pad model
# 2000" or "pin 3 photos" must not pass (any word would let them).
_PIN_FILLER = (
    r"(?:atm|saya|aku|gue|gua|ku|my|our|the|card|kartu|debit|kredit|credit|bank|bca|bri|bni|mandiri|"
    r"btn|cimb|jenius|is|adalah|code|kode|number|nomor|no|baru|new|lama|old|phone|hp|sim|buat|untuk|"
    r"for|itu|ini|yaitu|e-?banking|m-?banking|mobile|banking|dana|ovo|gopay|brimo|livin)"
)
_PIN = re.compile(
    rf"""pin(?:-?nya|ku)?(?![a-z0-9])
    (?:[ \t]{{0,3}}+(?:[:=]|->)?[ \t]{{0,3}}+{_PIN_FILLER}(?![a-z0-9])){{0,4}}+
    [ \t]{{0,3}}+(?:[:=]|->|\bis\b)?[ \t"']{{0,3}}+
    (?P<value>[0-9]{{4,8}}+)(?![0-9a-z])
    """,
    re.VERBOSE,
)
# A key name ending in _pin / -pin / .pin ("bank_pin = 4821", "ATM_PIN: 1234").
# Both are led by the literal "pin" (so `re` finds candidates with its prefix
# scan, not a match attempt at every letter): what precedes it is checked by a
# lookbehind placed after the literal (one placed first costs a match attempt
# at every position, ~20 ms/MB), or in `find_pins`.
_PIN_KEY = re.compile(
    r"pin(?<=[a-z0-9][_.-]pin)(?![a-z0-9])[ \t]{0,3}+[:=][ \t\"']{0,3}+(?P<value>[0-9]{4,8}+)(?![0-9a-z])"
)

_USER = r"(?:[a-z0-9._%+-]{1,64}@[a-z0-9.-]{1,253}\.[a-z]{2,24}|[a-z0-9._-]{3,64})"
# One literal-led regex per anchor (`anchored`): a leading alternation (or a
# leading lookbehind) costs a match attempt at every a/l/m of the text.
_LOGIN = AnchoredPattern(
    {w: f"(?<![a-z0-9]{re.escape(w)})" for w in ("login", "log in", "log-in", "akun", "account", "masuk")},
    rf"""(?![a-z0-9])
    (?:[ \t]{{1,3}}+[a-z]{{1,12}}){{0,2}}+      # "login gmail", "akun bank saya"
    [ \t]{{0,3}}+[:=][ \t]{{0,3}}+
    {_USER}[ \t]{{0,3}}+[/|,][ \t]{{0,3}}+
    (?P<value>[^\s]{{6,128}}+)
    """,
    re.VERBOSE,
)


def _word_start(lowered: str, at: int) -> bool:
    """`pin` at `at` starts a word, or follows a word-initial `m`/`m-` (m-PIN)."""
    before = lowered[max(0, at - 3) : at]
    if not before or not before[-1].isalnum():
        return True
    for prefix in ("m", "m-"):
        if before.endswith(prefix):
            lead = before[: len(before) - len(prefix)]
            if at - len(prefix) == 0 or (lead and not lead[-1].isalnum()):
                return True
    return False


def find_pins(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    """`present`: the keyword pass's needles, if known (with "pin"'s starts, if located:
    both regexes start with it)."""
    for m in scan(_PIN, lowered, ("pin",), present):
        if _word_start(lowered, m.start()):
            yield *m.span("value"), "pin", CONTEXT
    for m in scan(_PIN_KEY, lowered, ("pin",), present):
        yield *m.span("value"), "pin", CONTEXT


def _chosen(value: str) -> bool:
    """A password someone picked: letters with a digit or a symbol, not a path or a word list."""
    has_alpha = any(c.isalpha() for c in value)
    has_other = any(c.isdigit() or not c.isalnum() for c in value)
    return has_alpha and has_other and "://" not in value and not value.startswith(("/", "~"))


def find_login_lines(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    for m in _LOGIN.finditer(lowered, present):
        start, end = m.span("value")
        value = text[start:end].rstrip(".,;)\"'`")
        if _chosen(value):
            yield start, start + len(value), "password", CONTEXT


PIN_FINDERS = (find_pins, find_login_lines)
