"""Near-duplicate messages in recall: "Btw, is it better to pay off the car loan early?" once is enough.

Two messages are near duplicates when the Jaccard similarity of their
content-word sets is at least a threshold. Recall compares each candidate
with every message kept so far; done pair by pair that cost about 2 ms a
turn. :class:`NearDuplicates` uses prefix filtering instead (Chaudhuri et
al., "A Primitive Operator for Similarity Joins", ICDE 2006): with the words
of every set in one fixed order, two sets whose Jaccard similarity is at
least ``t`` share a word among the first ``n - ceil(t * n) + 1`` words of
each (``n`` its size). Only sets sharing such a word are compared, and the
comparison is the exact one, so the answers are those of :func:`similar`.
"""

from __future__ import annotations

from collections.abc import Set


def similar(a: Set[str], b: Set[str], threshold: float) -> bool:
    """Jaccard similarity of ``a`` and ``b`` at least ``threshold`` (two empty sets are alike)."""
    if not a or not b:
        return not a and not b
    small, large = sorted((len(a), len(b)))
    if small < threshold * large:  # Jaccard is at most small/large: skip the set work
        return False
    return len(a & b) / len(a | b) >= threshold


class NearDuplicates:
    """Sets seen so far, answering "is this one a near duplicate of any of them?"."""

    def __init__(self, threshold: float) -> None:
        if not 0 < threshold <= 1:
            raise ValueError(f"threshold must be in (0, 1], not {threshold}")
        self.threshold = threshold
        self._kept: list[frozenset[str]] = []
        self._by_word: dict[str, list[int]] = {}
        self._exact: set[frozenset[str]] = set()
        self._empty = False

    def __len__(self) -> int:
        return len(self._kept) + self._empty

    def _prefix(self, words: frozenset[str]) -> list[str]:
        # floor(t * n) <= ceil(t * n): a prefix one word longer at worst, never shorter
        return sorted(words)[: len(words) - int(self.threshold * len(words)) + 1]

    def seen(self, words: frozenset[str]) -> bool:
        """Is ``words`` a near duplicate of a set added before?"""
        if not words:
            return self._empty
        if words in self._exact:  # the same words again (a repeated turn): Jaccard 1
            return True
        threshold, kept, size = self.threshold, self._kept, len(words)
        # :func:`similar` inlined (recall asks ~150 times a turn, ~5 candidates each): the
        # same size filter and the same quotient, |a | b| counted as |a| + |b| - |a & b|
        for k in {k for word in self._prefix(words) for k in self._by_word.get(word, ())}:
            other = kept[k]
            small, large = (size, len(other)) if size <= len(other) else (len(other), size)
            if small < threshold * large:
                continue
            shared = len(words & other)
            if shared / (size + len(other) - shared) >= threshold:
                return True
        return False

    def add(self, words: frozenset[str]) -> None:
        if not words:
            self._empty = True
            return
        index = len(self._kept)
        self._kept.append(words)
        self._exact.add(words)
        for word in self._prefix(words):
            self._by_word.setdefault(word, []).append(index)
