"""Words related in meaning to a question's words: recall's bridge for paraphrases.

"Am I afraid of planes?" shares no word with "I'm terrified of flying", so a
lexical search alone never finds it. Recall therefore also searches, in a
ranked list of its own with less weight (``retrieval.RELATED_WEIGHT``), the
words nearest in meaning to the question's: afraid → scared, terrified;
planes → aircraft, flights; puppy → dog, pet.

The table (``data/related_words.tsv.gz``, ~32,000 English words, 370 kB) is
generated offline by ``scripts/build_related_words.py`` from a maintained
sentence-embedding model (all-MiniLM-L6-v2, every word of its vocabulary and
of lemminflect's lemmas embedded on its own); its header says how and under
which licences. At run time it is
a dictionary look-up: no model, no numpy, nothing downloaded, the same
answer every time. It is English only: an Indonesian question gets no
related words (its own words, stems and prefixes are still searched).
"""

from __future__ import annotations

import gzip
from collections.abc import Collection, Sequence
from functools import lru_cache
from importlib import resources

from agenttui.core.recall import english_words

MAX_RELATED = 24  # terms in the related-words query: bounds its cost like MAX_TERMS
PER_WORD = 4  # nearest related words kept per question word


@lru_cache(maxsize=1)
def _table() -> dict[str, tuple[str, ...]]:
    """word -> related words, nearest first (loaded once, ~20 ms)."""
    raw = resources.files("agenttui.core.recall").joinpath("data/related_words.tsv.gz").read_bytes()
    table: dict[str, tuple[str, ...]] = {}
    for line in gzip.decompress(raw).decode("utf-8").splitlines():
        if line and not line.startswith("#"):
            word, _, related = line.partition("\t")
            table[word] = tuple(related.split())
    return table


def related_words(word: str) -> tuple[str, ...]:
    """The words nearest in meaning to ``word`` (or to its lemma), nearest first; () if unknown."""
    table = _table()
    if word in table:
        return table[word]
    for lemma in english_words.lemmas(word):  # "puppies" -> "puppy"
        if lemma in table:
            return table[lemma]
    return ()


def table_related(word: str) -> tuple[str, ...]:
    """The table's related words for ``word`` as written (no lemma look-up): for bulk callers
    such as the memory audit, which look up every form they meet anyway."""
    return _table().get(word, ())


def related_terms(words: Sequence[str], known: Collection[str]) -> tuple[str, ...]:
    """Search terms related to ``words``, nearest first per word, round robin, once, none in ``known``.

    Round robin so that every question word contributes its nearest neighbour
    before any contributes its fourth.
    """
    per_word = [[w for w in related_words(word)[:PER_WORD] if w not in known] for word in words]
    chosen: dict[str, None] = {}
    for rank in range(PER_WORD):
        for related in per_word:
            if rank < len(related):
                chosen.setdefault(related[rank], None)
                if len(chosen) >= MAX_RELATED:
                    return tuple(chosen)
    return tuple(chosen)
