"""FTS5's bm25 ranking of an OR of phrases, computed from postings held in memory.

Recall ranks a question's words over the whole history; a common word matches
thousands of messages and FTS5's ``bm25()`` costs ~2-3 us for each (it reads the
message's length from ``<index>_docsize``): at 200,000 messages that ranking was
half of recall's time (bench/bench_recall_speed.py). So the app (not a one-shot
command, which would pay more to build than it saves) keeps a snapshot of the
index's postings in memory (:mod:`agenttui.core.history.postings_snapshot`, built
by a background thread) and ranks from it with FTS5's own arithmetic. A phrase a
message lacks adds exactly 0.0, so the score of an OR is its phrases' terms summed
in order, each the phrase's own bm25: the same doubles as SQLite's, ties broken the
same way (the newer message first). A prefix phrase (``"kevin"*``) is every kept
word it starts, their counts summed, as FTS5 reads it; a phrase the snapshot cannot
answer (several words, or a word left out) gets its terms from SQLite's bm25 of that
phrase alone, which is that very term. So a command's dry run (no postings) and the
app's turn build the same prompt (bench/check_postings_prompts.py: every prompt of
the three public dev sets).

The snapshot stays exact by two rules. Messages appended since (higher ids) are read
here through the index's own tokenizer (an in-memory FTS5 table) and add to ``n``.
Anything else -- a deletion, by this process or another -- shows in the index's
averages record, which must equal the snapshot's plus what was appended; when it
does not, SQLite ranks until a new snapshot is built. (A hand edit of a message's
text that keeps its length in tokens would not show; the store never edits a
message's text.)
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agenttui.core.history.postings_snapshot import (
    Snapshot,
    Tokenizer,
    build,
    idf_of,
    index_totals,
    size_of,
    sizes_query,
    starting,
    terms_of,
)

if TYPE_CHECKING:
    from agenttui.core.history.postings_snapshot import Array

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

    def terms(self, snapshot: Snapshot, key: Key) -> tuple[Array, Array]:
        """A kept word's (or prefix's) messages and their terms of the sum (the formula, as SQLite's)."""
        ids, tf, sizes = self.posting(snapshot, key)
        return ids, terms_of(idf_of(self.rows, len(ids)), tf, sizes, self.avgdl)

    def count(self, snapshot: Snapshot, key: Key) -> int:
        """How many messages hold a word, or any word a prefix starts."""
        word, prefix = key
        if prefix:
            return len(self.posting(snapshot, key)[0])
        start, end = snapshot.span(word) or (0, 0)
        return end - start + len(self.appended.words.get(word, ()))

    def posting(self, snapshot: Snapshot, key: Key) -> tuple[Array, Array, Array]:
        """The messages holding a word, or any word a prefix starts (FTS5's prefix phrase: its
        count in a message is all of theirs), each once, with that count and its length."""
        import numpy as np

        word, prefix = key
        if not prefix:
            return self._word(snapshot, word)
        parts = [self._word(snapshot, w) for w in snapshot.starting(word)]
        parts += [self._later(w) for w in starting(self.appended.ordered, word) if snapshot.span(w) is None]
        if not parts:
            return np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0)
        ids = np.concatenate([part[0] for part in parts])
        every, where = np.unique(ids, return_inverse=True)
        tf = np.bincount(where, weights=np.concatenate([part[1] for part in parts]), minlength=len(every))
        sizes = np.zeros(len(every), dtype=np.float64)
        sizes[where] = np.concatenate([part[2] for part in parts])
        return every, tf, sizes

    def _word(self, snapshot: Snapshot, word: str) -> tuple[Array, Array, Array]:
        import numpy as np

        start, end = snapshot.span(word) or (0, 0)  # not there: in no message then
        ids = snapshot.ids[start:end].astype(np.int64)
        tf = snapshot.tf[start:end].astype(np.float64)
        sizes = snapshot.sizes[ids]
        if word not in self.appended.words:
            return ids, tf, sizes
        later_ids, later_tf, later_sizes = self._later(word)
        return np.concatenate([ids, later_ids]), np.concatenate([tf, later_tf]), np.concatenate([sizes, later_sizes])

    def _later(self, word: str) -> tuple[Array, Array, Array]:
        import numpy as np

        later = self.appended.words.get(word, {})
        return (np.fromiter(later, dtype=np.int64, count=len(later)),
                np.fromiter(later.values(), dtype=np.float64, count=len(later)),
                np.array([self.appended.sizes[mid] for mid in later], dtype=np.float64))


class Bm25Postings:
    """The snapshot recall ranks from, kept up to date; ``ranked`` runs under the history store's lock."""

    def __init__(self) -> None:
        self._snapshot: Snapshot | None = None
        self._source: Callable[[], Path | None] | None = None  # set by ``keep``: snapshots are built and rebuilt
        self._words: dict[str, tuple[str, ...]] = {}  # phrase -> its words as the index holds them
        self._tokenizer: Tokenizer | None = None
        self._tokenize = ""  # what ``_tokenizer`` and ``_words`` were made with
        self._appended: _Appended | None = None
        self._score: Array | None = None  # ``_scratch``
        self._hit: Array | None = None
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

        parts: list[tuple[Array, Array]] = []  # each phrase's messages and terms
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

    def _scratch(self, size: int) -> tuple[Array, Array]:
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
        return (words[0], False) if snapshot.every_word or snapshot.span(words[0]) is not None else None

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
        totals = index_totals(db, snapshot.fts)
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
        later = db.execute(sizes_query(snapshot.fts, "WHERE id > ?"), (appended.newest,)).fetchall()
        sizes = {mid: size_of(record) for mid, record in later}
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
