"""FTS5's bm25 ranking of an OR of phrases, computed from postings held in memory.

Recall ranks a question's words over the whole history; a common word matches
thousands of messages and FTS5's ``bm25()`` costs ~2-3 us for each (it reads the
message's length from ``<index>_docsize``): at 200,000 messages that ranking was
half of recall's time (bench/bench_recall_speed.py). So the app (not a one-shot
command, which would pay more to build than it saves) keeps the postings of the
index's common words in memory -- for each, the messages holding it and how often
-- read in one pass from FTS5's own index (``fts5vocab``) in a background thread,
and ranks from them with FTS5's own formula, in its own order of operations
(``fts5Bm25Function`` in SQLite's fts5_aux.c)::

    score = -(sum over the phrases, in order, of idf * (tf * (k1 + 1)) / (tf + k1 * (1 - b + b * D / avgdl)))

with ``idf = log((N - n + 0.5) / (n + 0.5))`` (1e-6 when not positive), ``n`` the
messages holding the phrase, ``N`` and ``avgdl`` the index's row count and mean
length from its averages record, ``D`` the message's length. A phrase a message
lacks adds exactly 0.0, so the score of an OR is its phrases' terms summed in
order, each the phrase's own bm25 -- the same doubles, bit for bit, as SQLite's,
ties broken the same way (the newer message first). A phrase without a kept
posting (a rare word, a prefix, several words) gets its terms from SQLite's bm25 of
that phrase alone, which is that very term. The result is exactly SQLite's, so a
command's dry run (no postings) and the app's turn build the same prompt; the
build checks this on its commonest words and keeps nothing where it does not hold
(a libm or a compiler that fuses multiply-adds differently).

The postings stay exact by two rules. Messages appended since (higher ids) are
ranked by SQLite for each phrase (``rowid > newest``, a bounded look-up) and add
to ``n``. Anything else -- a deletion, by this process or another -- shows in the
index's averages record, which must equal the snapshot's plus what was appended;
when it does not, SQLite ranks until a new snapshot is built. (A hand edit of a
message's text that keeps its length in tokens would not show; the store never
edits a message's text.)
"""

from __future__ import annotations

import math
import re
import sqlite3
import threading
import time
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: FTS5's bm25 parameters (fts5_aux.c)
K1 = 1.2
B = 0.75
#: A word in fewer messages is ranked by SQLite (1: every word is kept, while they fit).
COMMON_HITS = 1
#: (word, message) pairs kept at most (6 bytes each: 36 MB), the commonest words first.
MAX_PAIRS = 6_000_000
#: The commonest words whose postings are checked against SQLite's own ranking at each build.
CHECKED_WORDS = 3
#: Messages appended since the snapshot past which a new one is built.
MAX_APPENDED = 5_000
#: Seconds between two builds at least: a deletion in another process every few seconds must
#: not keep a core busy building.
REBUILD_EVERY_S = 30.0
#: Phrases whose words are kept at most (the words of a phrase are read by the tokenizer once).
MAX_PHRASES = 50_000
#: Ids per ``IN (...)``: under SQLite's bound-variable limit on every build.
_IDS_PER_QUERY = 500
_PHRASE = re.compile(r'"((?:[^"]|"")*)"\*?')
_WORD = re.compile(r"\w")
_DECLARED = re.compile(r"fts5\s*\((.*)\)", re.IGNORECASE | re.DOTALL)
_OPTION = re.compile(r"(?<!\w)(\w+)\s*=\s*'([^']*)'")  # from a word's start: linear
_NAME = re.compile(r"[A-Za-z_]\w*")
_TOKENIZE = re.compile(r"tokenize\s*=\s*'((?:[^']|'')*)'", re.IGNORECASE)


def phrases_of(match: str) -> list[str] | None:
    """The phrases of ``"a" OR "b"* OR ...`` (as :func:`recall.text.fts_or_query` writes it),
    or None for any other expression."""
    phrases: list[str] = []
    pos = 0
    while True:
        found = _PHRASE.match(match, pos)
        if found is None or not _WORD.search(found.group(1)):
            return None
        phrases.append(found.group(0))
        pos = found.end()
        if pos == len(match):
            return phrases
        if not match.startswith(" OR ", pos):
            return None
        pos += 4


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's variable-length integer at ``at``: (value, next position)."""
    value = 0
    for step in range(8):
        byte = data[at + step]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + step + 1
    return (value << 8) | data[at + 8], at + 9


def _size(record: bytes | int | None) -> int:
    """A message's length in tokens from its ``_docsize`` record (one column: one varint)."""
    if isinstance(record, int):  # a one-byte record handed over as a number (``_sizes_query``)
        return record
    return _varint(bytes(record or b"\0"), 0)[0]


def _sizes_query(fts: str, where: str = "") -> str:
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


def _totals(db: sqlite3.Connection, fts: str) -> tuple[int, int] | None:
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


def _idf(rows: int, hits: int) -> float:
    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    return 1e-6 if idf <= 0.0 else idf


def _terms(idf: float, tf: np.ndarray, size: np.ndarray, avgdl: float) -> np.ndarray:
    """Each message's term of the sum, as fts5Bm25Function computes it."""
    return idf * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + B * size / avgdl)))


@dataclass(frozen=True)
class Snapshot:
    """The common words' postings of one index as it was at one moment."""

    fts: str
    tokenize: str  # the index's tokenizer, which phrases are read with
    texts: str  # the query of the indexed text of messages by id (``{}``: the ids' placeholders)
    newest: int  # the highest message id then
    rows: int  # the averages record then
    tokens: int
    slices: dict[str, tuple[int, int]]  # word (as indexed) -> its part of ``ids``/``tf``
    ids: npt.NDArray[np.int32]
    tf: npt.NDArray[np.uint16]
    sizes: npt.NDArray[np.float64]  # by message id, up to ``newest``
    every_word: bool  # every word of the index then is in ``slices``: a word not there was in no message

    @cached_property
    def ordered(self) -> list[str]:
        """The kept words in FTS5's order (UTF-8 bytes, which is code points'): a prefix's are a run."""
        return sorted(self.slices)

    @property
    def pairs(self) -> int:
        return len(self.ids)


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
        totals = _totals(db, fts)
        if totals is None or totals[0] <= 0:
            return None
        db.execute(f"CREATE VIRTUAL TABLE temp.postings_rows USING fts5vocab(main, {fts}, row)")
        db.execute(f"CREATE VIRTUAL TABLE temp.postings_each USING fts5vocab(main, {fts}, instance)")
        common = db.execute("SELECT term, doc FROM temp.postings_rows WHERE doc >= ? ORDER BY doc DESC",
                            (COMMON_HITS,)).fetchall()
        chosen: list[str] = []
        pairs = 0
        for term, hits in common:
            if pairs + hits > MAX_PAIRS:
                continue  # a smaller one may still fit
            chosen.append(term)
            pairs += hits
        if not chosen:
            return None
        sizes = _all_sizes(db, fts)
        newest = len(sizes) - 1
        wanted = set(chosen)
        slices: dict[str, tuple[int, int]] = {}
        id_parts: list[np.ndarray] = []
        tf_parts: list[np.ndarray] = []
        at = 0
        # every instance's message id, a word's as text in one value, in one pass in the words'
        # order (fts5vocab's own): a row per instance costs ~3x, a look-up per word ~1.5x
        for term, listed in db.execute("SELECT term, group_concat(doc) FROM temp.postings_each GROUP BY term"):
            if term not in wanted:
                continue
            ids, counts = np.unique(np.fromstring(listed, dtype=np.int64, sep=","), return_counts=True)
            if counts.max() > 0xFFFF:  # a word 65,536 times in one message (a pasted log): SQLite ranks it
                continue
            slices[term] = (at, at + len(ids))
            at += len(ids)
            id_parts.append(ids.astype(np.int32))
            tf_parts.append(counts.astype(np.uint16))
        every_word = COMMON_HITS <= 1 and len(slices) == len(common)
        snapshot = Snapshot(fts, tokenize.group(1).replace("''", "'") if tokenize else "unicode61", texts, newest,
                            totals[0], totals[1], slices, np.concatenate(id_parts), np.concatenate(tf_parts),
                            sizes, every_word)
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
                   if word in snapshot.slices and seen == (word,)][:CHECKED_WORDS]
    finally:
        tokenizer.close()
    avgdl = float(snapshot.tokens) / float(snapshot.rows)
    for word in checked:
        start, end = snapshot.slices[word]
        ids = snapshot.ids[start:end]
        found = dict(db.execute(f"SELECT rowid, bm25({snapshot.fts}) FROM {snapshot.fts} "
                                f"WHERE {snapshot.fts} MATCH ?", ('"' + word + '"',)).fetchall())
        if sorted(found) != ids.tolist():
            return False
        terms = _terms(_idf(snapshot.rows, len(ids)), snapshot.tf[start:end].astype(np.float64),
                       snapshot.sizes[ids], avgdl)
        if not np.array_equal(terms, -np.array([found[mid] for mid in ids.tolist()], dtype=np.float64)):
            return False
    return bool(checked)


#: What a phrase is to the postings: (a word as the index holds it, whether it is a prefix)
Key = tuple[str, bool]


class _Appended:
    """The messages appended since a snapshot (few), as the index's tokenizer reads them."""

    def __init__(self, after: int) -> None:
        self.after = after  # the snapshot's newest id
        self.newest = after
        self.tokens = 0
        self.sizes: dict[int, int] = {}
        self.words: dict[str, dict[int, int]] = {}  # word -> message -> how often
        self._ordered: list[str] | None = None

    @property
    def ordered(self) -> list[str]:
        if self._ordered is None:
            self._ordered = sorted(self.words)
        return self._ordered

    def add(self, message_id: int, words: tuple[str, ...]) -> None:
        self._ordered = None
        self.sizes[message_id] = len(words)
        self.tokens += len(words)
        self.newest = max(self.newest, message_id)
        for word, count in Counter(words).items():
            self.words.setdefault(word, {})[message_id] = count


@dataclass(frozen=True)
class _Now:
    """The index's statistics now, and what was appended since the snapshot."""

    rows: int
    avgdl: float
    appended: _Appended

    def terms(self, snapshot: Snapshot, key: Key) -> tuple[np.ndarray, np.ndarray]:
        """A kept word's (or prefix's) messages and their terms of the sum (the formula, as SQLite's)."""
        ids, tf, sizes = self.posting(snapshot, key)
        return ids, _terms(_idf(self.rows, len(ids)), tf, sizes, self.avgdl)

    def count(self, snapshot: Snapshot, key: Key) -> int:
        """How many messages hold a word, or any word a prefix starts."""
        word, prefix = key
        if prefix:
            return len(self.posting(snapshot, key)[0])
        start, end = snapshot.slices.get(word, (0, 0))
        return end - start + len(self.appended.words.get(word, ()))

    def posting(self, snapshot: Snapshot, key: Key) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The messages holding a word, or any word a prefix starts (FTS5's prefix phrase: its
        count in a message is all of theirs), each once, with that count and its length."""
        import numpy as np

        word, prefix = key
        if not prefix:
            return self._word(snapshot, word)
        parts = [self._word(snapshot, w) for w in _starting(snapshot.ordered, word)]
        parts += [self._later(w) for w in _starting(self.appended.ordered, word) if w not in snapshot.slices]
        if not parts:
            return np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0)
        ids = np.concatenate([part[0] for part in parts])
        every, where = np.unique(ids, return_inverse=True)
        tf = np.bincount(where, weights=np.concatenate([part[1] for part in parts]), minlength=len(every))
        sizes = np.zeros(len(every), dtype=np.float64)
        sizes[where] = np.concatenate([part[2] for part in parts])
        return every, tf, sizes

    def _word(self, snapshot: Snapshot, word: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        import numpy as np

        start, end = snapshot.slices.get(word, (0, 0))  # not there: in no message then
        ids = snapshot.ids[start:end].astype(np.int64)
        tf = snapshot.tf[start:end].astype(np.float64)
        sizes = snapshot.sizes[ids]
        if word not in self.appended.words:
            return ids, tf, sizes
        later_ids, later_tf, later_sizes = self._later(word)
        return np.concatenate([ids, later_ids]), np.concatenate([tf, later_tf]), np.concatenate([sizes, later_sizes])

    def _later(self, word: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        import numpy as np

        later = self.appended.words.get(word, {})
        return (np.fromiter(later, dtype=np.int64, count=len(later)),
                np.fromiter(later.values(), dtype=np.float64, count=len(later)),
                np.array([self.appended.sizes[mid] for mid in later], dtype=np.float64))


def _starting(ordered: list[str], prefix: str) -> list[str]:
    """The words of a sorted list that start with ``prefix``."""
    at = bisect_left(ordered, prefix)
    end = at
    while end < len(ordered) and ordered[end].startswith(prefix):
        end += 1
    return ordered[at:end]


class Bm25Postings:
    """The snapshot recall ranks from, kept up to date; ``ranked`` runs under the history store's lock."""

    def __init__(self) -> None:
        self._snapshot: Snapshot | None = None
        self._source: Callable[[], Path | None] | None = None  # set by ``keep``: snapshots are built and rebuilt
        self._words: dict[str, tuple[str, ...]] = {}  # phrase -> its words as the index holds them
        self._tokenizer: Tokenizer | None = None
        self._tokenize = ""  # what ``_tokenizer`` and ``_words`` were made with
        self._appended: _Appended | None = None
        self._score: np.ndarray | None = None  # ``_scratch``
        self._hit: np.ndarray | None = None
        self._known: tuple[Snapshot, tuple[object, object], _Now] | None = None  # the last ``_now``
        self._building = threading.Lock()
        self._built_at = -REBUILD_EVERY_S

    @property
    def snapshot(self) -> Snapshot | None:
        return self._snapshot

    def keep(self, source: Callable[[], Path | None], *, wait: bool = True) -> None:
        """Build a snapshot of the database ``source`` names (it opens it first; None: nothing
        to build) now, in the caller's thread when ``wait``, else in a background one; and a
        new one in the background whenever it falls behind (a deletion, many appends)."""
        self._source = source
        if wait:
            self._build()
        else:
            threading.Thread(target=self._build, name="bm25-postings", daemon=True).start()

    def _build(self) -> None:
        if self._source is None or not self._building.acquire(blocking=False):
            return
        try:
            self._built_at = time.monotonic()
            try:
                path = self._source()
                snapshot = None if path is None else build(path)
            except Exception:  # noqa: BLE001 -- in a thread of its own, where nothing may escape
                snapshot = None  # (a traceback on stderr would land on the app's screen): SQLite ranks
            self._snapshot = snapshot
        finally:
            self._building.release()

    def _rebuild(self, stale: Snapshot | None) -> None:
        """A new snapshot in the background (at most one each ``REBUILD_EVERY_S``) in place of
        ``stale``; until it is in, SQLite ranks."""
        if self._snapshot is stale:  # not one a build put in meanwhile
            self._snapshot = None
        if (self._source is not None and not self._building.locked()
                and time.monotonic() - self._built_at >= REBUILD_EVERY_S):
            self.keep(self._source, wait=False)

    def _usable(self, fts: str) -> Snapshot | None:
        snapshot = self._snapshot
        if snapshot is None:
            self._rebuild(None)  # kept, and the last build failed or fell behind: try again, in time
        return snapshot if snapshot is not None and snapshot.fts == fts else None

    def _learn(self, snapshot: Snapshot, phrases: Sequence[str]) -> None:
        """Read the words of the phrases not read before (``"..."`` or ``"..."*``) with the
        index's tokenizer, all in one batch."""
        if self._tokenizer is None or self._tokenize != snapshot.tokenize:
            if self._tokenizer is not None:
                self._tokenizer.close()
            self._tokenizer, self._tokenize, self._words = Tokenizer(snapshot.tokenize), snapshot.tokenize, {}
        new = list(dict.fromkeys(p for p in phrases if p not in self._words))
        if not new:
            return
        if len(self._words) + len(new) > MAX_PHRASES:
            self._words = {}
        read = self._tokenizer.words([phrase.removesuffix("*")[1:-1].replace('""', '"') for phrase in new])
        self._words.update(zip(new, read, strict=True))

    def ranked(self, db: sqlite3.Connection, fts: str, match: str, before_id: int | None,
               limit: int) -> list[tuple[int, float]] | None:
        """``SELECT rowid, bm25(fts) ... WHERE fts MATCH match [AND rowid < before_id]
        ORDER BY bm25, rowid DESC LIMIT limit``, or None when SQLite must be asked."""
        snapshot = self._usable(fts)
        if snapshot is None:
            return None
        phrases = phrases_of(match)
        if phrases is None:
            return None
        self._learn(snapshot, phrases)
        keys = [self._key(snapshot, phrase) for phrase in phrases]
        if all(key is None for key in keys):
            return None  # nothing common: SQLite's one look-up is as quick
        now = self._now(db, snapshot)
        if now is None:
            return None
        import numpy as np

        parts: list[tuple[np.ndarray, np.ndarray]] = []  # each phrase's messages and terms
        for phrase, key in zip(phrases, keys, strict=True):
            if key is None:  # a phrase alone scores each message -1.0 * (0.0 + its term): the term, exactly
                found = db.execute(f"SELECT rowid, bm25({fts}) FROM {fts} WHERE {fts} MATCH ?", (phrase,)).fetchall()
                parts.append((np.array([mid for mid, _ in found], dtype=np.int64),
                              -np.array([score for _, score in found], dtype=np.float64)))
            else:
                parts.append(now.terms(snapshot, key))
        top = max(snapshot.newest, now.appended.newest, *(int(ids.max()) for ids, _ in parts if len(ids)))
        score, hit = self._scratch(top + 1)  # by message id: no sort to bring a message's terms together
        try:
            for ids, terms in parts:  # in the phrases' order: the additions are SQLite's, one by one
                score[ids] += terms  # a message is once in a phrase's posting
                hit[ids] = True
            found_ids = np.flatnonzero(hit)
            scores = -1.0 * score[found_ids]
            score[found_ids], hit[found_ids] = 0.0, False  # left as found, for the next ranking
        except BaseException:
            self._score = self._hit = None  # not left zeroed
            raise
        if before_id is not None:
            below = found_ids < before_id
            found_ids, scores = found_ids[below], scores[below]
        if len(found_ids) > 4 * limit > 0:  # the best ``limit`` and their ties, before the full sort
            best = scores <= np.partition(scores, limit - 1)[limit - 1]
            found_ids, scores = found_ids[best], scores[best]
        order = np.lexsort((-found_ids, scores))[:max(0, limit)]
        return list(zip(found_ids[order].tolist(), scores[order].tolist(), strict=True))

    def _scratch(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        """Zeroed arrays of scores and hits by message id, kept between rankings (each ranking
        zeroes what it touched: clearing 200,000 entries cost more than the ranking's sums)."""
        import numpy as np

        if self._score is None or len(self._score) < size:
            self._score = np.zeros(size + 4096, dtype=np.float64)  # room for the next appends
            self._hit = np.zeros(size + 4096, dtype=np.bool_)
        assert self._hit is not None
        return self._score[:size], self._hit[:size]

    def hits(self, db: sqlite3.Connection, fts: str, phrases: Sequence[str]) -> list[int | None]:
        """How many messages hold each phrase (``SELECT COUNT(*) ... MATCH phrase``); None
        for one SQLite must count."""
        snapshot = self._usable(fts)
        if snapshot is None:
            return [None] * len(phrases)
        self._learn(snapshot, phrases)
        keys = [self._key(snapshot, phrase) for phrase in phrases]
        now = None if all(key is None for key in keys) else self._now(db, snapshot)
        if now is None:
            return [None] * len(phrases)
        return [None if key is None else now.count(snapshot, key) for key in keys]

    def _key(self, snapshot: Snapshot, phrase: str) -> Key | None:
        """What the postings answer a phrase with: one word kept, or a prefix when every word
        was (its words are then all there); None for several words, or a word not kept."""
        words = self._words.get(phrase)  # read by ``_learn``
        if words is None or len(words) != 1:
            return None
        if phrase.endswith("*"):
            # the prefix is read as a word is (porter stems it too); FTS5 matches every word it starts
            return (words[0], True) if snapshot.every_word else None
        return (words[0], False) if snapshot.every_word or words[0] in snapshot.slices else None

    def _now(self, db: sqlite3.Connection, snapshot: Snapshot) -> _Now | None:
        """The index now, when the snapshot still holds (module doc); else None, and a new
        snapshot is built. Messages appended since are read here, through the tokenizer."""
        # the averages record and the newest id: any append raises the one, any deletion changes
        # the other's count; while both are as last time, so is everything read below
        record, newest = db.execute(f"SELECT (SELECT block FROM {snapshot.fts}_data WHERE id = 1), "
                                    f"(SELECT MAX(id) FROM {snapshot.fts}_docsize)").fetchone()
        known = self._known
        if known is not None and known[0] is snapshot and known[1] == (record, newest):
            return known[2]
        now = self._read_now(db, snapshot)
        self._known = (snapshot, (record, newest), now) if now is not None else None
        return now

    def _read_now(self, db: sqlite3.Connection, snapshot: Snapshot) -> _Now | None:
        totals = _totals(db, snapshot.fts)
        kept = self._appended
        self._appended = None  # until caught up: a failed attempt leaves nothing half-read
        now = None
        if totals is not None:
            if kept is not None and kept.after == snapshot.newest:  # only what was appended since last time
                now = self._caught_up(db, snapshot, kept, totals)
            if now is None:  # a new snapshot, or an appended message deleted: all of them again
                now = self._caught_up(db, snapshot, _Appended(snapshot.newest), totals)
        if now is None:
            self._rebuild(snapshot)
        return now

    def _caught_up(self, db: sqlite3.Connection, snapshot: Snapshot, appended: _Appended,
                   totals: tuple[int, int]) -> _Now | None:
        """``appended`` with the messages appended after its newest, when the index's totals are
        the snapshot's plus theirs (else None: a message of the snapshot, or one of these, is gone)."""
        later = db.execute(_sizes_query(snapshot.fts, "WHERE id > ?"), (appended.newest,)).fetchall()
        sizes = {mid: _size(record) for mid, record in later}
        if (len(appended.sizes) + len(sizes) > MAX_APPENDED
                or totals[0] != snapshot.rows + len(appended.sizes) + len(sizes)
                or totals[1] != snapshot.tokens + appended.tokens + sum(sizes.values())):
            return None
        new = list(sizes)
        for start in range(0, len(new), _IDS_PER_QUERY):
            chunk = new[start:start + _IDS_PER_QUERY]
            read = db.execute(snapshot.texts.format(", ".join("?" * len(chunk))), chunk).fetchall()
            if len(read) != len(chunk) or self._tokenizer is None:
                return None
            for (mid, _), words in zip(read, self._tokenizer.words([text or "" for _, text in read]), strict=True):
                if len(words) != sizes[mid]:  # not what the index read: SQLite ranks
                    return None
                appended.add(mid, words)
        self._appended = appended
        return _Now(totals[0], float(totals[1]) / float(totals[0]), appended)
