"""agenttui's own rules for secrets written in chat prose, with their context.

- a password after its word with no verb: "kata sandi saya P", "use password
  P to log in", "pw: P", "passwordnya P". Without a verb or a colon the
  value must look chosen (letters and digits, or a symbol; ≥ 6 characters),
  so "password manager" or "kata sandi minimal 8 karakter" stay;
- a bare AWS secret access key (40 base64 characters) up to 200 characters
  after an access key id (`AKIA…`/`ASIA…`), or after "aws"/"secret (access)
  key" in prose;
- a 64-hex private key (optionally 0x) up to 100 characters after "wallet",
  "private key", "privkey", "kunci privat/pribadi" or "seed".
Entropy is used only in these contexts (entropy alone flags hashes, ids and
base64 data in ordinary text): a random-looking 40-character string alone is not redacted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Set

from .anchored import AnchoredPattern
from .secret_patterns import CONTEXT
from .values import char_classes, is_code_reference, is_dial_in_code, is_placeholder, shannon_entropy

Candidate = tuple[int, int, str, int]

# Up to three of these words between the keyword and the value ("kata sandi
# saya P", "password baru: P"); not any word, or "Failed password for invalid
# user nagios1" would give "nagios1". Possessive: a miss costs a few steps in
# C. The value must hold a digit (checked in the regex, so ordinary words
# after "password" never reach Python).
_FILLER = r"(?:saya|aku|gue|gua|ane|ku|my|our|new|baru|lama|wifi|nya|adalah|itu|is|was|yang|skrg|sekarang|now)"
_SEP = r"(?:[ \t]{0,3}+(?:[:=]|->)[ \t]{0,3}+|[ \t]{1,3}+)"
_PROSE_PW = AnchoredPattern(
    {"pw": "d?", "pass": "word|wd|code|phrase", "sandi": ""},
    rf"""
    (?P<kw_end>)(?:nya|ku)?(?![a-z0-9_-])
    (?:{_SEP}{_FILLER}(?![^\s:=])){{0,3}}+
    (?P<sep>{_SEP})
    (?P<value>(?=[^\s]{{0,127}}[0-9])[^\s]{{6,128}}+)
    """,
    re.VERBOSE,
)
_TRAILING = ".,;:!?)\"'`"


def _chosen(value: str, explicit: bool) -> bool:
    """Letters and digits (`hunter22`, `Xk9#…`); after `pw:`/`password=`, digits alone too."""
    has_digit = any(c.isdigit() for c in value)
    if any(c.isalpha() for c in value):
        return has_digit and not any(c in "<>" for c in value)  # not markup
    return explicit and has_digit and not any(c in "/:.-" for c in value)  # not a date or time


def find_prose_passwords(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    for m in _PROSE_PW.finditer(lowered, present):
        if m.start() and lowered[m.start() - 1].isalpha():
            continue  # "spw", "bypass", "compass"
        vstart, vend = m.span("value")
        raw = text[vstart:vend]
        value = raw.rstrip(_TRAILING).lstrip("\"'(`")
        vstart += len(raw) - len(raw.lstrip("\"'(`"))
        vend = vstart + len(value)
        if len(value) < 6 or is_placeholder(value) or is_code_reference(value):
            continue
        if "://" in value or value.startswith(("/", "~", "-", "[REDACTED")):
            continue
        if lowered.startswith("passcode", m.end("kw_end") - 8) and is_dial_in_code(text, m.start(), value):
            continue  # a conference call's access code under its number
        explicit = m.start("sep") == m.end("kw_end") and any(c in m.group("sep") for c in ":=>")
        if _chosen(value, explicit):
            yield vstart, vend, "password", CONTEXT


# --- AWS secret access keys by context --------------------------------------------

# (needle in the lowered text, regex): the keyword pass knows whether each prefix occurs.
_AWS_IDS = tuple(
    (p.lower(), re.compile(rf"{p}(?<![A-Za-z0-9]{p})[A-Z2-7]{{16}}(?![A-Za-z0-9])")) for p in ("AKIA", "ASIA")
)
AWS_ID_NEEDLES = tuple(n for n, _ in _AWS_IDS)
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_AWS_WORDS = AnchoredPattern({"aws": "", "secret": "[ _-]?(?:access[ _-]?)?key"}, "")


def _aws_secret_ok(value: str) -> bool:
    return char_classes(value) >= 3 and shannon_entropy(value) >= 4.0 and not is_placeholder(value)


def find_aws_secrets(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    """`present`: the needles that occur in `lowered`, if known (`AWS_ID_NEEDLES` and
    `_AWS_WORDS`' anchors): a literal scan costs ~1 ms/MB even when it finds nothing,
    and the gate opens on any of them ("aws" in "laws")."""
    ids = (rx for n, rx in _AWS_IDS if present is None or n in present)
    for m in (m for rx in ids for m in rx.finditer(text)):
        end = m.end()
        s = _AWS_SECRET.search(text, end, end + 200)
        if s and _aws_secret_ok(s.group()):
            yield *s.span(), "aws_secret_key", CONTEXT
    for m in _AWS_WORDS.finditer(lowered, present):
        if m.start() and lowered[m.start() - 1].isalpha():
            continue  # "laws", "draws"
        end = _AWS_WORDS.end(m)
        s = _AWS_SECRET.search(text, end, end + 100)
        if s and _aws_secret_ok(s.group()):
            yield *s.span(), "aws_secret_key", CONTEXT


# --- 64-hex wallet keys by context --------------------------------------------------

_WALLET_WORDS = AnchoredPattern(
    {"wallet": "", "priv": "ate[ _-]?key|key|[ _-]key", "kunci ": "privat|pribadi", "dompet": "", "seed": ""}, ""
)
_HEX64 = re.compile(r"(?<![0-9A-Za-z])(?:0x)?[0-9a-fA-F]{64}(?![0-9A-Za-z])")


def find_wallet_hex_keys(text: str, lowered: str, present: Set[str] | None = None) -> Iterator[Candidate]:
    """`present`: the anchors that occur in `lowered`, if known ("priv" opens the gate
    on most code; the other four anchors' scans are then skipped)."""
    for m in _WALLET_WORDS.finditer(lowered, present):
        end = _WALLET_WORDS.end(m)
        h = _HEX64.search(text, end, end + 100)
        if h and len(set(h.group().lower().removeprefix("0x"))) >= 8:
            yield *h.span(), "crypto_private_key", CONTEXT


PROSE_FINDERS = (find_prose_passwords, find_aws_secrets, find_wallet_hex_keys)
