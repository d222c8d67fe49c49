"""Recall baselines shared by the recall benchmarks: BM25, dense and recency, one fill rule.

``bench/bench_recall.py`` (our synthetic corpus) and ``bench/bench_recall_public.py``
(public conversations) rank history the same plain ways, so a figure in one means
what it means in the other:

* :class:`Bm25Index` -- SQLite FTS5 (``unicode61``, no stemming, no stop words) over
  the messages, the question's ``\\w+`` words lower-cased and OR-combined, best
  ``bm25()`` first. ``tokens=`` replaces both sides' tokenisation (the index then
  stores the tokens space-joined), e.g. :func:`cjk_bigram_tokens`.
* :func:`fill_best_first` -- the rule every baseline fills its budget with, the one
  retrieval uses: take lines best first; a line that does not fit is skipped (a
  shorter one may still fit) until fewer than 20 tokens are left.
* :func:`history_budget` -- the tokens a baseline may quote: ``[recall]
  history_tokens`` minus the recalled block's intro, as ``assemble()`` gives recall.
* :func:`dense_order` -- cosine order of unit vectors (numpy), for a dense-only ranker.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Sequence

from agenttui.core.context.assemble import RECALL_INTRO
from agenttui.core.tokens import estimate_tokens

BM25_CANDIDATES = 300
STOP_FILLING_BELOW = 20  # tokens left at which filling stops (retrieval's rule)

WORD = re.compile(r"\w+")
CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")


def history_budget(history_tokens: int) -> int:
    """Tokens of quoted lines a baseline gets for ``[recall] history_tokens``."""
    return history_tokens - estimate_tokens(RECALL_INTRO) - 8


def fill_best_first(keys: Iterable[int], line: Callable[[int], str], budget: int) -> list[int]:
    """The keys whose lines fit ``budget`` tokens, best first (module doc)."""
    chosen, used = [], 0
    for key in keys:
        cost = estimate_tokens(line(key)) + 1
        if used + cost > budget:
            if budget - used < STOP_FILLING_BELOW:
                break
            continue  # a shorter one may still fit (as retrieval does)
        chosen.append(key)
        used += cost
    return chosen


def word_tokens(text: str) -> list[str]:
    """``\\w+`` lower-cased: the plain baseline's words."""
    return WORD.findall(text.casefold())


def cjk_bigram_tokens(text: str) -> list[str]:
    """``\\w+`` lower-cased, with every run of CJK characters cut into overlapping character bigrams
    (a single character stays itself): text without spaces between words becomes units that match."""
    out: list[str] = []
    for word in word_tokens(text):
        last = 0
        for run in CJK_RUN.finditer(word):
            if run.start() > last:
                out.append(word[last:run.start()])
            chars = run.group()
            out.extend([chars] if len(chars) == 1 else [chars[i:i + 2] for i in range(len(chars) - 1)])
            last = run.end()
        if last < len(word):
            out.append(word[last:])
    return out


class Bm25Index:
    """An FTS5 BM25 index of messages by integer key (module doc)."""

    def __init__(self, tokens: Callable[[str], list[str]] | None = None) -> None:
        self.tokens = tokens
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE turns USING fts5(content, tokenize='unicode61')")

    def add(self, rows: Iterable[tuple[int, str]]) -> None:
        if self.tokens is not None:
            tokens = self.tokens
            rows = ((key, " ".join(tokens(text))) for key, text in rows)
        self.db.executemany("INSERT INTO turns(rowid, content) VALUES (?, ?)", rows)

    def search(self, question: str, limit: int = BM25_CANDIDATES) -> list[int]:
        """Keys best first for ``question``'s words, OR-combined."""
        words = list(dict.fromkeys((self.tokens or word_tokens)(question)))
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        rows = self.db.execute("SELECT rowid FROM turns WHERE turns MATCH ? ORDER BY bm25(turns) LIMIT ?",
                               (match, limit)).fetchall()
        return [r[0] for r in rows]


def dense_order(query: Sequence[float], keys: Sequence[int], matrix, limit: int = BM25_CANDIDATES) -> list[int]:
    """``keys`` by cosine to ``query``, best first (``matrix``: one unit row per key, numpy)."""
    import numpy as np

    if not len(keys):
        return []
    scores = matrix @ np.asarray(query, dtype=np.float32)
    top = np.argsort(-scores, kind="stable")[:limit]
    return [keys[i] for i in top]
