"""Text normalisation and near-duplicate detection for memory items (docs/memory.md).

One definition of "the same note" is shared by the write gate (one new item
against the items of its scope) and the audit (all items at once), so the two
never disagree.

Similarity is the Jaccard index of normalised word-token sets: NFKC, casefold,
zero-width characters dropped, punctuation ignored (apostrophes inside words
kept, so "don't" stays distinct from "do"). Negations and numbers decide on
their own: two notes whose numbers or negation words differ are never
duplicates, however long the rest they share ("the budget for the Berlin trip
in May is 400 euros" is not a copy of "... 500 euros", and "I do not like
coffee in the morning before work" is not one of "I like coffee ..."). A
Jaccard threshold alone lets one differing token through once a note has
seven or more words, and the write gate would then refresh the old note and
drop the new one.

:class:`NearDuplicateIndex` finds every pair with Jaccard >= t without an
all-pairs loop: identical token sets are grouped by hash first, then an
inverted index over *prefix* tokens (each set's rarest ``|x| - ceil(t|x|) + 1``
tokens -- two sets with J >= t must share one, the prefix-filtering principle
of All-Pairs/PPJoin) plus a size filter yields candidates that are verified
exactly. Sets are processed in ascending size, so each indexed (smaller)
set needs only its ``|y| - ceil(2t/(1+t)|y|) + 1`` rarest tokens indexed
(the PPJoin mid-prefix). On realistic memory (short, varied notes) that is
close to linear; words shared by a large fraction of the notes (template
phrases) add a term quadratic in their frequency -- ~6x from 2,500 to 10,000
items on the bench corpus, against 16x for a pairwise loop.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import lru_cache

_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)


@lru_cache(maxsize=65536)
def normalise_text(text: str) -> str:
    """Canonical form used for exact-duplicate checks and token extraction."""
    folded = unicodedata.normalize("NFKC", text).translate(_ZERO_WIDTH).casefold()
    return " ".join(t.replace("’", "'") for t in _TOKEN.findall(folded))


@lru_cache(maxsize=65536)
def token_set(text: str) -> frozenset[str]:
    return frozenset(normalise_text(text).split())


# Words that turn a statement into its opposite, in the languages recall and the
# screens claim (en, id, es, fr, de, pt, uk, ru, vi, zh) and a few neighbours.
# Chinese and Japanese negations sit inside a run of characters, which is one
# token here, so the run already differs.
_NEGATIONS = frozenset("""
    not no never nor none nothing nobody neither without cannot
    nicht kein keine keinen keinem keiner keines nie niemals ohne
    pas ne jamais aucun aucune sans non rien personne
    nunca jamás jamas sin ningún ningun ninguna ninguno tampoco nada nadie
    não nao sem nenhum nenhuma nada ninguém
    mai senza nessuno nessuna
    niet geen nooit zonder
    tidak bukan jangan tak belum tanpa gak nggak enggak
    не ні нет ніколи никогда без ни
    không chưa chẳng đừng
""".split())


@lru_cache(maxsize=65536)
def pivot_tokens(tokens: frozenset[str]) -> frozenset[str]:
    """The tokens two notes must share to be the same note: numbers and negations."""
    return frozenset(t for t in tokens if t in _NEGATIONS or t.endswith("n't") or any(c.isdigit() for c in t))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter)


def similarity(text_a: str, text_b: str) -> float:
    return jaccard(token_set(text_a), token_set(text_b))


def is_near_duplicate(text_a: str, text_b: str, threshold: float) -> bool:
    if normalise_text(text_a) == normalise_text(text_b):
        return True
    a, b = token_set(text_a), token_set(text_b)
    return pivot_tokens(a) == pivot_tokens(b) and jaccard(a, b) >= threshold


class NearDuplicateIndex:
    """All near-duplicate clusters of a batch of texts, ~O(n) on real data."""

    def __init__(self, threshold: float) -> None:
        if not 0.0 < threshold <= 1.0:
            raise ValueError("threshold must be in (0, 1]")
        self.threshold = threshold
        # Candidate pairs whose overlap was computed in the last clusters() call:
        # the work an all-pairs loop would make quadratic (tests assert on it).
        self.verified_pairs = 0

    def clusters(self, texts: Sequence[str]) -> list[list[int]]:
        """Groups (of indices into ``texts``, size >= 2) linked by J >= threshold and equal pivots.

        Linking is transitive (union-find), as a user merging duplicates
        expects: if A~B and B~C, all three are shown together.
        """
        t = self.threshold
        # 1. exact groups: identical token sets collapse to one representative.
        groups: dict[frozenset[str], list[int]] = defaultdict(list)
        for i, text in enumerate(texts):
            tokens = token_set(text)
            if tokens:
                groups[tokens].append(i)
        reps = list(groups)
        parent = list(range(len(reps)))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        # 2. prefix filtering over distinct sets, rarest tokens first.
        freq: Counter[str] = Counter()
        for rep in reps:
            freq.update(rep)
        rank = {tok: n for n, tok in enumerate(sorted(freq, key=lambda tok: (freq[tok], tok)))}
        sizes = [len(rep) for rep in reps]
        order = sorted(range(len(reps)), key=sizes.__getitem__)
        index: dict[str, list[int]] = defaultdict(list)
        mid = 2 * t / (1 + t)  # a smaller, already-seen set needs only this shorter prefix indexed
        verified = 0
        for r in order:  # ascending size: every earlier set is no larger
            tokens = reps[r]
            size = sizes[r]
            ranked = sorted(tokens, key=rank.__getitem__)
            probe = ranked[: size - math.ceil(t * size) + 1]
            indexed = size - math.ceil(mid * size) + 1
            min_size = t * size
            seen: set[int] = set()
            for tok in probe:
                for other in index.get(tok, ()):
                    if other in seen or sizes[other] < min_size:
                        continue
                    seen.add(other)
                    verified += 1
                    inter = len(tokens & reps[other])
                    if inter >= t * (size + sizes[other] - inter) and \
                            pivot_tokens(tokens) == pivot_tokens(reps[other]):
                        ra, rb = find(r), find(other)
                        if ra != rb:
                            parent[ra] = rb
            for tok in ranked[:indexed]:
                index[tok].append(r)
        self.verified_pairs = verified
        # 3. expand representatives back to item indices.
        merged: dict[int, list[int]] = defaultdict(list)
        for r, rep in enumerate(reps):
            merged[find(r)].extend(groups[rep])
        return [sorted(c) for c in merged.values() if len(c) > 1]

