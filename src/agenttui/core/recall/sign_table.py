"""The newest vectors' sign bits, kept in memory for ranking (NumPy).

Ranking's first pass (:mod:`agenttui.core.recall.embeddings`) compares the
query's sign bits with every stored vector's. Read from SQLite on every turn
that cost ~0.75 µs a vector in Python, ~75 ms for the newest 100,000, before
the exact pass; kept here as one ``uint8`` matrix (``dim/8`` bytes a row: 4.8
MB for 100,000 vectors of 384 dimensions) the Hamming distances are one XOR
and one popcount over the matrix.

Rows are ordered newest first (message ids descending). What changes under the
table, and how it follows:

* a vector for a message newer than the newest row (the chat's backfill of new
  messages, in this process or another): read at the next ranking, a range
  query over the covering index (``message_id > newest``);
* anything else another connection wrote -- a backfill of older messages, a
  deletion -- is read by a full reload, at most every ``RELOAD_S`` seconds
  and only when the database changed meanwhile (``PRAGMA data_version``);
  this process's own stores of older vectors reload at the next ranking;
* a deleted message's row may stay in the table until then: the exact pass
  reads its vector from the database, finds none and drops it.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

RELOAD_S = 300.0  # the longest another process's older vectors or deletions stay unseen

_POPCOUNT = np.array([bin(n).count("1") for n in range(256)], dtype=np.uint16)


def hamming(rows: npt.NDArray[np.uint8], query: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """Bits that differ between each row of ``rows`` and ``query`` (uint8 arrays)."""
    if rows.shape[1] % 8 == 0 and rows.flags.c_contiguous:  # 64 bits a step (dims of 64k: all models)
        rows, query = rows.view(np.uint64), np.ascontiguousarray(query).view(np.uint64)
    differ = np.bitwise_xor(rows, query)
    if hasattr(np, "bitwise_count"):  # NumPy 2: a popcount instruction
        counts: npt.NDArray[np.int64] = np.bitwise_count(differ).astype(np.int64).sum(axis=1)
    else:  # NumPy 1.x: a table lookup, a byte at a time
        counts = _POPCOUNT[differ.view(np.uint8)].sum(axis=1, dtype=np.int64)
    return counts


@dataclass
class SignTable:
    """Sign bits of the newest vectors of one model and dimension (module doc)."""

    model: str
    dim: int
    ids: npt.NDArray[np.int64] = field(default_factory=lambda: np.empty(0, dtype=np.int64))  # newest first
    bits: npt.NDArray[np.uint8] = field(default_factory=lambda: np.empty((0, 0), dtype=np.uint8))
    limit: int = 0  # rows it may hold (the newest)
    data_version: int | None = None  # the connection's PRAGMA data_version when last read
    loaded_at: float = 0.0
    stale: bool = True  # load it whole at the next ranking (never loaded; own older vectors stored)
    own_newer: bool = False  # this process stored vectors newer than the newest row

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

    def refresh(self, db: sqlite3.Connection, max_scan: int, batch: int, read: Callable[[int], Any]) -> None:
        """Bring the table up to date with ``db`` for ranking the newest ``max_scan`` vectors.
        ``read(n)`` is told each step's row count (the scan statistics)."""
        version = int(db.execute("PRAGMA data_version").fetchone()[0])
        changed = version != self.data_version
        due = changed and time.monotonic() - self.loaded_at >= RELOAD_S
        if self.stale or due or max_scan > self.limit or not len(self.ids):
            self._load(db, max(max_scan, self.limit), batch, read)
        elif changed or self.own_newer:
            self._add_newer(db, read)
        self.own_newer = False
        self.data_version = version

    def _select(self, db: sqlite3.Connection, bound: str, value: int | None, step: int) -> list[Any]:
        sql = ("SELECT message_id, bits FROM embeddings WHERE model = ? AND dim = ?"
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
        self.ids = np.array(ids, dtype=np.int64)
        self.bits = _matrix(chunks, self.width)
        self.limit = limit
        self.loaded_at = time.monotonic()
        self.stale = False

    def _add_newer(self, db: sqlite3.Connection, read: Callable[[int], Any]) -> None:
        rows = self._select(db, ">", int(self.ids[0]), self.limit)  # few: what came since the last turn
        if not rows:
            return
        read(len(rows))
        self.ids = np.concatenate([np.array([row[0] for row in rows], dtype=np.int64), self.ids])[:self.limit]
        self.bits = np.concatenate([_matrix([row[1] for row in rows], self.width), self.bits])[:self.limit]


def _matrix(chunks: list[bytes], width: int) -> npt.NDArray[np.uint8]:
    if not chunks:
        return np.empty((0, width), dtype=np.uint8)
    return np.frombuffer(b"".join(chunks), dtype=np.uint8).reshape(len(chunks), width)
