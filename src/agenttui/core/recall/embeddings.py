"""Message embeddings in the history database: storage and bounded-memory ranking.

The ``embeddings`` table (:mod:`history.schema` v4) holds one unit-length
float32 vector per user/assistant text message, tagged with the model that
made it (a message embedded by another model counts as not embedded).
:class:`EmbeddingIndex` reads and writes it through a connection of its own,
so a backfill or a ranking never waits on, or holds, the lock the chat's
history writes take (WAL lets them run side by side).

Ranking has two passes:

1. **Sign bits.** Every vector's signs are kept as ``dim/8`` bytes (``bits``,
   in a covering index). The newest ``SCAN_LIMIT`` of them are held in memory
   as one NumPy matrix (:mod:`~agenttui.core.recall.sign_table`, loaded once
   in ``SCAN_BATCH`` row steps, then kept up to date with what is added), and
   the query's Hamming distance to each is one XOR and one popcount over the
   matrix; the ``pool`` nearest go on. Sign bits approximate the angle, the
   better the more dimensions (embedding models use 384-3072);
   ``bench/bench_embeddings.py`` measures how many of the exact top 40 survive
   this pass (~90% at 768 dims).
2. **Exact cosine** over the pool, best first. The newest vectors are also
   kept as int8 codes (:mod:`~agenttui.core.recall.vector_codes`: 39 MB for
   100,000 of 384 dims), which bound each pooled vector's cosine; only those
   that may still be among the best ``limit`` (~180 of a pool of 2,500 for
   100) are read from the database and scored exactly, so the order is the
   one the exact pass over the whole pool gives (reading all 2,500 cost ~15
   ms a ranking at 200,000 messages).

Why NumPy: in pure Python the first pass cost ~0.75 µs a vector read from
SQLite on every turn (~75 ms for 100,000) and the exact pass ~10 µs a
384-dim vector (~25 ms for a pool of 2,500); the goal for a turn with
semantic recall is 40 ms in all (``bench/bench_semantic_speed.py``).
``SCAN_LIMIT`` caps how many of the most recent vectors are ranked (older
messages are still found by their words) and so the memory the first pass
holds: 4.8 MB at 384 dims, 38 MB at 3,072.
"""

from __future__ import annotations

import contextlib
import math
import operator
import sqlite3
import sys
import threading
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from agenttui.core.history.store import HistoryStore
    from agenttui.core.recall.sign_table import SignTable

SCAN_BATCH = 4_096  # rows the first pass reads per step (~0.4 MB at 768 dims)
SCAN_LIMIT = 100_000  # most recent vectors ranked (~75 ms at 768 dims; older ones: lexical only)
# Candidates the second pass scores exactly: ~768,000 multiply-adds (~20 ms), so fewer
# bits (less precise signs) get a larger pool; never under 25 x limit.
POOL_FLOATS = 768_000
POOL_RANGE = (1_000, 4_000)
PENDING_CHARS = 2_000  # text sent per message: the gist, and within small models' 512 tokens
BUSY_TIMEOUT_S = 5.0

_SIGN_BYTE = bytes.maketrans(bytes(range(256)), b"0" * 128 + b"1" * 128)


# --------------------------------------------------------------------------
# Vectors
# --------------------------------------------------------------------------
def normalised(values: Iterable[float]) -> array[float]:
    """``values`` as float32, scaled to unit length (a zero vector stays zero)."""
    vector = array("f", values)
    norm = math.hypot(*vector)
    if norm > 0 and abs(norm - 1.0) > 1e-6:
        vector = array("f", [x / norm for x in vector])
    return vector


def to_blob(vector: array[float]) -> bytes:
    """Float32 little-endian bytes (the stored form)."""
    if sys.byteorder == "little":
        return vector.tobytes()
    swapped = array("f", vector)
    swapped.byteswap()
    return swapped.tobytes()


def from_blob(blob: bytes) -> Sequence[float]:
    if sys.byteorder == "little":
        return memoryview(blob).cast("f")
    vector = array("f", blob)
    vector.byteswap()
    return vector


def sign_bits(blob: bytes) -> int:
    """The vector's sign bits as an int (bit set = negative), from its stored bytes.

    The sign is the top bit of each float's last (little-endian) byte: a
    slice and a ``translate`` find them all at C speed.
    """
    return int(blob[3::4].translate(_SIGN_BYTE) or b"0", 2)


def bits_blob(blob: bytes) -> bytes:
    dim = len(blob) // 4
    return sign_bits(blob).to_bytes((dim + 7) // 8, "big")


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    return float(sum(map(operator.mul, a, b)))


# --------------------------------------------------------------------------
# The index
# --------------------------------------------------------------------------
@dataclass
class ScanStats:
    """What the last ranking read: rows per step of the first pass, and the pool."""

    steps: list[int] = field(default_factory=list)
    pooled: int = 0
    read: int = 0  # vectors the exact pass read from the database

    @property
    def scanned(self) -> int:
        return sum(self.steps)


class EmbeddingIndex:
    """Vectors of one embedding ``model`` in a history database (see the module doc).

    The database must exist at the current schema (open it through
    :class:`~agenttui.core.history.store.HistoryStore` first). Thread-safe; every
    call is its own short transaction, so nothing is held between calls.
    """

    def __init__(self, db_path: Path, model: str, *, busy_timeout: float = BUSY_TIMEOUT_S) -> None:
        self.db_path = Path(db_path)
        self.model = model
        self.busy_timeout = busy_timeout
        self.last_scan = ScanStats()
        self._signs: dict[int, SignTable] = {}  # by dimension: the first pass's table (in memory)
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._closed = False

    @classmethod
    def for_history(cls, history: HistoryStore, model: str) -> EmbeddingIndex:
        """The index of ``history``'s file (opened, created and migrated by the store first)."""
        history.message_total()
        return cls(history.db_path, model, busy_timeout=history.busy_timeout)

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._closed:  # a worker's late batch after the session ended must not reopen it
                raise sqlite3.ProgrammingError(f"the embedding index of {self.db_path} is closed")
            if self._conn is None:
                uri = self.db_path.resolve().as_uri() + "?mode=rw"  # never create a file
                conn = sqlite3.connect(uri, uri=True, timeout=self.busy_timeout,
                                       isolation_level=None, check_same_thread=False)
                conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
                conn.execute("PRAGMA synchronous = NORMAL")  # as the store: WAL, no fsync per batch
                conn.execute("PRAGMA foreign_keys = ON")
                conn.execute("PRAGMA secure_delete = ON")  # replaced vectors are scrubbed too
                self._conn = conn
            yield self._conn

    def close(self) -> None:
        """Close the connection for good: a connection left open keeps the database's -wal and
        -shm files after every store of the session is closed."""
        with self._lock:
            self._closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # -- backfill ------------------------------------------------------------
    def _pending_where(self) -> tuple[list[str], list[object]]:
        """Messages recall quotes (user and assistant text) with no vector from this model."""
        return (["m.role IN ('user', 'assistant')", "m.tool_calls IS NULL",
                 "m.content IS NOT NULL", "trim(m.content) != ''",
                 "NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.message_id = m.id AND e.model = ?)"],
                [self.model])

    def pending_count(self, cap: int = 1_000_000) -> int:
        """How many messages wait for a vector, counted up to ``cap``."""
        where, params = self._pending_where()
        sql = f"SELECT COUNT(*) FROM (SELECT 1 FROM messages m WHERE {' AND '.join(where)} LIMIT ?)"
        with self._db() as db:
            return int(db.execute(sql, (*params, max(0, int(cap)))).fetchone()[0])

    def pending(self, limit: int, *, before_id: int | None = None,
                after_id: int | None = None, chars: int = PENDING_CHARS) -> list[tuple[int, str]]:
        """Up to ``limit`` (id, text) of messages with no vector from this model, newest first.

        User and assistant text messages only (what recall quotes). Text is cut
        to ``chars`` in SQL, so a huge message is never loaded whole. Pass the
        last id of a batch as ``before_id`` for the next one: each step then
        reads only its own rows. ``after_id`` bounds the walk from below.
        """
        where, params = self._pending_where()
        if before_id is not None:
            where.append("m.id < ?")
            params.append(int(before_id))
        if after_id is not None:
            where.append("m.id > ?")
            params.append(int(after_id))
        sql = (f"SELECT m.id, substr(m.content, 1, ?) FROM messages m WHERE {' AND '.join(where)} "
               "ORDER BY m.id DESC LIMIT ?")
        with self._db() as db:
            return [(int(mid), text) for mid, text in
                    db.execute(sql, (int(chars), *params, max(0, int(limit)))).fetchall()]

    def store(self, vectors: Iterable[tuple[int, Sequence[float]]]) -> int:
        """Save (message id, vector) pairs in one transaction; returns how many were saved.

        Vectors are normalised here. A message deleted meanwhile is skipped
        (no error); an older vector of the message is replaced.
        """
        rows = []
        for mid, values in vectors:
            blob = to_blob(normalised(values))
            rows.append((int(mid), self.model, len(blob) // 4, bits_blob(blob), blob, int(mid)))
        if not rows:
            return 0
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                saved = 0
                for row in rows:
                    saved += db.execute(
                        "INSERT OR REPLACE INTO embeddings (message_id, model, dim, bits, vector) "
                        "SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM messages WHERE id = ?)",
                        row).rowcount
                db.execute("COMMIT")
                for table in self._signs.values():  # its own writes leave data_version as it was
                    table.note_stored([row[0] for row in rows])
            except BaseException:
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                raise
        return saved

    def count(self) -> int:
        with self._db() as db:
            return int(db.execute("SELECT COUNT(*) FROM embeddings WHERE model = ?",
                                  (self.model,)).fetchone()[0])

    def has_any(self) -> bool:
        with self._db() as db:
            return db.execute("SELECT 1 FROM embeddings WHERE model = ? LIMIT 1",
                              (self.model,)).fetchone() is not None

    def load_tables(self, max_scan: int = SCAN_LIMIT, scan_batch: int = SCAN_BATCH) -> int:
        """Read the newest vectors' in-memory tables ahead of the first ranking, and from now on
        keep their int8 codes (0.7-0.9 s CPU at 200,000 vectors, once): a long-lived session
        (the app) calls it in the background; a ranking alone reads sign bits only and its
        exact pass reads the pool (sign_table doc). The dimension is the newest vector's;
        returns how many vectors the table holds."""
        from agenttui.core.recall.sign_table import SignTable

        with self._db() as db:
            row = db.execute("SELECT dim FROM embeddings WHERE model = ? ORDER BY message_id DESC LIMIT 1",
                             (self.model,)).fetchone()
            if row is None:
                return 0
            dim = int(row[0])
            table = self._signs.get(dim)
            if table is None:
                table = self._signs[dim] = SignTable(self.model, dim)
            table.coding = True  # a session that ranks again and again: codes pay (sign_table doc)
            table.refresh(db, max_scan, scan_batch, lambda _step: None)
            return len(table.ids)

    # -- ranking ---------------------------------------------------------------
    def rank_messages(self, query_vector: Sequence[float], limit: int, *,
                      max_scan: int = SCAN_LIMIT, pool: int | None = None,
                      scan_batch: int = SCAN_BATCH) -> list[int]:
        """Ids of the ``limit`` messages closest to ``query_vector`` (cosine), best first.

        Two passes (module doc): the sign bits of the ``max_scan`` newest
        vectors, kept in memory (:mod:`~agenttui.core.recall.sign_table`; read
        ``scan_batch`` rows a step when they are loaded), keeping the ``pool``
        nearest; then exact cosine over the pool: bounded first from the
        vectors' int8 codes kept in memory (:mod:`~agenttui.core.recall.vector_codes`),
        then computed from the database's vectors for the few that may be
        among the ``limit`` best (and for pool rows without codes). The order
        is the one exact cosine over the whole pool gives. Ties go to the newer
        message. Vectors of another dimension than the query's are ignored.
        """
        import numpy as np

        from agenttui.core.recall.sign_table import SignTable, columns, hamming_columns
        from agenttui.core.recall.vector_codes import could_be_best, error_bounds

        stats = ScanStats()
        self.last_scan = stats
        query = normalised(query_vector)
        if limit <= 0 or not query or max_scan <= 0:
            return []
        dim = len(query)
        if pool is None:
            pool = min(max(POOL_FLOATS // dim, POOL_RANGE[0]), POOL_RANGE[1])
        keep = max(pool, limit * 25)
        with self._db() as db:
            table = self._signs.get(dim)
            if table is None:
                table = self._signs[dim] = SignTable(self.model, dim)
            table.refresh(db, max_scan, scan_batch, stats.steps.append)
            ids, words, codes = table.ids[:max_scan], table.words[:, :max_scan], table.codes
        if not len(ids):
            return []
        signs = columns(np.frombuffer(bits_blob(to_blob(query)), dtype=np.uint8)[None, :])[:, 0]
        # nearest first, then newer (rows are newest first): one sortable key per row
        key = hamming_columns(words, signs) * len(ids) + np.arange(len(ids), dtype=np.int64)
        nearest = np.argpartition(key, keep - 1)[:keep] if len(ids) > keep else np.arange(len(ids))
        stats.pooled = len(nearest)
        query32 = np.frombuffer(to_blob(query), dtype="<f4").astype(np.float32)
        coded_rows = len(codes) if codes is not None else 0
        coded = nearest[nearest < coded_rows]
        # the pool's rows without codes (beyond CODE_BYTES) are read and scored exactly first
        scored = self._exact_scores(stats, ids[nearest[nearest >= coded_rows]].tolist(), dim, query32)
        if codes is not None and len(coded):
            lower, upper = error_bounds(codes.take(coded), query32)
            exact = np.array([score for score, _ in scored], dtype=np.float64)
            maybe = could_be_best(np.concatenate([lower, exact]), np.concatenate([upper, exact]), limit)
            wanted = ids[coded[maybe[:len(coded)]]].tolist()
            rescored = self._exact_scores(stats, wanted, dim, query32)
            if len(rescored) < len(wanted):  # one was deleted since its codes were made: the bounds
                # counted on it, so the rest of the pool is read too (as before codes)
                rescored += self._exact_scores(stats, ids[coded[~maybe[:len(coded)]]].tolist(), dim, query32)
            scored += rescored
        ranked = sorted(scored, key=lambda pair: (-pair[0], -pair[1]))
        return [mid for _, mid in ranked[:limit]]

    def _exact_scores(self, stats: ScanStats, ids: list[int], dim: int,
                      query: npt.NDArray[np.float32]) -> list[tuple[float, int]]:
        """(cosine, id) of the stored vectors of ``ids`` with the unit ``query``; a message
        deleted meanwhile has none and is left out."""
        import numpy as np

        found: list[int] = []
        vectors: list[bytes] = []
        with self._db() as db:
            for start in range(0, len(ids), 500):  # SQLite's variable limit
                chunk = ids[start:start + 500]
                marks = ", ".join("?" * len(chunk))
                for mid, vector in db.execute(
                        f"SELECT message_id, vector FROM embeddings WHERE model = ? AND dim = ? "
                        f"AND message_id IN ({marks})", (self.model, dim, *chunk)):
                    found.append(mid)
                    vectors.append(vector)
        stats.read += len(found)
        if not found:
            return []
        matrix = np.frombuffer(b"".join(vectors), dtype="<f4").reshape(len(found), dim)
        # einsum, not @: a BLAS matrix-vector product starts its thread pool, which on a busy
        # machine made this 20 ms where einsum's own loop takes under 1 ms
        scores = np.einsum("ij,j->i", matrix.astype(np.float64), query.astype(np.float64)).tolist()
        return list(zip(scores, found, strict=True))
