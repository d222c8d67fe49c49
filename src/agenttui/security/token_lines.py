"""Tokens alone on their lines, with no key or prefix to name them.

A pasted `tokens.txt`, a list of API keys, a secret copied into a note:
each line is one random-looking token and nothing else. A line is taken
when it is one run of token characters (20–256 of them) that looks
generated (`values.looks_random`: high entropy), holds a digit, an upper-
and a lower-case letter (hex digests, UUIDs and words do not) and switches
between them often (identifiers in CamelCase switch once a word). Lines of
a base64 block (a certificate, a public key, an embedded image: long
neighbours of the same length) are left alone: their secret parts, if any,
are found by the private-key rules. Nor is base64 of ordinary text
(`printf 'hello world' | base64`): it decodes to words, and is taken only
if those words hold a secret.

The scan is led by the newline (a literal, so `re` finds candidates with
its prefix scan); the first line of the text is checked on its own.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator, Mapping, Sequence
from operator import ne

from .secret_patterns import GENERIC
from .values import ascii_classes, looks_random

Candidate = tuple[int, int, str, int]

_CHARS = r"[A-Za-z0-9+/=_.~-]"
_LINE = re.compile(rf"\n[ \t]{{0,8}}+({_CHARS}{{20,256}}+)[ \t]{{0,8}}+(?=\r?\n|\Z)")
_FIRST = re.compile(rf"[ \t]{{0,8}}+({_CHARS}{{20,256}}+)[ \t]{{0,8}}+(?=\r?\n|\Z)")


def _line_length(text: str, start: int) -> int:
    end = text.find("\n", start)
    return (len(text) if end < 0 else end) - start


# Only ever matched at a line's start; the lookbehind and the possessive run keep it
# linear even if searched over a long blob (else each position rescans the rest).
_BLOCK_LINE = re.compile(r"-----|(?<![A-Za-z0-9+/=])[A-Za-z0-9+/=]{60,}+\r?$")


def _in_block(text: str, start: int, end: int) -> bool:
    """Part of a base64 block (PEM and MIME wrap at 64 or 76): a neighbour line is a
    full-width base64 line or a `-----BEGIN/END` line. A list of tokens also shares
    one length, so equal length alone says nothing."""
    if start > 0:
        prev = text.rfind("\n", 0, start - 1) + 1
        if _BLOCK_LINE.match(text, prev, start - 1):
            return True
    after = text.find("\n", end)
    if after >= 0:
        nxt_end = text.find("\n", after + 1)
        if _BLOCK_LINE.match(text, after + 1, len(text) if nxt_end < 0 else nxt_end):
            return True
    return False


# Paths, and extended public keys (BIP32 xpub/ypub/zpub/tpub): public by design.
_NOT_SECRET = ("http", "/", ".", "xpub", "ypub", "zpub", "tpub", "upub", "vpub", "Ypub", "Zpub")


# A Bitcoin address (base58, P2PKH/P2SH): public, and pasted alone to be paid.
# A WIF-shaped string: the wallet rule decides by its checksum.
_ADDRESS = re.compile(r"[13][1-9A-HJ-NP-Za-km-z]{25,34}|[5KLc9][1-9A-HJ-NP-Za-km-z]{50,51}")


def _class(c: str) -> int:
    return 0 if c.isdigit() else 1 if c.isupper() else 2 if c.islower() else 3


def _taken(value: str) -> bool:
    """Generated, not a name: a random token switches between digits, upper and
    lower case every two characters or so; `SomeCamelCaseName2` once a word."""
    if value.startswith(_NOT_SECRET) or "=" in value.rstrip("="):
        return False  # (`X=ghp_…` is an assignment: its own rules know the key)
    # The classes before the entropy: a C pass, and on secret-dense text a third of
    # the lines left here lack one of them.
    if value.isascii():  # the same classes, in C (`_class` per character is slow on dense text)
        classes: Sequence[object] = ascii_classes(value)
        if b"d" not in classes or b"u" not in classes or b"l" not in classes:
            return False
    else:
        classes = [_class(c) for c in value]
        if not {0, 1, 2} <= set(classes):
            return False
    if not looks_random(value, min_len=20) or _ADDRESS.fullmatch(value):
        return False
    switches = sum(map(ne, classes, classes[1:]))
    return switches >= len(value) * 0.5 and not _encoded_words(value)


def _decoded_words(value: str) -> str | None:
    """The text `value` is the base64 of, when that is words (printable, spaced,
    mostly letters); None for anything else. A generated token decodes to random
    bytes, almost never valid UTF-8 text, let alone spaced words."""
    core = value.rstrip("=")
    if len(core) % 4 == 1:
        return None
    alt = b"-_" if ("-" in core or "_" in core) else None
    try:
        text = base64.b64decode(core + "=" * (-len(core) % 4), altchars=alt, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):  # UnicodeDecodeError is a ValueError
        return None
    if " " not in text.strip() or not all(c.isprintable() or c in "\t\r\n" for c in text):
        return None
    return text if sum(c.isalpha() for c in text) >= len(text) / 2 else None


def _encoded_words(value: str) -> bool:
    """Base64 of ordinary text that holds no secret: command output, not a token."""
    words = _decoded_words(value)
    if words is None:
        return False
    # Imported here: redaction imports this module for its rule list.
    from .redaction import contains_secret

    return not contains_secret(words)


def find_token_lines(text: str, lowered: str, outranked: Mapping[int, int] | None = None) -> Iterator[Candidate]:
    """`outranked`: `outranked.outranking_ends` of the candidates found so far above GENERIC,
    if known: a line there is not judged (it would change nothing redacted)."""
    first = _FIRST.match(text)
    matches = [first] if first else []
    ends = outranked or {}
    for m in (*matches, *_LINE.finditer(text)):
        start, end = m.span(1)
        if ends and ends.get(start, -1) >= end:
            continue
        if _taken(text[start:end]) and not _in_block(
            text, text.rfind("\n", 0, start) + 1, start + _line_length(text, start)
        ):
            yield start, end, "token", GENERIC
