"""Alternations of literal anchors without losing `re`'s fast prefix scan.

`re` searches a pattern that starts with a literal by scanning for that
literal in C (~3 GB/s). A pattern that starts with an alternation
(`(?:pass|token|key)…`) only gets a first-character set, and every `p`, `t`
or `k` in the text then costs a match attempt: ~25 ms per MB of prose.

`AnchoredPattern` compiles one regex per anchor, `LITERAL(?=REST)`: the scan
is literal-led, and the rest of the match lives in a lookahead whose groups
are still captured. Its `finditer` merges the per-anchor matches and drops
any that starts inside an earlier one, which is exactly what `finditer` on
`(?:a1|a2|…)REST` returns, provided no anchor is a prefix of another (then
at most one anchor can start at any position) and no anchor overlaps itself
(then each literal scan finds every occurrence). Both are checked at build
time. Work stays linear: each attempt is bounded by REST's bounded
quantifiers, and only successful matches reach Python.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Set
from itertools import chain, repeat


def _self_overlaps(literal: str) -> bool:
    return any(literal[:k] == literal[-k:] for k in range(1, len(literal)))


class AnchoredPattern:
    """`finditer` of `(?:anchor1 cont1 | anchor2 cont2 | …) REST`.

    `anchors` maps each literal to an optional regex continuation that is
    specific to it (e.g. `"pass": "(?:word|wd)"`). REST may use named groups;
    matches expose them as usual, and `end(m)` gives the end of the whole
    match (a match object's own `end()` is just past the literal).
    """

    def __init__(self, anchors: dict[str, str], rest: str, flags: int = 0) -> None:
        lits = list(anchors)
        for a in lits:
            if _self_overlaps(a):
                raise ValueError(f"anchor {a!r} overlaps itself")
            if any(b != a and b.startswith(a) for b in lits):
                raise ValueError(f"anchor {a!r} is a prefix of another")
        self.anchors = tuple(lits)
        self._one = f"(?:{'|'.join(f'{re.escape(a)}(?:{c})' for a, c in anchors.items())}){rest}"
        self._flags = flags
        self._regexes = tuple(
            re.compile(f"{re.escape(a)}(?=(?:{cont}){rest}(?P<_end>))", flags) for a, cont in anchors.items()
        )
        self._by_anchor = tuple(zip(lits, self._regexes, strict=True))

    def as_one_regex(self) -> re.Pattern[str]:
        """The plain alternation this stands for (tests compare the two)."""
        return re.compile(self._one, self._flags)

    @staticmethod
    def end(m: re.Match[str]) -> int:
        return m.start("_end")

    def finditer(self, text: str, present: Set[str] | None = None) -> Iterator[re.Match[str]]:
        """`present`: the anchors known to occur in `text` (a keyword pass found
        them); the others are not scanned for. Each literal scan costs ~1 ms/MB
        even when its literal is absent, and most texts hold few anchors."""
        # Where the keyword pass located an anchor (`anchor_positions.Present`), the
        # regex is tried at each start, not scanned for: the same matches, since an
        # anchor does not overlap itself and so `finditer` tries each occurrence.
        # (A case-insensitive pattern may match where the lowered view differs.)
        located: dict[str, list[int]] = {} if self._flags & re.IGNORECASE else getattr(present, "positions", None) or {}
        per_anchor: list[Iterator[re.Match[str]]] = []
        for a, rx in self._by_anchor:
            if present is not None and a not in present:
                continue
            starts = located.get(a)
            if starts is None:
                per_anchor.append(rx.finditer(text))
            else:
                per_anchor.append(filter(None, map(rx.match, repeat(text, len(starts)), starts)))
        found = chain.from_iterable(per_anchor)
        last_end = -1
        for m in sorted(found, key=re.Match.start):
            if m.start() >= last_end:
                last_end = m.start("_end")
                yield m
