"""A small in-memory FTS5 index over memory items and project-memory entries.

Notes, facts and the project's Markdown files live in JSON and Markdown, not
in the history database; to rank them with the same tokenizer (``porter
unicode61``, diacritics folded) and the same ``bm25()`` as past messages,
they are loaded into a ``:memory:`` SQLite FTS5 table. Building it for 2,000
notes takes a few milliseconds; it is rebuilt only when the documents change
(a fingerprint of their keys and texts), so a turn usually reuses it.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from agenttui.core.recall.text import fts_or_query


@dataclass(frozen=True)
class Document:
    key: str  # the caller's id: a memory item id, "project:decisions#3", ...
    text: str


class SideIndex:
    """bm25 search over a fixed set of documents (see the module doc)."""

    def __init__(self, documents: Sequence[Document]) -> None:
        self.keys = [d.key for d in documents]
        self._conn = sqlite3.connect(":memory:", check_same_thread=False)
        self._lock = threading.Lock()
        self._conn.execute(
            "CREATE VIRTUAL TABLE docs USING fts5(text, tokenize='porter unicode61 remove_diacritics 2')")
        self._conn.executemany("INSERT INTO docs(rowid, text) VALUES (?, ?)",
                               ((n, d.text) for n, d in enumerate(documents)))

    def search(self, terms: Sequence[str], limit: int) -> list[tuple[str, float]]:
        """(key, bm25) best first; bm25 is SQLite's (more negative = better)."""
        match = fts_or_query(tuple(terms))
        if match is None or limit <= 0 or not self.keys:
            return []
        with self._lock:
            try:
                rows = self._conn.execute(
                    "SELECT rowid, bm25(docs) FROM docs WHERE docs MATCH ? "
                    "ORDER BY bm25(docs), rowid DESC LIMIT ?", (match, int(limit))).fetchall()
            except sqlite3.OperationalError:
                return []
        return [(self.keys[rowid], float(score)) for rowid, score in rows]


def fingerprint(documents: Sequence[Document]) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for document in documents:
        digest.update(document.key.encode("utf-8", "replace") + b"\x00")
        digest.update(document.text.encode("utf-8", "replace") + b"\x01")
    return digest.hexdigest()


_cache: dict[str, SideIndex] = {}
_cache_lock = threading.Lock()
_CACHE_SIZE = 4  # a few profiles' worth; each index is small


def index_for(documents: Sequence[Document]) -> SideIndex:
    """The index of exactly these documents, reused while they do not change."""
    key = fingerprint(documents)
    with _cache_lock:
        index = _cache.get(key)
        if index is None:
            index = SideIndex(documents)
            while len(_cache) >= _CACHE_SIZE:
                _cache.pop(next(iter(_cache)))
            _cache[key] = index
        return index
