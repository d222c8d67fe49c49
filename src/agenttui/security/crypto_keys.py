"""Wallet secrets: BIP39 seed phrases, WIF and extended private keys.

Public material (0x… addresses, bc1…/1…/3… addresses, xpub…) is never
matched: WIF keys must pass their base58check checksum with a private-key
version byte, and a seed phrase must be ≥12 consecutive words of the BIP39
English list (shipped as `bip39_english.txt`, 2048 words, from the BIP39
reference; SHA-256 2f5eed53…dbda).
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
def bip39_words() -> frozenset[str]:
    data = resources.files(__package__).joinpath("bip39_english.txt").read_text("ascii")
    words = frozenset(data.split())
    assert len(words) == 2048, "bip39_english.txt is damaged"
    return words


# Runs of ≥12 short lowercase words; separators may be spaces, commas,
# newlines and list numbers ("1. abandon 2. ability"). Each group turn starts
# with a separator and ends on a word boundary, so the possessive loop is
# unambiguous.
_WORD_RUN = re.compile(
    r"\b[a-z]{3,8}\b(?:[\s,]{1,6}+(?:[0-9]{1,2}[.):]?[ \t]{0,3}+)?[a-z]{3,8}\b){11,}+"
)
_WORD = re.compile(r"[a-z]{3,8}")


# Cheap first pass: a single-class run long enough to hold 12 words (12×3
# letters + 11 separators). Only inside such runs is the word regex run.
# The lookbehind (after the first char, so the prefix scan survives) stops a
# short run from being retried at each of its positions.
_LOWER_RUN = re.compile(r"[a-z0-9\s,.)](?<![a-z0-9\s,.)]{2})[a-z0-9\s,.)]{46,}+")


# Separators and list numbering become spaces for the fast membership pass.
_SEP_TABLE = str.maketrans({c: " " for c in ",.)(:;0123456789"})
_STREAK = b"\x01" * SEED_MIN_WORDS


def _may_hold_seed(text: str) -> bool:
    """C-speed pass: split, test set membership with `map`, look for 12 ones.

    Only when this says yes does the exact (slower, position-tracking)
    regex scan run, so ordinary text pays ~one split per call.
    """
    words = text.translate(_SEP_TABLE).split()
    flags = bytes(map(bip39_words().__contains__, words))
    return _STREAK in flags


def find_seed_phrases(text: str, lowered: str) -> Iterator[Candidate]:
    if not _may_hold_seed(text):
        return
    for span in _LOWER_RUN.finditer(text):
        yield from _seed_phrases_in(text, span.start(), span.end())


def _seed_phrases_in(text: str, lo: int, hi: int) -> Iterator[Candidate]:
    words = bip39_words()
    for run in _WORD_RUN.finditer(text, lo, hi):
        streak: list[re.Match[str]] = []
        for w in _WORD.finditer(text, run.start(), run.end()):
            if w.group() in words:
                streak.append(w)
                continue
            if len(streak) >= SEED_MIN_WORDS:
                yield streak[0].start(), streak[-1].end(), "seed_phrase", PROVIDER
            streak = []
        if len(streak) >= SEED_MIN_WORDS:
            yield streak[0].start(), streak[-1].end(), "seed_phrase", PROVIDER


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


_WIF = re.compile(
    r"[5KL](?<![A-Za-z0-9][5KL])[1-9A-HJ-NP-Za-km-z]{50,51}+(?![A-Za-z0-9])"
)
_XPRV = re.compile(r"[xtyzuv]prv(?<![A-Za-z0-9]....)[1-9A-HJ-NP-Za-km-z]{100,112}+")


def find_wallet_keys(text: str, lowered: str) -> Iterator[Candidate]:
    for m in _WIF.finditer(text):
        payload = base58check_decode(m.group())
        # mainnet version 0x80; 32-byte key (+0x01 compressed). Testnet keys
        # (9…/c…) are skipped: 'c' starts too many words to scan for cheaply.
        if payload and payload[0] == 0x80 and len(payload) in (33, 34):
            yield *m.span(), "wif_private_key", PROVIDER
    if "prv" in text:
        for m in _XPRV.finditer(text):
            if base58check_decode(m.group()):
                yield *m.span(), "crypto_private_key", PROVIDER
