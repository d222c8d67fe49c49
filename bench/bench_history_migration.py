"""The cost of the tree migrations (v5 -> v7: conversations as trees) on a large history.

    .venv/bin/python bench/bench_history_migration.py [--messages 200000] [--conversations 400] [--runs 3]

A v5 database (the schema before trees) is built once with the schema's own
migrations: ``--conversations`` conversations whose messages interleave in id
order (written side by side, as real profiles are), Zipf-distributed text
through the FTS triggers. Each run copies it and times, on the copy:

* ``v6``: ``migrate`` from v5 to the latest -- v6's two ADD COLUMNs, every
  message linked to the one before it (one index probe each), every
  conversation's active leaf, the (conversation_id, parent_id) index, and v7's
  ``branched`` flag (one pass over that index) -- in their one transaction;
* the baseline, ``fts_rebuild``: the v3 migration's statements on the same
  copy (drop and rebuild the full-text index over every message), the most
  expensive migration profiles went through before.

Prints the median of each and the ratio v6 / baseline. The copy's page cache
is warm for both (the copy was just written); the same holds for a user whose
app opens the file.
"""

from __future__ import annotations

import argparse
import itertools
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from agenttui.core.history import schema

STAMP = "2025-06-01T12:00:00.000000+00:00"


def build_v5(path: Path, messages: int, conversations: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(rng.choices(letters, k=rng.randint(3, 10))) for _ in range(20_000)]
    cum = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(words))))
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    schema.migrate(conn, target=5)
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO conversations (id, title, created, updated) VALUES (?, ?, ?, ?)",
                     [(f"c{k:05d}", f"conversation {k}", STAMP, STAMP) for k in range(conversations)])
    conn.executemany(
        "INSERT INTO messages (conversation_id, role, content, created) VALUES (?, ?, ?, ?)",
        ((f"c{rng.randrange(conversations):05d}", "user" if n % 2 == 0 else "assistant",
          " ".join(rng.choices(words, cum_weights=cum, k=rng.randint(5, 40))), STAMP)
         for n in range(messages)))
    conn.execute("UPDATE conversations SET message_count = "
                 "(SELECT COUNT(*) FROM messages WHERE conversation_id = conversations.id)")
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def timed(source: Path, work: Path, run) -> float:
    shutil.copyfile(source, work)
    conn = sqlite3.connect(str(work), isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    start = time.perf_counter()
    run(conn)
    elapsed = time.perf_counter() - start
    conn.close()
    for suffix in ("-wal", "-shm"):
        Path(str(work) + suffix).unlink(missing_ok=True)
    return elapsed


def migrate_v6(conn: sqlite3.Connection) -> None:
    before, after = schema.migrate(conn)
    assert (before, after) == (5, schema.SCHEMA_VERSION), (before, after)


def rebuild_fts(conn: sqlite3.Connection) -> None:
    conn.execute("BEGIN IMMEDIATE")
    for statement in schema.MIGRATIONS[2].statements:  # v3: the stemmed index, rebuilt
        if statement.lstrip().startswith("CREATE INDEX"):
            continue  # messages_by_created exists already
        conn.execute(statement)
    conn.execute("COMMIT")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--conversations", type=int, default=400)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source, work = Path(tmp) / "v5.sqlite3", Path(tmp) / "work.sqlite3"
        start = time.perf_counter()
        build_v5(source, args.messages, args.conversations)
        print(f"built a v5 history: {args.messages:,} messages in {args.conversations} conversations "
              f"({source.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - start:.1f} s")
        v6, baseline = [], []
        for _ in range(args.runs):  # interleaved: a busy machine weighs on both alike
            v6.append(timed(source, work, migrate_v6))
            baseline.append(timed(source, work, rebuild_fts))
    v6_median, base_median = statistics.median(v6), statistics.median(baseline)
    print(f"v5 -> v{schema.SCHEMA_VERSION} (parent_id, active leaf, index, branched): median {v6_median:.2f} s "
          f"(runs: {', '.join(f'{t:.2f}' for t in v6)})")
    print(f"baseline, FTS rebuild (v3):                            median {base_median:.2f} s "
          f"(runs: {', '.join(f'{t:.2f}' for t in baseline)})")
    print(f"ratio tree migration / FTS rebuild: {v6_median / base_median:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
