"""Embedded encoded payloads: base64, hex, URL-encoding, HTML entities, rot13,
reversed text, Unicode tag smuggling.

Each decoder returns `(label, decoded_text)` pairs; the screener runs its
patterns over the decoded text. A decoded candidate is kept only if it is
mostly printable text, so SHAs, UUIDs and random keys decode to nothing.
Work is bounded: at most `MAX_PAYLOADS` runs per text, each ≤ `MAX_RUN` chars.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
from urllib.parse import unquote_plus

from .normalize import decode_tag_characters

MAX_PAYLOADS = 32
MAX_RUN = 20_000

_B64_RUN = re.compile(rf"[A-Za-z0-9+/_-]{{16,{MAX_RUN}}}+={{0,2}}")
_HEX_RUN = re.compile(rf"(?:0x)?[0-9a-fA-F]{{16,{MAX_RUN}}}+")
_HEX_ESC = re.compile(rf"(?:\\x[0-9a-fA-F]{{2}}){{4,{MAX_RUN // 4}}}+")  # 4 chars per byte
_PCT = re.compile(r"%[0-9a-fA-F]{2}")


def _printable(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not text:
        return None
    good = sum(ch.isprintable() or ch in "\n\t\r" for ch in text)
    letters = sum(ch.isalpha() for ch in text)
    if good / len(text) < 0.95 or letters / len(text) < 0.5:
        return None
    return text


def _base64(run: str) -> str | None:
    core = run.rstrip("=")
    if len(core) % 4 == 1:
        return None
    padded = core + "=" * (-len(core) % 4)
    alt = "-_" if ("-" in core or "_" in core) else None
    try:
        data = base64.b64decode(padded, altchars=alt.encode() if alt else None, validate=True)
    except (binascii.Error, ValueError):
        return None
    return _printable(data)


_ANY_RUN = re.compile(r"[A-Za-z0-9+/_-]{16}")  # how every base64/hex run starts


def may_hold_payload(text: str) -> bool:
    """False when no decoder below can find anything (most notes): no
    base64/hex run (a long plain word like "restructuredtext" is neither), no
    escape, '%', '&' or (non-ASCII) tag character."""
    if not text.isascii() or "%" in text or "&" in text or "\\" in text:
        return True
    if not _ANY_RUN.search(text):
        return False
    # The base64 decoder skips letters-only runs.
    return _HEX_RUN.search(text) is not None or any(not run.isalpha() for run in _B64_RUN.findall(text))


def decoded_payloads(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if not may_hold_payload(text):
        return out
    for m in _B64_RUN.finditer(text):
        if len(out) >= MAX_PAYLOADS:
            break
        run = m.group()
        # Pure-hex or pure-letter runs are words/hashes, not base64 payloads.
        if run.isalpha() or all(c in "0123456789abcdefABCDEF" for c in run):
            continue
        decoded = _base64(run)
        if decoded:
            out.append(("base64", decoded))
    for m in _HEX_RUN.finditer(text):
        if len(out) >= MAX_PAYLOADS:
            break
        run = m.group().removeprefix("0x")
        if len(run) % 2 == 0:
            decoded = _printable(bytes.fromhex(run))
            if decoded:
                out.append(("hex", decoded))
    for m in _HEX_ESC.finditer(text):
        decoded = _printable(bytes.fromhex(m.group().replace("\\x", "")))
        if decoded:
            out.append(("hex", decoded))
    if "%" in text and _PCT.search(text):
        decoded = unquote_plus(text)
        if decoded != text:
            out.append(("url-encoding", decoded))
    if "&" in text:
        decoded = html.unescape(text)
        if decoded != text:
            out.append(("html entities", decoded))
    tags = decode_tag_characters(text)
    if tags:
        out.append(("unicode tags", tags))
    return out


def transformed_views(text: str) -> list[tuple[str, str]]:
    """Whole-text transforms that only a deliberate obfuscator would use."""
    return [("rot13", codecs.decode(text, "rot13")), ("reversed", text[::-1])]
