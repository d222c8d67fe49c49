"""Prompt-injection screening for memory notes (M3, M9 "suspicious" flag).

A note is suspicious when, in any normalised view (see `normalize`), it reads
like an instruction to the model rather than a fact about the user: override
phrases, role reassignment, system-prompt probing, role markers, secrecy
towards the user, exfiltration, forced dangerous tool use — in English,
Indonesian and a few other languages. Hidden (zero-width/bidi/tag)
characters are suspicious by themselves, and embedded encoded payloads
(base64, hex, URL-encoding, HTML entities, rot13, reversed text) are decoded
and screened too.

Decision: unlike seed 000, length is not a reason here; capping note length
is the write policy's job and is reported as "too long", not "suspicious".
"""

from __future__ import annotations

from functools import cache

from .decoding import decoded_payloads, transformed_views
from .injection_patterns import (
    SQUASHED_ANYWHERE,
    SQUASHED_PHRASES,
    compile_plain_rules,
    compile_two_step,
    compile_word_rules,
    id_override_is_qualified,
)
from .normalize import (
    all_views,
    has_hidden_candidates,
    hidden_characters,
    plain_variants,
    plain_view,
    word_view,
)

_MAX_DEPTH = 2  # base64 inside base64 is screened; deeper nesting is not
_SNIPPET = 60


@cache
def _rules():
    return compile_word_rules(), compile_plain_rules(), compile_two_step()


def _snippet(s: str) -> str:
    s = s.strip()
    return s if len(s) <= _SNIPPET else s[: _SNIPPET - 1] + "\u2026"


def _word_hits(views: list[str]) -> list[str]:
    word_rules, _, _ = _rules()
    reasons: list[str] = []
    for label, rx in word_rules:
        for view in views:
            m = rx.search(view)
            if m is None:
                continue
            if label == "instruction override (id)" and not id_override_is_qualified(m.group()):
                # Try further matches in this view before giving up.
                m = next((x for x in rx.finditer(view) if id_override_is_qualified(x.group())), None)
                if m is None:
                    continue
            reasons.append(f"{label}: '{_snippet(m.group())}'")
            break
    return reasons


def _plain_hits(plain: str) -> list[str]:
    _, plain_rules, two_step = _rules()
    reasons: list[str] = []
    variants = plain_variants(plain)
    for label, rx in plain_rules:
        for view in variants:
            m = rx.search(view)
            if m:
                reasons.append(f"{label}: '{_snippet(m.group())}'")
                break
    for label, anchor, tail, window in two_step:
        hit = None
        for view in variants:
            for m in anchor.finditer(view):
                t = tail.search(view, m.end(), m.end() + window)
                if t:
                    hit = view[m.start() : t.end()]
                    break
            if hit:
                reasons.append(f"{label}: '{_snippet(hit)}'")
                break
    return reasons


def _squashed_hits(runs: list[str], views: list[str]) -> list[str]:
    for run in runs:
        for phrase in SQUASHED_PHRASES:
            if phrase in run:
                return [f"spaced-out letters: '{phrase}'"]
    for view in views:
        squashed = view.replace(" ", "")
        for phrase in SQUASHED_ANYWHERE:
            if phrase in squashed:
                return [f"split words: '{phrase}'"]
    return []


def _screen(text: str, depth: int) -> list[str]:
    reasons: list[str] = []
    if has_hidden_candidates(text):
        hidden = hidden_characters(text)
        if hidden:
            reasons.append("hidden characters: " + ", ".join(hidden))
    plain, views, runs = all_views(text)
    reasons += _word_hits(views)
    reasons += _plain_hits(plain)
    reasons += _squashed_hits(runs, views if not reasons else [])
    if depth < _MAX_DEPTH:
        for label, decoded in decoded_payloads(text):
            for r in _screen(decoded, depth + 1):
                reasons.append(f"encoded payload ({label}) \u2192 {r}")
    if depth == 0 and not reasons:
        # Only a deliberate obfuscator writes rot13 or backwards; high-precision
        # word rules only, no further decoding.
        for label, transformed in transformed_views(plain):
            tplain = plain_view(transformed)
            for r in _word_hits([word_view(tplain)]) + _plain_hits(tplain):
                reasons.append(f"{label} text \u2192 {r}")
    return reasons


def injection_reasons(text: str) -> list[str]:
    """Why `text` looks like prompt injection; empty means clean."""
    if not text or not text.strip():
        return []
    seen: dict[str, None] = {}
    for r in _screen(text, 0):
        seen.setdefault(r, None)
    return list(seen)


def is_suspicious_note(text: str) -> bool:
    """Stable public name (seed 000): True if the note should not be saved as is."""
    return bool(injection_reasons(text))
