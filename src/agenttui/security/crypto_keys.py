"""Wallet secrets: BIP39 seed phrases, WIF and extended private keys.

Public material (0x… addresses, bc1…/1…/3… addresses, xpub…) is never
matched: WIF keys must pass their base58check checksum with a private-key
version byte, and a seed phrase must be 12, 15, 18, 21 or 24 consecutive words
of the BIP39 English list (shipped as `bip39_english.txt`, 2048 words, from
the BIP39 reference; SHA-256 2f5eed53…dbda) whose checksum holds.

Ordinary words are not a seed phrase: the phrase must be a whole
run of BIP39 words, or begin or end one, and pass the BIP39 checksum (the
first len/3 bits of SHA-256 of the entropy). A 12- or 15-word checksum has
only 4 or 5 bits, so 1 in 16 random word lists passes it; those also need
a hint that they are a seed: a word such as seed/mnemonic/recovery/wallet/
phrase (or Indonesian frasa/kata pemulihan/dompet) up to 120 characters
before, or the phrase standing alone (on its own line(s), as a numbered
list, or in quotes). 18 words and more (6+ checksum bits) need no hint.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from functools import cache
from importlib import resources

from .secret_patterns import PROVIDER

Candidate = tuple[int, int, str, int]

SEED_MIN_WORDS = 12


@cache
def bip39_list() -> tuple[str, ...]:
    data = resources.files(__package__).joinpath("bip39_english.txt").read_text("ascii")
    words = tuple(data.split())
    assert len(words) == 2048 and len(set(words)) == 2048, "bip39_english.txt is damaged"
    return words


@cache
def bip39_words() -> frozenset[str]:
    return frozenset(bip39_list())


@cache
def _bip39_index() -> dict[str, int]:
    return {w: i for i, w in enumerate(bip39_list())}


SEED_LENGTHS = (24, 21, 18, 15, 12)


def bip39_checksum_ok(words: list[str]) -> bool:
    """True when `words` (12–24 BIP39 words) carry a valid BIP39 checksum."""
    n = len(words)
    if n not in SEED_LENGTHS:
        return False
    index = _bip39_index()
    bits = 0
    for w in words:
        bits = (bits << 11) | index[w]
    cs = n // 3  # checksum bits
    entropy = (bits >> cs).to_bytes((n * 11 - cs) // 8, "big")
    return hashlib.sha256(entropy).digest()[0] >> (8 - cs) == bits & ((1 << cs) - 1)


_SEED_HINT = re.compile(
    r"seed|mnemonic|recovery|wallet|phrase|backup|secret|frasa|pemulihan|dompet|kata kunci|12 words|24 words"
)


# Runs of ≥12 short lowercase words; separators may be spaces, commas,
# newlines and list numbers ("1. abandon 2. ability"). Each group turn starts
# with a separator and ends on a word boundary, so the possessive loop is
# unambiguous.
_WORD_RUN = re.compile(
    r"\b[a-z]{3,8}\b(?:[\s,]{1,6}+(?:[0-9]{1,2}[.):]?[ \t]{0,3}+)?[a-z]{3,8}\b){11,}+"
)
_WORD = re.compile(r"[a-z]{3,8}")


def find_seed_phrases(text: str, lowered: str, view: bytes | None = None) -> Iterator[Candidate]:
    """`view`: `ascii_view(text, wide_spaces=True)`, if the caller has it."""
    view = ascii_view(text, wide_spaces=True) if view is None else view
    regions = seed_regions(text, view)
    # One membership pass over all regions at once (joined by a non-word),
    # since ordinary text has thousands of regions and none passes. It reads
    # the byte view: in a region that has the text's letters and spaces.
    if not regions or not _view_may_hold_seed(b" # ".join([view[lo:hi] for lo, hi in regions])):
        return
    for lo, hi in regions:
        if _view_may_hold_seed(view[lo:hi]):
            # hi + 1: the regex must see the breaker after the region, for `\b`.
            yield from _seed_phrases_in(text, lo, min(hi + 1, len(text)))


# --- prefilter: where could 12 seed words in a row be? ---------------------
#
# A seed phrase (`_WORD_RUN`) is ≥12 words of 3–8 ASCII lowercase letters,
# separated by whitespace or commas, each optionally numbered ("1. abandon
# 2) ability"), so it is at least 47 characters long. The prefilter works on
# a one-byte-per-character class view of the text (bytes.translate, replace
# and find are C loops) and marks "breakers", characters no seed phrase can
# span: anything outside that alphabet, and 2-letter words (BIP39 words have
# 3–8 letters; a pass for 1-letter words cost more than it saved, and one for
# words of 9+ letters too: the membership test rejects them as cheaply, and no
# run of seed words holds one). A region is a run of ≥47 non-breakers. The rules
# are lenient where exactness would cost another pass (list punctuation
# counts as a separator anywhere, a digit-glued word as a word), never
# strict, so no seed is lost; the exact regex then runs only in regions
# that pass the membership test. On real English prose ~3-5% of the text
# ends up in regions; code and logs usually have none.

_SEED_CLASSES = bytes(
    ord("a") if 97 <= c <= 122  # a–z
    else ord(" ") if chr(c).isspace() or chr(c) in ",.):0123456789"
    else ord("#")
    for c in range(256)
)
_TO_RUN = bytes.maketrans(b" ", b"a")  # after marking breakers: 'a' = may hold a seed
_SEED_RUN = _SEED_CLASSES.translate(_TO_RUN)  # both tables in one pass
_MIN_SEED_CHARS = SEED_MIN_WORDS * 3 + SEED_MIN_WORDS - 1
_SAMPLE = 4096  # the prefix looked at first for a long lowercase stretch
# Whitespace beyond Latin-1 (U+2000…, U+3000, …): `\s` separates words there.
_WIDE_SPACE = re.compile("[\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
# The same characters, for the test of whether a text holds any: one `in` per
# character (a C scan each) is ~2x faster than a class-led search on wide text.
_WIDE_SPACES = "\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
_WIDE_SPACE_SET = frozenset(_WIDE_SPACES)


def ascii_view(text: str, wide_spaces: bool = False) -> bytes:
    """One byte per character, offsets unchanged, for bytes.translate views.

    ASCII and Latin-1 keep their byte (the tables treat U+0085 and U+00A0 as
    spaces); other characters become '?', or ' ' for wide spaces if asked.
    Encoding with "replace" is a C loop; the wide-space pass (a regex scan)
    runs only when asked and the text has characters beyond Latin-1.
    """
    if text.isascii():
        return text.encode("ascii")
    view = text.encode("latin-1", "replace")
    if wide_spaces:
        # Few marks (code, docs: a dash or an arrow here and there) are looked at
        # one by one; only many are first counted against the text's own '?'s
        # (a count of a 2-byte text costs ~0.7 ms/MB).
        marks = view.count(b"?")
        if marks and (marks <= _FEW_MARKS or marks != text.count("?")) and _has_wide_space(text, view, marks):
            view = _WIDE_SPACE.sub(" ", text).encode("latin-1", "replace")
    return view


_FEW_MARKS = 4096


def _has_wide_space(text: str, view: bytes, marks: int) -> bool:
    """Whether `text` holds a wide space; `view`: its Latin-1 view, with `marks` '?'.

    Every character beyond Latin-1 is a '?' of the view: when those are few
    (code, docs: a dash or an arrow here and there), they are looked at one by
    one, instead of scanning the whole text once per kind of wide space."""
    if marks > _FEW_MARKS:
        return any(c in text for c in _WIDE_SPACES)
    pos = view.find(b"?")
    while pos >= 0:
        if text[pos] in _WIDE_SPACE_SET:
            return True
        pos = view.find(b"?", pos + 1)
    return False


_SEP_TABLE = str.maketrans({c: " " for c in ",.)(:;0123456789"})
_STREAK = b"\x01" * SEED_MIN_WORDS


def _may_hold_seed(text: str) -> bool:
    """Membership pass in C: split, test each word with `map`, look for 12 ones."""
    words = text.translate(_SEP_TABLE).split()
    flags = bytes(map(bip39_words().__contains__, words))
    return _STREAK in flags


# For the byte view of a region: what the class view calls a separator becomes
# b" " (bytes.split splits on ASCII whitespace only), letters stay.
_SEED_WORD_BYTES = bytes(c if 97 <= c <= 122 or _SEED_CLASSES[c] != ord(" ") else ord(" ") for c in range(256))


@cache
def _bip39_bytes() -> frozenset[bytes]:
    return frozenset(w.encode("ascii") for w in bip39_list())


def _view_may_hold_seed(view: bytes) -> bool:
    """`_may_hold_seed` of a region's text, on its byte view (all C passes)."""
    flags = bytes(map(_bip39_bytes().__contains__, view.translate(_SEED_WORD_BYTES).split()))
    return _STREAK in flags


def seed_regions(text: str, view: bytes | None = None) -> list[tuple[int, int]]:
    """Spans of `text` that could hold a seed phrase (see above)."""
    view = ascii_view(text, wide_spaces=True) if view is None else view
    need = b"a" * _MIN_SEED_CHARS
    # Code and logs end here: no long lowercase stretch at all. Prose and docs have
    # one in their first lines, and a stretch in a prefix is one in the text: the
    # whole-text pass (~1.3 ms/MB) would only say so again.
    if view[:_SAMPLE].translate(_SEED_RUN).find(need) < 0 and view.translate(_SEED_RUN).find(need) < 0:
        return []
    classes = view.translate(_SEED_CLASSES).replace(b" aa ", b" ## ")
    view = classes.translate(_TO_RUN)
    regions = []
    pos = view.find(need)
    while pos >= 0:
        end = view.find(b"#", pos + _MIN_SEED_CHARS)
        if end < 0:
            end = len(view)
        # 12 words need 11 separators: prose has many long stretches of short
        # lowercase words, but most sentences are shorter than that.
        if classes.count(b" ", pos, end) >= SEED_MIN_WORDS - 1:
            regions.append((pos, end))
        pos = view.find(need, end)
    return regions


def _seed_phrases_in(text: str, lo: int, hi: int) -> Iterator[Candidate]:
    words = bip39_words()
    for run in _WORD_RUN.finditer(text, lo, hi):
        streak: list[re.Match[str]] = []
        for w in _WORD.finditer(text, run.start(), run.end()):
            if w.group() in words:
                streak.append(w)
                continue
            yield from _checked_phrases(text, streak)
            streak = []
        yield from _checked_phrases(text, streak)


def _checked_phrases(text: str, streak: list[re.Match[str]]) -> Iterator[Candidate]:
    """The seed phrase(s) at the start or end of a run of BIP39 words (see above)."""
    n = len(streak)
    if n < SEED_MIN_WORDS:
        return
    found_end = 0
    for length in SEED_LENGTHS:  # at the start, longest first
        if length <= n and _is_seed(text, streak[:length]):
            yield streak[0].start(), streak[length - 1].end(), "seed_phrase", PROVIDER
            found_end = length
            break
    for length in SEED_LENGTHS:  # at the end
        if length <= n - found_end and _is_seed(text, streak[n - length :]):
            yield streak[n - length].start(), streak[-1].end(), "seed_phrase", PROVIDER
            break


def _is_seed(text: str, ws: list[re.Match[str]]) -> bool:
    if not bip39_checksum_ok([w.group() for w in ws]):
        return False
    return len(ws) >= 18 or _has_seed_hint(text, ws[0].start(), ws[-1].end())


def _has_seed_hint(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 120) : start].lower()
    if _SEED_HINT.search(before):
        return True
    # Standing alone: nothing but quotes/brackets/punctuation between the
    # phrase and the line breaks (or text edges) around it.
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    head = text[line_start:start].strip(" \t\"'`([{-*>:")
    tail = text[end : len(text) if line_end < 0 else line_end].strip(" \t\"'`)]}.,;!")
    if not head and not tail:
        return True
    return text[start - 1 : start] in ("\"", "'", "`") and text[end : end + 1] == text[start - 1]


_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B58_INDEX = {c: i for i, c in enumerate(_B58)}


def base58check_decode(s: str) -> bytes | None:
    """Payload of a base58check string, or None if the checksum fails."""
    n = 0
    for c in s:
        n = n * 58 + _B58_INDEX[c]
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    raw = b"\0" * (len(s) - len(s.lstrip("1"))) + raw
    if len(raw) < 5:
        return None
    payload, check = raw[:-4], raw[-4:]
    if hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] != check:
        return None
    return payload


_XPRV = re.compile(r"[xtyzuv]prv(?<![A-Za-z0-9]....)[1-9A-HJ-NP-Za-km-z]{100,112}+")
_XPRV_MIN = 104

# WIF: a whole alphanumeric token of 51 (uncompressed) or 52 (compressed)
# base58 characters. Found as runs in a byte view (alphanumerics → 'b'),
# because a regex led by the class [5KL9c] would try every such letter.
_ALNUM_VIEW = bytes(ord("b") if chr(c).isalnum() and c < 128 else ord(" ") for c in range(256))
_WIF_LENGTHS = (51, 52)
_WIF_FIRST = frozenset("5KL9c")  # mainnet 0x80 → 5/K/L, testnet 0xEF → 9/c
_WIF_VERSIONS = (0x80, 0xEF)
_B58_SET = frozenset(_B58)


def _alnum_runs(view: bytes, min_len: int) -> Iterator[tuple[int, int]]:
    """Spans of maximal runs of b'b' at least `min_len` long in `view`."""
    need = b"b" * min_len
    pos = view.find(need)  # a run's start: find() returns the earliest hit
    while pos >= 0:
        end = view.find(b" ", pos + min_len)
        if end < 0:
            end = len(view)
        yield pos, end
        pos = view.find(need, end)


def alnum_view(view: bytes) -> bytes:
    """`view` (`ascii_view` of a text, or of its lowered form) with ASCII letters and
    digits as b"b", everything else as b" "."""
    return view.translate(_ALNUM_VIEW)


def find_wallet_keys(
    text: str, lowered: str, view: bytes | None = None, alnum: bytes | None = None,
    shorter_runs: list[tuple[int, int]] | None = None,
) -> Iterator[Candidate]:
    """`view`: `ascii_view(text)` (wide spaces or not: neither is alphanumeric), if the caller has it;
    `alnum`: `alnum_view` of it, if known; `shorter_runs`: its maximal runs of some
    length up to 51, if known (gitleaks' seeks find those of 19: no second scan)."""
    # Runs of 51+ once: the extended keys' runs of 104+ are among them (a second
    # scan for those cost as much as the first on text dense in tokens).
    if shorter_runs is not None:
        runs = [(start, end) for start, end in shorter_runs if end - start >= _WIF_LENGTHS[0]]
    else:
        if alnum is None:
            alnum = alnum_view(ascii_view(text) if view is None else view)
        runs = list(_alnum_runs(alnum, _WIF_LENGTHS[0]))
    for start, end in runs:
        token = text[start:end]
        if end - start > _WIF_LENGTHS[1] or token[0] not in _WIF_FIRST:
            continue
        if not _B58_SET.issuperset(token):
            continue
        payload = base58check_decode(token)
        # Version byte, then a 32-byte key (+0x01 when compressed).
        if payload and payload[0] in _WIF_VERSIONS and len(payload) in (33, 34):
            yield start, end, "wif_private_key", PROVIDER
    # Extended keys start an alphanumeric run of ≥104 characters ("xprv" + 100).
    for start, end in runs:
        if end - start < _XPRV_MIN:
            continue
        m = _XPRV.match(text, start)
        if m and base58check_decode(m.group()):
            yield *m.span(), "crypto_private_key", PROVIDER
