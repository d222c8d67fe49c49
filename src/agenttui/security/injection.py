"""Prompt-injection screening for memory notes (docs/security.md#injection-screening).

A note is suspicious when, in any normalised view (see `normalize`), it reads
like an instruction to the model rather than a fact about the user: override
phrases, role reassignment, system-prompt probing, role markers, secrecy
towards the user, exfiltration, forced dangerous tool use, and agent
hijacks that address no model at all (skip the user's confirmation, answer
what the note dictates, switch safety off, never mention this note; see
``injection_agentic``) — in English, Indonesian and a few other languages.
A mere mention of a system prompt ("the support bot's system prompt is in
the wiki") is a note; "your system prompt" or "print the system prompt" is a probe. Hidden (zero-width/bidi/tag)
characters are suspicious by themselves, and embedded encoded payloads
(base64, hex, URL-encoding, HTML entities, rot13, reversed text) are decoded
and screened too.

Decision: length is not a reason here; capping note length
is the write policy's job and is reported as "too long", not "suspicious".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import chain
from typing import NamedTuple

from .decoding import decoded_payloads, may_hold_payload, transformed_views
from .injection_generalised import squashed_override
from .injection_patterns import (
    ANCHOR,
    PLAIN_RULES,
    SQUASHED_ANYWHERE,
    SQUASHED_PHRASES,
    TWO_STEP_RULES,
    WORD_RULES,
    id_override_is_qualified,
    required_literals,
)
from .normalize import (
    all_views,
    ascii_table,
    ascii_translate,
    cheap_words,
    has_hidden_candidates,
    hidden_characters,
    plain_variants,
    plain_view,
    turned_forms,
    word_view,
)

_MAX_DEPTH = 2  # base64 inside base64 is screened; deeper nesting is not
_SNIPPET = 60
_RUN = re.compile(r"\w+")
# ASCII non-word chars → space, so str.split() yields the `\w+` runs.
_ASCII_WORDISH = "".join(c for c in map(chr, range(128)) if c.isalnum() or c == "_")
_ASCII_RUN_SEP = ascii_table(spaces="".join(c for c in map(chr, range(128)) if not (c.isalnum() or c == "_")))


@dataclass(frozen=True)
class _Rule:
    label: str
    rx: re.Pattern[str]  # the pattern, or a two-step rule's anchor
    tail: re.Pattern[str] | None = None
    window: int = 0


class _Entry(NamedTuple):
    literal: str
    bit: int  # the literal set it belongs to
    whole: tuple[str, ...]  # words it holds whole
    partial: tuple[str, ...]  # pieces of words (at its edges)
    marks: str  # its punctuation


class _Prefilter:
    """Which rules can match at all, from literals every match must contain.

    Running ~80 patterns over ~8 views costs ~1 µs per search, and almost no
    memory note contains any of the rules' literals. Each rule needs one
    member of each of its literal sets (a two-step rule: anchor and tail) to
    occur in the views it runs on. A member is indexed by a word it must
    contain: one it holds whole (exact), starts (first 3-4 chars) or ends
    (last 3 chars); the few left ("@", ":()", CJK phrases) are tested one by
    one. What each distinct word of a text hits is cached, so a note costs
    a few set and dict operations in C, and a substring test per member hit.
    """

    _CACHE_MAX = 50_000  # distinct words remembered (memory notes reuse few)

    def __init__(self, needs: list[list[frozenset[str] | None]]):
        self.always: list[int] = []
        self.needs: list[int] = []  # per rule: bit mask of its literal sets
        self.exact: dict[str, list[_Entry]] = {}
        self.heads: dict[int, dict[str, list[_Entry]]] = {3: {}, 4: {}}
        self.tails: dict[str, list[_Entry]] = {}
        self.loose: list[_Entry] = []
        bit = 0
        for i, sets in enumerate(needs):
            if not all(sets):  # unknown literals: the rule always runs
                self.needs.append(0)
                self.always.append(i)
                continue
            for lits in sets:
                for lit in lits or ():
                    self._index(lit, 1 << bit)
                bit += 1
            self.needs.append((1 << bit) - (1 << (bit - len(sets))))
        self.loose_ascii = [e for e in self.loose if e.literal.isascii()]
        # Loose members that are one piece of a word ("pastebin"), for `turned`.
        self.loose_pieces = [e for e in self.loose_ascii if len(e.partial) == 1 and not e.marks and not e.whole]
        self.loose_other = [e for e in self.loose_ascii if e not in self.loose_pieces]
        self.word_hits: dict[str, tuple[_Entry, ...]] = {}
        self.turned_hits: dict[str, tuple[_Entry, ...]] = {}

    def _index(self, lit: str, bit: int) -> None:
        anchored = lit.startswith(ANCHOR)
        lit = lit.lstrip(ANCHOR)
        runs = [(m.group(), anchored or m.start() > 0, m.end() < len(lit)) for m in _RUN.finditer(lit)]
        whole = tuple(word for word, starts, ends in runs if starts and ends)
        partial = tuple(word for word, starts, ends in runs if not (starts and ends))
        marks = "".join(sorted(set(lit) - set(_ASCII_WORDISH) - {" "}))
        entry = _Entry(lit, bit, whole, partial, marks)
        if whole:  # the longest whole word is the rarest key
            self.exact.setdefault(max(whole, key=len), []).append(entry)
            return
        for word, starts, ends in runs:
            if starts and len(word) >= 3:  # starts a word
                self.heads[min(len(word), 4)].setdefault(word[:4], []).append(entry)
                return
            if ends and len(word) >= 3:  # ends a word
                self.tails.setdefault(word[-3:], []).append(entry)
                return
        self.loose.append(entry)

    def _lookup(self, word: str) -> tuple[_Entry, ...]:
        return (
            *self.exact.get(word, ()),
            *self.heads[4].get(word[:4], ()),
            *self.heads[3].get(word[:3], ()),
            *self.tails.get(word[-3:], ()),
        )

    def _turned_lookup(self, word: str) -> tuple[_Entry, ...]:
        out: list[_Entry] = []
        for form in {*turned_forms(word)}:
            out += self._lookup(form)
            out += [e for e in self.loose_pieces if e.partial[0] in form]
        return tuple(out)

    def _hits(self, words: set[str], cache: dict[str, tuple[_Entry, ...]],
              lookup: Callable[[str], tuple[_Entry, ...]]) -> list[_Entry]:
        """Entries hit by `words`, through `cache` (filled with `lookup`)."""
        missing = words.difference(cache)  # set-vs-dict: O(len(words))
        if missing:
            if len(cache) > self._CACHE_MAX:
                cache.clear()
                missing = words
            for w in missing:
                cache[w] = lookup(w)
        return list(chain.from_iterable(map(cache.__getitem__, words)))

    def _verdict(self, found: int) -> bool:
        return any(need & found == need for need in self.needs if need)

    def maybe(self, words: set[str], plain: str, turned: bool) -> bool:
        """False if no rule can match in any view of ASCII `plain` whose words
        are all in `words` (see `normalize.cheap_words`; views make no
        punctuation but spaces, so a member's punctuation must be in `plain`);
        with `turned`, nor in its rot13 and reversed views (judged coarsely:
        any member hit there counts)."""
        if self.always:
            return True
        text = " ".join(words)
        found = 0
        # Plain loops with early exits: this runs for every note.
        for e in self._hits(words, self.word_hits, self._lookup) + self.loose_ascii:
            if found & e.bit:
                continue
            for c in e.marks:
                if c not in plain:
                    break
            else:
                for w in e.whole:
                    if w not in words:
                        break
                else:
                    for w in e.partial:
                        if w not in text:
                            break
                    else:
                        found |= e.bit
        if turned:
            for e in self._hits(words, self.turned_hits, self._turned_lookup):
                found |= e.bit
            for e in self.loose_other:  # cannot judge pieces cheaply: marks only
                for c in e.marks:
                    if c not in plain:
                        break
                else:
                    found |= e.bit
        return found != 0 and self._verdict(found)

    def live(self, views: list[str]) -> set[int]:
        """Indices of the rules that may match in one of `views`."""
        text = "\n".join(views)  # no literal contains a newline
        ascii_only = text.isascii()
        words = set(ascii_translate(text, _ASCII_RUN_SEP).split()) if ascii_only else set(_RUN.findall(text))
        found = 0
        hits = self._hits(words, self.word_hits, self._lookup)
        for e in hits + (self.loose_ascii if ascii_only else self.loose):
            if not found & e.bit and all(w in words for w in e.whole) and e.literal in text:
                found |= e.bit
        live = {i for i, need in enumerate(self.needs) if need and need & found == need} if found else set()
        return live.union(self.always)


@cache
def _rules() -> tuple[list[_Rule], list[_Rule], list[_Rule], _Prefilter]:
    """Compiled at first use, not import: start-up time matters."""
    word = [_Rule(label, re.compile(p)) for label, p in WORD_RULES]
    plain = [_Rule(label, re.compile(p)) for label, p in PLAIN_RULES]
    two = [_Rule(label, re.compile(a), re.compile(t), w) for label, a, t, w in TWO_STEP_RULES]
    needs = [[required_literals(p)] for _, p in WORD_RULES + PLAIN_RULES]
    needs += [[required_literals(a), required_literals(t)] for _, a, t, _ in TWO_STEP_RULES]
    return word, plain, two, _Prefilter(needs)


def forget_words() -> None:
    """Empty the prefilter's per-word caches (benchmarks measure a cold start)."""
    if _rules.cache_info().currsize:
        prefilter = _rules()[3]
        prefilter.word_hits.clear()
        prefilter.turned_hits.clear()


def _snippet(s: str) -> str:
    s = s.strip()
    return s if len(s) <= _SNIPPET else s[: _SNIPPET - 1] + "\u2026"


def _word_hits(views: list[str], live: set[int]) -> list[str]:
    word_rules = _rules()[0]
    reasons: list[str] = []
    for i, rule in enumerate(word_rules):
        if i not in live:
            continue
        label, rx = rule.label, rule.rx
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


def _plain_hits(variants: list[str], live: set[int]) -> list[str]:
    word_rules, plain_rules, two_step, _ = _rules()
    reasons: list[str] = []
    base = len(word_rules)
    for i, rule in enumerate(plain_rules, base):
        if i not in live:
            continue
        for view in variants:
            m = rule.rx.search(view)
            if m:
                reasons.append(f"{rule.label}: '{_snippet(m.group())}'")
                break
    base += len(plain_rules)
    for i, rule in enumerate(two_step, base):
        if i not in live:
            continue
        hit = None
        for view in variants:
            for m in rule.rx.finditer(view):
                assert rule.tail is not None  # a two-step rule has one
                # the tail within the anchor's sentence: "send the token in the header; tokens
                # in the query string end up in logs" names no destination for what is sent
                t = rule.tail.search(view, m.end(), _sentence_end(view, m.end(), m.end() + rule.window))
                if t:
                    hit = view[m.start() : t.end()]
                    break
            if hit:
                reasons.append(f"{rule.label}: '{_snippet(hit)}'")
                break
    return reasons


_SENTENCE_END = re.compile(r"[.;!?](?:\s|$)|\n")


def _sentence_end(view: str, start: int, limit: int) -> int:
    """Where the sentence holding ``start`` ends, at most ``limit`` (a URL's dots are not an end)."""
    end = _SENTENCE_END.search(view, start, limit)
    return end.start() if end else limit


def _squashed_hits(runs: list[str], views: list[str]) -> list[str]:
    for run in runs:
        for phrase in SQUASHED_PHRASES:
            if phrase in run:
                return [f"spaced-out letters: '{phrase}'"]
        verb = squashed_override(run)
        if verb:
            return [f"spaced-out letters: '{verb} …'"]
    for view in views:
        squashed = view.replace(" ", "")
        if "instru" not in squashed:
            continue  # every SQUASHED_ANYWHERE phrase has it
        for phrase in SQUASHED_ANYWHERE:
            if phrase in squashed:
                return [f"split words: '{phrase}'"]
    return []


def _clean_for_sure(text: str, depth: int) -> bool:
    """The fast path: most notes are short plain ASCII with no trigger words.

    True only when no rule can match in any view (checked on a word inventory
    of the views, `normalize.cheap_words`, without building them), nothing
    can be decoded, and nothing could be hidden (ASCII). Anything the
    shortcut cannot vouch for takes the full path, so obfuscated text keeps
    its full screening.
    """
    if not text.isascii() or may_hold_payload(text):
        return False
    plain = plain_view(text)
    inventory = cheap_words(plain)
    if inventory is None:
        return False
    words, squashed = inventory
    if "instru" in squashed:  # in every SQUASHED_ANYWHERE phrase
        return False
    return not _rules()[3].maybe(words, plain, turned=depth == 0)


def _screen(text: str, depth: int) -> list[str]:
    return [] if _clean_for_sure(text, depth) else _full_screen(text, depth)


def _full_screen(text: str, depth: int) -> list[str]:
    reasons: list[str] = []
    if has_hidden_candidates(text):
        hidden = hidden_characters(text)
        if hidden:
            reasons.append("hidden characters: " + ", ".join(hidden))
    plain, views, runs = all_views(text)
    variants = plain_variants(plain)
    # Only a deliberate obfuscator writes rot13 or backwards: those views get
    # high-precision word rules only, no further decoding, and only when the
    # text reads clean otherwise. They are built up front anyway, so that one
    # prefilter pass covers every view.
    transformed: list[tuple[str, str, list[str]]] = []
    if depth == 0:
        for label, turned in transformed_views(plain):
            tplain = plain_view(turned)
            transformed.append((label, word_view(tplain), plain_variants(tplain)))
    everything = [*views, *variants, *(v for _, w, vs in transformed for v in (w, *vs))]
    live = _rules()[3].live(everything)
    if live:
        reasons += _word_hits(views, live)
        reasons += _plain_hits(variants, live)
    reasons += _squashed_hits(runs, views if not reasons else [])
    if depth < _MAX_DEPTH:
        for label, decoded in decoded_payloads(text):
            for r in _screen(decoded, depth + 1):
                reasons.append(f"encoded payload ({label}) \u2192 {r}")
    if live and not reasons:
        for label, tword, tvariants in transformed:
            for r in _word_hits([tword], live) + _plain_hits(tvariants, live):
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
    """Stable public name: True if the note should not be saved as is."""
    return bool(injection_reasons(text))
