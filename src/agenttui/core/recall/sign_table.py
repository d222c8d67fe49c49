"""The newest vectors' sign bits and int8 codes, kept in memory for ranking (NumPy).

Ranking's first pass (:mod:`agenttui.core.recall.embeddings`) compares the
query's sign bits with every stored vector's. Read from SQLite on every turn
that cost ~0.75 µs a vector in Python, ~75 ms for the newest 100,000, before
the exact pass; kept here (``dim/8`` bytes a row: 4.8 MB for 100,000 vectors
of 384 dimensions) the Hamming distances are an XOR and a popcount a 64-bit
word. The words are kept column-major (:func:`columns`): every row's first
word in one contiguous array, then every row's second..., which halves the
time of the row-major matrix (2 ms instead of 4 for 100,000 x 384 bits).

The table also holds the newest rows' int8 codes
(:mod:`~agenttui.core.recall.vector_codes`), which spare the exact pass most
of its reads: made from the vectors when the table loads (~0.7 s CPU for
100,000 of 384 dims, once a session), and kept row for row with the bits.
Only a table asked to (``coding``: ``EmbeddingIndex.load_tables``, which the
app runs in the background at start-up) makes them: a process that ranks once
(``agenttui ask``) would spend 0.7 s to save ~15 ms of reads, so without codes
the exact pass reads the whole pool, as it did before codes.

Rows are ordered newest first (message ids descending). What changes under the
table, and how it follows:

* a vector for a message newer than the newest row (the chat's backfill of new
  messages, in this process or another): read at the next ranking, a range
  query over the covering index (``message_id > newest``), its codes from its
  vector;
* anything else another connection wrote -- a backfill of older messages, a
  deletion -- is read by a full reload, at most every ``RELOAD_S`` seconds
  and only when the database changed meanwhile (``PRAGMA data_version``);
  such a reload makes every code anew, as another process may have replaced a
  vector (a message edited, then embedded again). Until then a replaced
  vector's old codes may leave it out of the exact pass, as its old sign bits
  may leave it out of the pool;
* this process's own stores of older vectors reload at the next ranking, the
  codes of the rows it kept reused and those of the vectors it stored made;
* a deleted message's row may stay in the table until then: the exact pass
  reads its vector from the database, finds none and drops it (and, as the
  codes' bounds counted on it, reads the rest of the pool).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from agenttui.core.recall.vector_codes import VectorCodes, capacity

_CODE_STEP = 4_096  # vectors read and coded at a time when the codes are made
RELOAD_S = 300.0  # the longest another process's older vectors or deletions stay unseen

_M1, _M2, _M4 = (np.uint64(0x5555555555555555), np.uint64(0x3333333333333333),
                 np.uint64(0x0F0F0F0F0F0F0F0F))
_M8, _LANES_SUM = np.uint64(0x00FF00FF00FF00FF), np.uint64(0x0001000100010001)
_ONE, _TWO, _FOUR, _EIGHT, _TOP = map(np.uint64, (1, 2, 4, 8, 48))


def columns(bits: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint64]:
    """Rows of sign bits (uint8, ``width`` bytes a row) as 64-bit words, column-major: one
    contiguous array of every row's first word, then the second... (zero-padded to 64 bits).
    The distances then run over contiguous arrays: half the time of the row-major words."""
    rows, width = bits.shape
    padded = np.zeros((rows, -(-width // 8) * 8), dtype=np.uint8)
    padded[:, :width] = bits
    return np.ascontiguousarray(padded.view(np.uint64).T)


def hamming(rows: npt.NDArray[np.uint8], query: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """Bits that differ between each row of ``rows`` and ``query`` (uint8 arrays)."""
    return hamming_columns(columns(rows), columns(np.asarray(query, dtype=np.uint8)[None, :])[:, 0])


def hamming_columns(words: npt.NDArray[np.uint64], query: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """:func:`hamming` of rows given by :func:`columns` and a query's words (``columns`` of it)."""
    total = np.zeros(words.shape[1], dtype=np.int64)
    differ = np.empty(words.shape[1], dtype=np.uint64)
    if hasattr(np, "bitwise_count"):  # NumPy 2: a popcount instruction
        for column, word in zip(words, query.tolist(), strict=True):
            np.bitwise_xor(column, np.uint64(word), out=differ)
            total += np.bitwise_count(differ)
        return total
    # NumPy 1.x: popcount by bit arithmetic, twice as fast as a byte table. Each word's bytes
    # hold their own counts (<= 8), summed over up to 31 words a byte (<= 248, no carry),
    # folded into 16-bit lanes, and one multiply adds the lanes up.
    part = np.empty_like(differ)
    for start in range(0, len(words), 31):
        part[:] = 0
        for column, word in zip(words[start:start + 31], query[start:start + 31].tolist(), strict=True):
            np.bitwise_xor(column, np.uint64(word), out=differ)
            differ -= (differ >> _ONE) & _M1
            differ = (differ & _M2) + ((differ >> _TWO) & _M2)
            part += (differ + (differ >> _FOUR)) & _M4
        folded = (part & _M8) + ((part >> _EIGHT) & _M8)
        total += ((folded * _LANES_SUM) >> _TOP).astype(np.int64)
    return total


@dataclass
class SignTable:
    """Sign bits of the newest vectors of one model and dimension (module doc)."""

    model: str
    dim: int
    ids: npt.NDArray[np.int64] = field(default_factory=lambda: np.empty(0, dtype=np.int64))  # newest first
    # the sign bits, as columns() gives them: (words a row, rows)
    words: npt.NDArray[np.uint64] = field(default_factory=lambda: np.empty((0, 0), dtype=np.uint64))
    limit: int = 0  # rows it may hold (the newest)
    data_version: int | None = None  # the connection's PRAGMA data_version when last read
    loaded_at: float = 0.0
    stale: bool = True  # load it whole at the next ranking (never loaded; own older vectors stored)
    own_newer: bool = False  # this process stored vectors newer than the newest row
    # int8 codes of the newest rows (vector_codes), row for row; None until a load with coding on
    codes: VectorCodes | None = None
    coding: bool = False  # make and keep codes (module doc)
    restored: set[int] = field(default_factory=set)  # own stores below the newest: codes to re-read

    @property
    def width(self) -> int:
        return (self.dim + 7) // 8

    def note_stored(self, ids: list[int]) -> None:
        """This process stored vectors for ``ids`` (its own writes leave data_version as it was)."""
        if not ids:
            return
        if len(self.ids) and min(ids) > int(self.ids[0]):
            self.own_newer = True
        else:
            self.stale = True
            self.restored.update(ids)

    def refresh(self, db: sqlite3.Connection, max_scan: int, batch: int, read: Callable[[int], Any]) -> None:
        """Bring the table up to date with ``db`` for ranking the newest ``max_scan`` vectors.
        ``read(n)`` is told each step's row count (the scan statistics)."""
        version = int(db.execute("PRAGMA data_version").fetchone()[0])
        changed = version != self.data_version
        due = changed and time.monotonic() - self.loaded_at >= RELOAD_S
        uncoded = self.coding and self.codes is None and len(self.ids) > 0
        if self.stale or due or uncoded or max_scan > self.limit or not len(self.ids):
            if due:  # another process may have replaced vectors: no code is kept
                self.codes = None
            db.execute("BEGIN")  # signs and vectors of one snapshot
            try:
                self._load(db, max(max_scan, self.limit), batch, read)
            finally:
                db.execute("COMMIT")
        elif changed or self.own_newer:
            self._add_newer(db, read)
        self.own_newer = False
        self.data_version = version

    def _select(self, db: sqlite3.Connection, bound: str, value: int | None, step: int,
                fields: str = "message_id, bits") -> list[Any]:
        sql = (f"SELECT {fields} FROM embeddings WHERE model = ? AND dim = ?"
               + (f" AND message_id {bound} ?" if value is not None else "")
               + " ORDER BY message_id DESC LIMIT ?")
        params = (self.model, self.dim, *(() if value is None else (value,)), step)
        return db.execute(sql, params).fetchall()

    def _load(self, db: sqlite3.Connection, limit: int, batch: int, read: Callable[[int], Any]) -> None:
        ids: list[int] = []
        chunks: list[bytes] = []
        before: int | None = None
        while len(ids) < limit:
            step = min(batch, limit - len(ids))
            rows = self._select(db, "<", before, step)
            if not rows:
                break
            read(len(rows))
            ids.extend(row[0] for row in rows)
            chunks.extend(row[1] for row in rows)
            before = rows[-1][0]
            if len(rows) < step:
                break
        before_ids, before_codes = self.ids, self.codes
        self.ids = np.array(ids, dtype=np.int64)
        self.words = columns(_matrix(chunks, self.width))
        self.codes = self._coded(db, before_ids, before_codes) if self.coding else None
        self.restored.clear()
        self.limit = limit
        self.loaded_at = time.monotonic()
        self.stale = False

    def _add_newer(self, db: sqlite3.Connection, read: Callable[[int], Any]) -> None:
        # few: what came since the last turn
        rows = self._select(db, ">", int(self.ids[0]), self.limit, "message_id, bits, vector")
        if not rows:
            return
        read(len(rows))
        self.ids = np.concatenate([np.array([row[0] for row in rows], dtype=np.int64), self.ids])[:self.limit]
        newer = columns(_matrix([row[1] for row in rows], self.width))
        self.words = np.ascontiguousarray(np.concatenate([newer, self.words], axis=1)[:, :self.limit])
        if self.coding:
            coded = VectorCodes.of(_vectors([row[2] for row in rows], self.dim))
            self.codes = coded.join(self.codes or VectorCodes.empty(self.dim),
                                    min(capacity(self.dim), len(self.ids)))

    def _coded(self, db: sqlite3.Connection, before_ids: npt.NDArray[np.int64],
               before: VectorCodes | None) -> VectorCodes:
        """Codes for the newest rows: kept ones reused (unless this process stored the
        vector again), the others from their vectors; a row with no vector ends them."""
        wanted = self.ids[:capacity(self.dim)]
        codes = VectorCodes.empty(self.dim)
        if not len(wanted):
            return codes
        kept = np.zeros(len(wanted), dtype=bool)
        rows = np.zeros(len(wanted), dtype=np.intp)
        if before is not None and len(before):
            known = before_ids[:len(before)][::-1]  # ascending, for searchsorted
            at = np.minimum(np.searchsorted(known, wanted), len(known) - 1)
            kept = known[at] == wanted
            if self.restored:
                kept &= ~np.isin(wanted, np.fromiter(self.restored, dtype=np.int64))
            rows = len(known) - 1 - at
        missing = np.flatnonzero(~kept)  # rows whose vectors are read
        made, found = self._codes_of(db, wanted[missing])
        if not kept.any() and found.all():  # a first load: made as they are (no copy of 40 MB)
            return made
        ends = len(wanted)
        if not found.all():  # deleted since its signs were read: the codes end before it
            ends = int(missing[np.argmin(found)])
        codes = VectorCodes(np.empty((ends, self.dim), dtype=np.int8), np.empty(ends, dtype=np.float32),
                            np.empty(ends, dtype=np.float32))
        new_rows, old_rows = missing < ends, np.flatnonzero(kept[:ends])
        for target, source in ((missing[new_rows], made.take(np.flatnonzero(new_rows))),
                               (old_rows, before.take(rows[old_rows]) if before else None)):
            if source is not None and len(target):
                codes.codes[target], codes.scales[target], codes.residuals[target] = (
                    source.codes, source.scales, source.residuals)
        return codes

    def _codes_of(self, db: sqlite3.Connection, ids: npt.NDArray[np.int64]
                  ) -> tuple[VectorCodes, npt.NDArray[np.bool_]]:
        """Codes of the stored vectors of ``ids`` (newest first), row for row, and which
        were found. Many (a first load): one range walk, coded ``_CODE_STEP`` rows at a
        time so the float vectors never sit in memory all at once; few: by id."""
        count = len(ids)
        codes = VectorCodes(np.zeros((count, self.dim), dtype=np.int8), np.zeros(count, dtype=np.float32),
                            np.zeros(count, dtype=np.float32))
        found = np.zeros(count, dtype=bool)
        ascending = ids[::-1]

        def put(rows: list[Any]) -> None:
            mids = np.array([row[0] for row in rows], dtype=np.int64)
            at = np.minimum(np.searchsorted(ascending, mids), count - 1)
            ours = ascending[at] == mids
            places = count - 1 - at[ours]
            made = VectorCodes.of(_vectors([row[1] for row, mine in zip(rows, ours.tolist(), strict=True)
                                            if mine], self.dim))
            codes.codes[places], codes.scales[places], codes.residuals[places] = (
                made.codes, made.scales, made.residuals)
            found[places] = True

        if count > _CODE_STEP:
            cursor = db.execute("SELECT message_id, vector FROM embeddings WHERE model = ? AND dim = ? "
                                "AND message_id BETWEEN ? AND ?", (self.model, self.dim, int(ids[-1]), int(ids[0])))
            while rows := cursor.fetchmany(_CODE_STEP):
                put(rows)
            return codes, found
        for start in range(0, count, 500):  # SQLite's variable limit
            chunk = ids[start:start + 500].tolist()
            sql = (f"SELECT message_id, vector FROM embeddings WHERE model = ? AND dim = ? "
                   f"AND message_id IN ({', '.join('?' * len(chunk))})")
            rows = db.execute(sql, (self.model, self.dim, *chunk)).fetchall()
            if rows:
                put(rows)
        return codes, found


def _matrix(chunks: list[bytes], width: int) -> npt.NDArray[np.uint8]:
    if not chunks:
        return np.empty((0, width), dtype=np.uint8)
    return np.frombuffer(b"".join(chunks), dtype=np.uint8).reshape(len(chunks), width)


def _vectors(blobs: list[bytes], dim: int) -> npt.NDArray[np.float32]:
    if not blobs:
        return np.empty((0, dim), dtype=np.float32)
    return np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), dim).astype(np.float32)
