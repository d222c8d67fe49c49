"""Text views for injection screening: undo the usual obfuscations.

An attacker hides "ignore previous instructions" with full-width letters
(NFKC), zero-width or bidi characters, Cyrillic look-alikes, leetspeak,
punctuation between words, or spaced-out letters. Each view undoes some of
these; phrase patterns run on every view. Views are separate (rather than one
maximally folded string) because folding is lossy: leetspeak folding would
garble Cyrillic text that is matched by the Russian patterns, and digits
matter for role markers.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

# Zero-width and bidi controls (and the invisible "tag" block used for ASCII
# smuggling). Their presence is itself a signal; see `hidden_characters`.
_ZERO_WIDTH = "\u200b\u200c\u200d\u200e\u200f\u061c\u2060\ufeff\u180e\u2061\u2062\u2063\u2064"
_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_INVISIBLE = frozenset(_ZERO_WIDTH + _BIDI)
_TAG_RANGE = range(0xE0000, 0xE0080)
_STRIP_INVISIBLE = {ord(c): None for c in _INVISIBLE} | {c: None for c in _TAG_RANGE}
# ZWJ/ZWNJ are legitimate inside emoji sequences and Indic/Arabic scripts.
_JOINERS = "\u200c\u200d"
# LRM, RLM and ALM are how Hebrew, Arabic and Persian writers place a number, a Latin word
# or punctuation in a right-to-left sentence (keyboards type them): legitimate in a text
# that has right-to-left letters. They are marks, not overrides: they cannot reorder text
# the way U+202E or U+2067 can, which stay a signal everywhere. Views strip them for matching.
_DIRECTION_MARKS = frozenset("\u200e\u200f\u061c")

# Look-alikes that NFKC leaves alone (Cyrillic, Greek) → Latin.
_HOMOGLYPHS = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h",
        "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "і": "i",
        "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ɡ": "g", "һ": "h", "ӏ": "l",
        "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "ℓ": "l",
    }
)
_LEET_I = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i", "|": "l", "8": "b", "9": "g"})  # noqa: E501 -- one regex or table row per line
_LEET_L = str.maketrans({"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i", "|": "l", "8": "b", "9": "g"})  # noqa: E501 -- one regex or table row per line

_NON_WORD = re.compile(r"[\W_]+")
# ≥3 single-character tokens in a row: "i g n o r e", "i.g.n.o.r.e".
_SPACED = re.compile(r"(?<!\w)\w(?: \w(?!\w)){2,}+")


# Zero-width space, BOM and word joiner: copy-paste leftovers when they touch a space.
_PASTE_ARTEFACTS = frozenset("\u200b\ufeff\u2060")


_INVISIBLE_RUN = re.compile("[" + "".join(sorted(_INVISIBLE)) + "]+")


def _runs_beside_spaces(text: str) -> set[int]:
    """Indices of invisibles whose run touches whitespace or an end of the text (one pass)."""
    out: set[int] = set()
    for m in _INVISIBLE_RUN.finditer(text):
        a, b = m.span()
        if a == 0 or b == len(text) or text[a - 1].isspace() or text[b].isspace():
            out.update(range(a, b))
    return out


def hidden_characters(text: str) -> list[str]:
    """Names of invisible/bidi characters that have no legitimate role here."""
    found: set[str] = set()
    beside_spaces = _runs_beside_spaces(text)
    marks_belong = _has_right_to_left_letters(text)
    for i, ch in enumerate(text):
        if ch in _INVISIBLE:
            if marks_belong and ch in _DIRECTION_MARKS:
                continue
            if ch in _JOINERS and 0 < i < len(text) - 1:
                prev, nxt = text[i - 1], text[i + 1]
                if ord(prev) > 0x2FF and ord(nxt) > 0x2FF:
                    continue  # 👨‍👩‍👧, Persian/Indic shaping
            if ch in _PASTE_ARTEFACTS and i in beside_spaces:
                # "the area of \u200b\u200bIT": web pages leave these next to spaces; one
                # inside a word ("ig\u200bnore") still counts (views strip them for matching).
                continue
            found.add(unicodedata.name(ch, f"U+{ord(ch):04X}"))
        elif ord(ch) in _TAG_RANGE:
            found.add("TAG CHARACTER")
    return sorted(found)


def _has_right_to_left_letters(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in ("R", "AL") and ch not in _DIRECTION_MARKS  # RLM is "R" too
               for ch in text if ord(ch) >= 0x590)


_HIDDEN_CANDIDATE = re.compile(f"[{_ZERO_WIDTH}{_BIDI}\U000e0000-\U000e007f]")
_TAG_CHARS = re.compile("[\U000e0020-\U000e007e]+")


def has_hidden_candidates(text: str) -> bool:
    """Cheap pre-check so `hidden_characters` only walks suspicious texts."""
    return not text.isascii() and _HIDDEN_CANDIDATE.search(text) is not None


def decode_tag_characters(text: str) -> str:
    """ASCII smuggled in the Unicode tag block (U+E0020..U+E007E)."""
    if text.isascii():
        return ""
    return "".join(chr(ord(c) - 0xE0000) for run in _TAG_CHARS.findall(text) for c in run)


def plain_view(text: str) -> str:
    """NFKC, invisibles removed, casefolded, whitespace collapsed."""
    if not text.isascii():  # for ASCII, NFKC is the identity and casefold is lower
        text = unicodedata.normalize("NFKC", text).translate(_STRIP_INVISIBLE)
    # str.split() splits on exactly the characters `\s` matches.
    return " ".join(text.casefold().split())


def ascii_table(mapping: Mapping[int, str | int] | None = None, spaces: str = "") -> bytes:
    """A bytes.translate table: `mapping` (an str.maketrans dict of ASCII), then
    every char in `spaces` (or, for "\\W_", every non-alphanumeric) → space.

    For ASCII text, bytes.translate is ~8x faster than str.translate with a
    dict, and these run on every view of every note.
    """
    out = bytearray(range(256))
    for code in range(128):
        ch = chr(code)
        if mapping and code in mapping:
            mapped = mapping[code]
            ch = chr(mapped) if isinstance(mapped, int) else mapped
        if ch in spaces or (spaces == "\\W_" and not ch.isalnum()):
            ch = " "
        out[code] = ord(ch)
    return bytes(out)


def ascii_translate(text: str, table: bytes) -> str:
    return text.encode("ascii").translate(table).decode("ascii")


_B_NON_WORD = ascii_table(spaces="\\W_")


def word_view(plain: str) -> str:
    """Punctuation and underscores become single spaces."""
    if plain.isascii():
        return " ".join(ascii_translate(plain, _B_NON_WORD).split())
    return _NON_WORD.sub(" ", plain).strip()


def despace(words: str) -> tuple[str, list[str]]:
    """Squash spaced-out letters; return the view and the squashed runs."""
    runs: list[str] = []

    def squash(m: re.Match[str]) -> str:
        runs.append(m.group().replace(" ", ""))
        return runs[-1]

    return _SPACED.sub(squash, words), runs


def folded_views(plain: str) -> list[str]:
    """Word views after homoglyph + leetspeak folding (1→i and 1→l variants)."""
    if plain.isascii():
        if not _HAS_LEET.search(plain):
            return [word_view(plain)]  # folding is the identity
        views = [" ".join(ascii_translate(plain, _B_LEET_I_WORD).split())]
        if "1" in plain or "|" in plain:
            views.append(" ".join(ascii_translate(plain, _B_LEET_L_WORD).split()))
        return views
    base = plain.translate(_HOMOGLYPHS)
    views = [word_view(base.translate(_LEET_I))]
    if "1" in base or "|" in base:
        views.append(word_view(base.translate(_LEET_L)))
    return views


_JOINED = re.compile(r"(?<=[\w:])[-_.]+(?=\w)")
# Leetspeak for plain views: no '|' or '!' (pipes and punctuation matter there).
_LEET_PLAIN = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"})
_SPACED_PLAIN = re.compile(r"(?<!\w)\w(?: \w(?!\w)){2,}+")
# Texts without these characters are left alone by the leetspeak tables.
_HAS_LEET = re.compile("[" + re.escape("".join(map(chr, _LEET_I))) + "]")
_HAS_JOINER = re.compile("[-_.]")
_HAS_LEET_PLAIN = re.compile("[" + re.escape("".join(map(chr, _LEET_PLAIN))) + "]")


_B_LEET_I_WORD = ascii_table(_LEET_I, "\\W_")
_B_LEET_L_WORD = ascii_table(_LEET_L, "\\W_")
_B_LEET_PLAIN = ascii_table(_LEET_PLAIN)


def _leet_plain(text: str) -> str:
    return ascii_translate(text, _B_LEET_PLAIN) if text.isascii() else text.translate(_LEET_PLAIN)


def _squash(m: re.Match[str]) -> str:
    return m.group().replace(" ", "")


def plain_variants(plain: str) -> list[str]:
    """Plain-level views (punctuation kept) for marker/exfiltration rules."""
    folded = plain if plain.isascii() else plain.translate(_HOMOGLYPHS)
    candidates = [
        plain,
        folded,
        _leet_plain(folded) if _HAS_LEET_PLAIN.search(folded) else folded,
        _SPACED_PLAIN.sub(_squash, folded),
        _JOINED.sub(" ", folded) if _HAS_JOINER.search(folded) else folded,
    ]
    out: list[str] = []
    for v in candidates:
        if v not in out:
            out.append(v)
    return out


def all_views(text: str) -> tuple[str, list[str], list[str]]:
    """(plain view, distinct word-level views, squashed spaced-out runs)."""
    plain = plain_view(text)
    candidates = [word_view(plain), *folded_views(plain)]
    views: list[str] = []
    runs: list[str] = []
    spaced = _SPACED.search("\n".join(candidates)) is not None  # one pass, usually no
    for v in candidates:
        despaced, squashed = despace(v) if spaced else (v, ())
        for item in (v, despaced):
            if item and item not in views:
                views.append(item)
        runs.extend(r for r in squashed if r not in runs)
    return plain, views, runs


# Characters that make a cheap word inventory inexact: leetspeak symbols that
# join words.
_INEXACT = re.compile(r"[@$!|]")
_THREE_SINGLES = re.compile(r" \w \w \w ")
_B_RUN_SEP = ascii_table(spaces="".join(c for c in map(chr, range(128)) if not (c.isalnum() or c == "_")))
_B_LEET_I = ascii_table(_LEET_I)
_B_LEET_L = ascii_table(_LEET_L)
_B_ROT13 = ascii_table(str.maketrans(
    "abcdefghijklmnopqrstuvwxyz", "nopqrstuvwxyzabcdefghijklm"
))


def cheap_words(plain: str) -> tuple[set[str], str] | None:
    """A superset of the words (`\\w+` runs) in every view that `all_views`
    and `plain_variants` make of `plain`, without building them, and the word
    views with spaces removed. None when that shortcut is not exact enough:
    non-ASCII text, "@$!|", or spaced-out letters.

    Why it holds for the rest: the word view's words are the plain view's;
    leetspeak maps digits to letters in place (`_LEET_*` on the words); the
    joined view only splits at '-' and '.', which end words anyway; squashing
    needs spaced-out letters. For the rot13 and reversed views, see
    `turned_forms`.
    """
    if not plain.isascii() or _INEXACT.search(plain):
        return None
    words = " ".join(ascii_translate(plain, _B_NON_WORD).split())
    if _THREE_SINGLES.search(f" {words} "):  # what `_SPACED` needs, in a word view
        return None
    if "_" in plain:
        # Plain views keep "_" inside words ("custom_key"); the joined view
        # splits there (as the word view does), perhaps keeping an edge "_",
        # which no literal has.
        if _SPACED.search(plain):
            return None
        words += " " + ascii_translate(plain, _B_RUN_SEP)
    if _HAS_LEET.search(words):
        words += " " + " ".join(ascii_translate(words, t) for t in (_B_LEET_I, _B_LEET_L, _B_LEET_PLAIN))
    return set(words.split()), words.replace(" ", "")


def turned_forms(word: str) -> tuple[str, str, str]:
    """What a word of `cheap_words` becomes in the rot13 and reversed views
    (rot13, and leetspeak after rot13, act on each word; so does reversal)."""
    rot = ascii_translate(word, _B_ROT13)
    return rot, ascii_translate(rot, _B_LEET_PLAIN), word[::-1]
