"""A snapshot of an FTS5 index's postings, read in one pass, and the bm25 arithmetic of FTS5.

For each word of the index (as the tokenizer wrote it: ``porter``-stemmed, diacritics
folded), the messages holding it and how often, with every message's length in tokens
and the index's totals: what FTS5's ``bm25()`` reads, read once from FTS5's own tables
(``fts5vocab``, ``<index>_docsize``, the averages record) on a read-only connection of
its own, in one read transaction. :mod:`agenttui.core.history.bm25_postings` ranks from
it and keeps it exact.

The arithmetic is FTS5's (``fts5Bm25Function`` in SQLite's fts5_aux.c), in its order of
operations, so the doubles are SQLite's to the last bit::

    score = -(sum over the phrases, in order, of idf * (tf * (k1 + 1)) / (tf + k1 * (1 - b + b * D / avgdl)))

with ``idf = log((N - n + 0.5) / (n + 0.5))`` (1e-6 when not positive), ``n`` the messages
holding the phrase, ``N`` and ``avgdl`` the index's row count and mean length, ``D`` the
message's length. Each build checks this against SQLite on a few words and keeps nothing
where it does not hold (a libm, or a compiler that fuses multiply-adds, of another kind).
"""

from __future__ import annotations

import math
import re
import sqlite3
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, TypeAlias

    import numpy as np
    import numpy.typing as npt

    #: An array of any element type (NumPy 1.24's stubs want the type argument spelt out)
    Array: TypeAlias = npt.NDArray[Any]

#: FTS5's bm25 parameters (fts5_aux.c)
K1 = 1.2
B = 0.75
#: A word in fewer messages is left to SQLite (1: every word is kept, while they fit).
COMMON_HITS = 1
#: (word, message) pairs kept at most (6 bytes each: 36 MB), the commonest words first.
MAX_PAIRS = 6_000_000
#: Words kept at most, the commonest first (~70 bytes each: 21 MB); past it, the rarest
#: are left to SQLite, and so are prefixes.
MAX_WORDS = 300_000
#: The words whose postings are checked against SQLite's own ranking at each build.
CHECKED_WORDS = 3
_DECLARED = re.compile(r"fts5\s*\((.*)\)", re.IGNORECASE | re.DOTALL)
_OPTION = re.compile(r"(?<!\w)(\w+)\s*=\s*'([^']*)'")  # from a word's start: linear
_NAME = re.compile(r"[A-Za-z_]\w*")
_TOKENIZE = re.compile(r"tokenize\s*=\s*'((?:[^']|'')*)'", re.IGNORECASE)


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's variable-length integer at ``at``: (value, next position)."""
    value = 0
    for step in range(8):
        byte = data[at + step]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + step + 1
    return (value << 8) | data[at + 8], at + 9


def size_of(record: bytes | int | None) -> int:
    """A message's length in tokens from its ``_docsize`` record (one column: one varint)."""
    if isinstance(record, int):  # a one-byte record handed over as a number (``_sizes_query``)
        return record
    return _varint(bytes(record or b"\0"), 0)[0]


def sizes_query(fts: str, where: str = "") -> str:
    # a record below 128 tokens is one byte: SQL hands it over as a number, no bytes object
    return (f"SELECT id, CASE WHEN length(sz) = 1 THEN unicode(CAST(sz AS TEXT)) ELSE sz END "
            f"FROM {fts}_docsize {where}")


def _texts_query(fts: str, sql: str) -> str | None:
    """The query of the text an FTS5 table of one column indexed for given ids, from its
    ``CREATE`` statement (its external content table, or itself); None for another shape."""
    declared = _DECLARED.search(sql)
    if declared is None:
        return None
    arguments = [part.strip() for part in declared.group(1).split(",")]
    columns = [part for part in arguments if "=" not in part]
    options = dict(_OPTION.findall(declared.group(1)))
    if len(columns) != 1 or not _NAME.fullmatch(columns[0]):
        return None
    table, rowid = options.get("content", fts), options.get("content_rowid", "rowid")
    if not table or not _NAME.fullmatch(table) or not _NAME.fullmatch(rowid):
        return None  # contentless, or a name this does not quote
    return f"SELECT {rowid}, {columns[0]} FROM {table} WHERE {rowid} IN ({{}})"


def _all_sizes(db: sqlite3.Connection, fts: str) -> npt.NDArray[np.float64]:
    """Every message's length in tokens, by id (0 where none), decoded from ``_docsize`` at once."""
    import numpy as np

    ids, records, lengths = db.execute(
        f"SELECT group_concat(id), group_concat(hex(sz), ''), group_concat(length(sz)) FROM {fts}_docsize"
    ).fetchone()
    if not ids:
        return np.zeros(1, dtype=np.float64)
    mids = np.fromstring(ids, dtype=np.int64, sep=",")
    length = np.fromstring(lengths, dtype=np.int64, sep=",")
    data = np.frombuffer(bytes.fromhex(records), dtype=np.uint8).astype(np.int64)
    if len(length) != len(mids) or length.min() < 1 or length.max() > 8:  # not one varint each
        raise sqlite3.DatabaseError(f"{fts}_docsize holds records of another shape")
    starts = np.concatenate([[0], np.cumsum(length)[:-1]])
    value = np.zeros(len(mids), dtype=np.int64)
    for k in range(int(length.max())):  # a varint: 7 bits a byte, high bit set on all but the last
        more = length > k
        value[more] = (value[more] << 7) | (data[starts[more] + k] & 0x7F)
    sizes = np.zeros(int(mids.max()) + 1, dtype=np.float64)
    sizes[mids] = value
    return sizes


def index_totals(db: sqlite3.Connection, fts: str) -> tuple[int, int] | None:
    """(rows, tokens) of the index, from its averages record (what ``xRowCount`` and
    ``xColumnTotalSize`` read)."""
    row = db.execute(f"SELECT block FROM {fts}_data WHERE id = 1").fetchone()
    if row is None or not row[0]:
        return None
    data = bytes(row[0])
    rows, at = _varint(data, 0)
    tokens = 0
    while at < len(data):
        count, at = _varint(data, at)
        tokens += count
    return rows, tokens


def idf_of(rows: int, hits: int) -> float:
    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    return 1e-6 if idf <= 0.0 else idf


def terms_of(idf: float, tf: Array, size: Array, avgdl: float) -> Array:
    """Each message's term of the sum, as fts5Bm25Function computes it."""
    terms: Array = idf * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + B * size / avgdl)))
    return terms


@dataclass(frozen=True)
class Snapshot:
    """The common words' postings of one index as it was at one moment."""

    fts: str
    tokenize: str  # the index's tokenizer, which phrases are read with
    texts: str  # the query of the indexed text of messages by id (``{}``: the ids' placeholders)
    newest: int  # the highest message id then
    rows: int  # the averages record then
    tokens: int
    # the kept words (as indexed), in FTS5's order (UTF-8 bytes, which is code points', so
    # Python's): a list and an array, not a dict of tuples (~70 bytes a word instead of ~200)
    words: list[str]
    starts: npt.NDArray[np.int64]  # word i's postings are ids[starts[i]:starts[i + 1]]
    ids: npt.NDArray[np.int32]
    tf: npt.NDArray[np.uint16]
    sizes: npt.NDArray[np.float64]  # by message id, up to ``newest``
    every_word: bool  # every word of the index then is kept: a word not there was in no message

    @property
    def pairs(self) -> int:
        return len(self.ids)

    def span(self, word: str) -> tuple[int, int] | None:
        """Where ``word``'s postings are in ``ids``/``tf``; None when it is not kept."""
        at = bisect_left(self.words, word)
        if at == len(self.words) or self.words[at] != word:
            return None
        return int(self.starts[at]), int(self.starts[at + 1])

    def starting(self, prefix: str) -> list[str]:
        """The kept words that start with ``prefix`` (a run of ``words``)."""
        return starting(self.words, prefix)


def starting(ordered: list[str], prefix: str) -> list[str]:
    """The words of a sorted list that start with ``prefix``."""
    at = bisect_left(ordered, prefix)
    end = at
    while end < len(ordered) and ordered[end].startswith(prefix):
        end += 1
    return ordered[at:end]


def build(db_path: Path, fts: str = "messages_fts") -> Snapshot | None:
    """The postings of ``fts``'s common words, read on a connection of its own (read-only,
    one read transaction); None when there is nothing worth keeping or they would not rank
    exactly as SQLite does."""
    import numpy as np

    db = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    try:
        db.execute("BEGIN")
        sql = db.execute("SELECT sql FROM sqlite_master WHERE name = ?", (fts,)).fetchone()
        texts = _texts_query(fts, sql[0] if sql and sql[0] else "")
        tokenize = _TOKENIZE.search(sql[0]) if sql and sql[0] else None
        if texts is None:
            return None
        totals = index_totals(db, fts)
        if totals is None or totals[0] <= 0:
            return None
        db.execute(f"CREATE VIRTUAL TABLE temp.postings_rows USING fts5vocab(main, {fts}, row)")
        db.execute(f"CREATE VIRTUAL TABLE temp.postings_each USING fts5vocab(main, {fts}, instance)")
        common = db.execute("SELECT term, doc FROM temp.postings_rows WHERE doc >= ? ORDER BY doc DESC",
                            (COMMON_HITS,)).fetchall()
        chosen: list[str] = []
        pairs = 0
        for term, hits in common:
            if pairs + hits > MAX_PAIRS or len(chosen) >= MAX_WORDS:
                continue  # a smaller one may still fit
            chosen.append(term)
            pairs += hits
        if not chosen:
            return None
        sizes = _all_sizes(db, fts)
        newest = len(sizes) - 1
        wanted = set(chosen)
        words: list[str] = []
        starts = [0]
        id_parts: list[Array] = []
        tf_parts: list[Array] = []
        # every instance's message id, a word's as text in one value, in one pass in the words'
        # order (fts5vocab's own): a row per instance costs ~3x, a look-up per word ~1.5x
        for term, listed in db.execute("SELECT term, group_concat(doc) FROM temp.postings_each GROUP BY term"):
            if term not in wanted:
                continue
            ids, counts = np.unique(np.fromstring(listed, dtype=np.int64, sep=","), return_counts=True)
            if counts.max() > 0xFFFF:  # a word 65,536 times in one message (a pasted log): SQLite ranks it
                continue
            words.append(term)
            starts.append(starts[-1] + len(ids))
            id_parts.append(ids.astype(np.int32))
            tf_parts.append(counts.astype(np.uint16))
        if any(a >= b for a, b in pairwise(words)):  # not in Python's order: bisect would miss
            return None
        every_word = COMMON_HITS <= 1 and len(words) == len(common)
        snapshot = Snapshot(fts, tokenize.group(1).replace("''", "'") if tokenize else "unicode61", texts, newest,
                            totals[0], totals[1], words, np.array(starts, dtype=np.int64),
                            np.concatenate(id_parts), np.concatenate(tf_parts), sizes, every_word)
        # words of middling frequency: the check is of the arithmetic, and costs their matches
        exact = _ranks_as_sqlite(db, snapshot, chosen[len(chosen) // 2:][:CHECKED_WORDS * 4])
        db.execute("COMMIT")
    finally:
        db.close()
    return snapshot if exact else None


class Tokenizer:
    """FTS5's tokenizer of one index, run on texts (an in-memory table and its vocabulary)."""

    def __init__(self, tokenize: str) -> None:
        self._db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        quoted = tokenize.replace("'", "''")
        self._db.execute(f"CREATE VIRTUAL TABLE words USING fts5(x, tokenize='{quoted}')")
        self._db.execute("CREATE VIRTUAL TABLE words_each USING fts5vocab(words, instance)")

    def words(self, texts: Sequence[str]) -> list[tuple[str, ...]]:
        """Each text's words, in order, as the index holds them (~10 us a short text in a
        batch, ~70 alone: the table's writes are rolled back, never deleted)."""
        found: list[list[str]] = [[] for _ in texts]
        self._db.execute("BEGIN")
        try:
            self._db.executemany("INSERT INTO words(rowid, x) VALUES (?, ?)", enumerate(texts))
            for doc, term in self._db.execute("SELECT doc, term FROM words_each ORDER BY doc, offset"):
                found[doc].append(term)
        finally:
            self._db.execute("ROLLBACK")
        return [tuple(words) for words in found]

    def close(self) -> None:
        self._db.close()


def _ranks_as_sqlite(db: sqlite3.Connection, snapshot: Snapshot, words: list[str]) -> bool:
    """Do the postings of the first words that are their own phrase give SQLite's very doubles?"""
    import numpy as np

    tokenizer = Tokenizer(snapshot.tokenize)
    try:
        read = tokenizer.words(words)
        checked = [word for word, seen in zip(words, read, strict=True)
                   if snapshot.span(word) is not None and seen == (word,)][:CHECKED_WORDS]
    finally:
        tokenizer.close()
    avgdl = float(snapshot.tokens) / float(snapshot.rows)
    for word in checked:
        start, end = snapshot.span(word) or (0, 0)
        ids = snapshot.ids[start:end]
        found = dict(db.execute(f"SELECT rowid, bm25({snapshot.fts}) FROM {snapshot.fts} "
                                f"WHERE {snapshot.fts} MATCH ?", ('"' + word + '"',)).fetchall())
        if sorted(found) != ids.tolist():
            return False
        terms = terms_of(idf_of(snapshot.rows, len(ids)), snapshot.tf[start:end].astype(np.float64),
                       snapshot.sizes[ids], avgdl)
        if not np.array_equal(terms, -np.array([found[mid] for mid in ids.tolist()], dtype=np.float64)):
            return False
    return bool(checked)
