"""Where rare anchors occur: one automaton pass instead of one regex scan each.

An `AnchoredPattern` scans the text once per anchor present (a C literal scan,
~1-3 ms/MB even when the anchor occurs once). Source code and docs hold most
anchors of agenttui's context rules ('key', 'token', 'sig', 'login', 'aws',
…), each a few times per KB at most: ~25 scans, a quarter of the time of
redacting them. Here one Aho-Corasick pass over the lowered bytes finds every
occurrence of those anchors, and the pattern is tried there with `match`.

Anchors that occur often (prose says 'password' every few hundred
characters) keep their regex scan, since a Python call per occurrence costs
more than it: a sample of the text tells them apart. Either way the matches
are the same (`AnchoredPattern.finditer`); only the cost differs. The same
pass finds which of the own rules' needles occur (`present_and_located`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Set
from functools import lru_cache

from .gitleaks_scan import _presence_automaton
from .needle_starts import located_starts

_SAMPLE = 65_536
# At most this many occurrences in the sample (about one per KB): rarer than
# that, a `match` per occurrence costs less than the anchor's scan.
_SPARSE_IN_SAMPLE = 64
# One shared pass costs about two anchor scans: fewer rare anchors, no pass.
_MIN_ANCHORS = 3


class Present(set[str]):
    """Needles known to occur in a text, and every start of some anchors in it
    (`positions`: anchor -> starts, ascending; an anchor not there is scanned for)."""

    def __init__(self, needles: Iterable[str], positions: dict[str, list[int]] | None = None) -> None:
        super().__init__(needles)
        self.positions: dict[str, list[int]] = positions or {}


def _hits(view: bytes, needles: tuple[bytes, ...]) -> list[tuple[int, int]] | None:
    automaton = _presence_automaton(needles)
    if automaton is None:
        return None
    return [(k, s) for k, s, _ in automaton.find_matches_as_indexes(view, overlapping=True)]  # type: ignore[attr-defined]


def sparse_positions(view: bytes, anchors: Iterable[str]) -> dict[str, list[int]]:
    """anchor -> every start in `view` (lowered bytes), for the `anchors` that are rare in it."""
    needles = tuple(sorted(a.encode("latin-1") for a in anchors))
    if len(needles) < _MIN_ANCHORS:
        return {}
    if len(view) > 2 * _SAMPLE:
        sampled = _hits(view[:_SAMPLE], needles)
        if sampled is None:
            return {}
        counts = [0] * len(needles)
        for k, _ in sampled:
            counts[k] += 1
        needles = tuple(n for n, c in zip(needles, counts, strict=True) if c <= _SPARSE_IN_SAMPLE)
        if len(needles) < _MIN_ANCHORS:
            return {}
    hits = _hits(view, needles)
    if hits is None:
        return {}
    positions: dict[str, list[int]] = {n.decode("latin-1"): [] for n in needles}
    names = [n.decode("latin-1") for n in needles]
    for k, start in hits:
        positions[names[k]].append(start)
    return positions


def at_starts(regex: re.Pattern[str], text: str, starts: list[int]) -> Iterator[re.Match[str]]:
    """`regex.finditer(text)` when every match starts at one of `starts` (sorted) and
    none is empty: the attempt at each start that is not inside the previous match."""
    end = 0
    for start in starts:
        if start >= end and (m := regex.match(text, start)) is not None:
            end = m.end()
            yield m


def scan(
    regex: re.Pattern[str], text: str, needles: Iterable[str], present: Set[str] | None
) -> Iterator[re.Match[str]]:
    """`regex.finditer(text)`, for a regex whose every (non-empty) match starts with one
    of `needles` (lower-case, as the keyword pass finds them in the lowered text):
    tried at their located starts when the sparse pass has them all."""
    starts = located_starts(needles, present)
    return regex.finditer(text) if starts is None else at_starts(regex, text, starts)


@lru_cache(maxsize=256)
def _needle_sets(
    needles: tuple[str, ...], anchors: frozenset[str], known_anchors: frozenset[str]
) -> tuple[frozenset[str], frozenset[str], tuple[str, ...], tuple[bytes, ...]]:
    """(needles, the anchors kept: those among the needles or known, both sorted
    together, and their bytes). The same few sets recur from text to text; built per
    call they cost ~0.1 ms, a third of redacting a short message."""
    wanted = frozenset(needles)
    kept = frozenset(a for a in anchors if a in wanted) | known_anchors
    every = tuple(sorted(wanted | kept))
    return wanted, kept, every, tuple(n.encode("latin-1") for n in every)


def present_and_located(
    view: bytes, needles: Iterable[str], anchors: Iterable[str], known: Set[str] = frozenset()
) -> tuple[set[str], dict[str, list[int]]] | None:
    """(the `needles` that occur in `view`, anchor -> every start for the `anchors` that
    occur and are rare in it): what `gitleaks_scan.present_needles` and then
    `sparse_positions` over the present anchors find, in one pass over the whole text
    instead of two (each ~3.5 ms/MB on code). `known`: needles already known to occur
    (the keyword pass found them); anchors that are neither `known` nor `needles`
    are left out. None without the automaton package (then the two functions apply).

    A sample (the first 64 KB) sorts the anchors: common ones keep their regex scan,
    as in `sparse_positions`, and needles found there need not be looked for again.
    Rare anchors are located even when fewer than three: their positions come with
    the pass the needles need anyway. Either way the matches are the same."""
    all_anchors = anchors if isinstance(anchors, frozenset) else frozenset(anchors)
    wanted, anchors, every, every_bytes = _needle_sets(
        needles if isinstance(needles, tuple) else tuple(needles), all_anchors,
        frozenset(k for k in known if k in all_anchors))
    if not every:
        return set(), {}
    found: set[str] = set()
    common: set[str] = set()
    sampled: list[tuple[int, int]] | None = None
    if len(view) > 2 * _SAMPLE:
        sampled = _hits(view[:_SAMPLE], every_bytes)
        if sampled is None:
            return None
        counts = [0] * len(every)
        for k, _ in sampled:
            counts[k] += 1
        found = {n for n, c in zip(every, counts, strict=True) if c and n in wanted}
        common = {n for n, c in zip(every, counts, strict=True) if c > _SPARSE_IN_SAMPLE and n in anchors}
    if found or common:
        rest = tuple(n for n in every if (n in anchors and n not in common) or (n in wanted and n not in found))
        rest_bytes = tuple(n.encode("latin-1") for n in rest)
    else:
        rest, rest_bytes = every, every_bytes
    if not rest:
        return found, {}
    positions: dict[str, list[int]] = {}
    automaton = _presence_automaton(rest_bytes)
    if automaton is None:
        return None
    if sampled is None:
        lo, cut = 0, 0
    else:
        # The sample's hits are the located anchors' starts there; the pass reads on
        # from where an occurrence could still end past the sample (a text of 256 KB
        # was read 1.25 times). Hits that end inside the sample are left to it.
        kept = frozenset(rest)
        for k, start in sampled:
            if every[k] in kept:
                positions.setdefault(every[k], []).append(start)
        lo = _SAMPLE - max(map(len, rest_bytes)) + 1
        cut = _SAMPLE - lo  # (a hit's end in the slice past this: it ends past the sample)
    # The automaton's (needle, start, end) read once, with no list of pairs in between
    # (secret-dense text: ~16 k hits per MB, each a tuple built and read twice).
    raw = automaton.find_matches_as_indexes(view[lo:] if lo else view, overlapping=True)  # type: ignore[attr-defined]
    get = positions.get
    for k, start, end in raw:
        if end > cut:
            name = rest[k]
            starts = get(name)
            if starts is None:
                positions[name] = [lo + start]
            else:
                starts.append(lo + start)
    found.update(n for n in positions if n in wanted)
    return found, {n: s for n, s in positions.items() if n in anchors and n not in common}
