"""History at scale (README "Performance"): append cost vs size, search latency, open time.

    .venv/bin/python bench/bench_history.py [--messages 200000] [--appends 300]

Every figure is measured against a baseline taken in the same run (medians):

* ``append_ratio_200k_vs_1k``: median time of ``HistoryStore.append`` into a
  profile holding 200,000 messages / the same into one holding 1,000 -- once
  with all messages in the conversation appended to, once spread over 2,000
  conversations. Goal ~1.0 (O(log n), no scans).
* ``search_median_ms`` / ``search_p95_ms`` at 200,000 messages, and the ratio
  to a point lookup (``get_message``, a primary-key SELECT through the same
  store) -- per query kind (rare word, common word, two words, prefix).
* ``open_latest_ratio_200k_vs_empty``: a fresh store opened, latest
  conversation fetched with its last 50 messages, vs the same on an empty
  profile.

The large profiles are built fast: conversations through the store, messages
with one ``executemany`` in one transaction (the FTS triggers still run), so
the database is exactly what the app would have written, minus redaction,
which is not what is measured here.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from agenttui.core.history.schema import LINK_AS_ONE_BRANCH  # noqa: E402
from agenttui.core.history.store import HistoryStore  # noqa: E402
from agenttui.core.models import Message  # noqa: E402

SPREAD_CONVERSATIONS = 2_000


class Corpus:
    """Zipf-distributed pseudo-words: a few very common, a long tail of rare ones."""

    def __init__(self, seed: int = 7, size: int = 20_000) -> None:
        self.rng = random.Random(seed)
        letters = "abcdefghijklmnopqrstuvwxyz"
        self.words = ["".join(self.rng.choices(letters, k=self.rng.randint(3, 10))) for _ in range(size)]
        self.cum = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(size)))

    def text(self) -> str:
        return " ".join(self.rng.choices(self.words, cum_weights=self.cum, k=self.rng.randint(5, 40)))


def build(path: Path, messages: int, conversations: int, corpus: Corpus) -> list[str]:
    store = HistoryStore(path)
    cids = [store.create_conversation(title=f"conversation {i}").id for i in range(conversations)]
    store.close()
    stamp = datetime.now(UTC).isoformat(timespec="microseconds")
    per = max(1, messages // conversations)
    rows = ((cids[min(i // per, conversations - 1)], "user" if i % 2 == 0 else "assistant",
             corpus.text(), stamp) for i in range(messages))
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO messages (conversation_id, role, content, created) VALUES (?, ?, ?, ?)",
                     rows)
    conn.execute("UPDATE conversations SET message_count = "
                 "(SELECT COUNT(*) FROM messages WHERE conversation_id = conversations.id)")
    for statement in LINK_AS_ONE_BRANCH:  # raw rows: one branch each (schema v6)
        conn.execute(statement)
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return cids


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def p95_ms(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000


def time_appends(path: Path, cids: list[str], count: int, corpus: Corpus, seed: int) -> list[float]:
    rng = random.Random(seed)
    store = HistoryStore(path)
    for _ in range(20):  # warm-up: open, page cache, statement cache
        store.append(rng.choice(cids), Message("user", corpus.text()))
    samples = []
    for _ in range(count):
        message = Message("user", corpus.text())
        cid = rng.choice(cids)
        start = time.perf_counter()
        store.append(cid, message)
        samples.append(time.perf_counter() - start)
    store.close()
    return samples


def time_open_latest(path: Path, repeats: int = 15) -> list[float]:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        store = HistoryStore(path)
        latest = store.latest_conversation()
        if latest is not None:
            store.messages(latest.id, limit=50)
        samples.append(time.perf_counter() - start)
        store.close()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--appends", type=int, default=300)
    args = parser.parse_args()
    big, small = args.messages, args.small
    label = f"{big // 1000}k"
    corpus = Corpus()

    with tempfile.TemporaryDirectory(prefix="bench-history-") as tmp:
        root = Path(tmp)
        t0 = time.perf_counter()
        dbs = {}
        for size in (small, big):
            dbs[("same", size)] = (root / f"same-{size}.sqlite3", build(root / f"same-{size}.sqlite3", size, 1, corpus))
            dbs[("spread", size)] = (root / f"spread-{size}.sqlite3",
                                     build(root / f"spread-{size}.sqlite3", size, SPREAD_CONVERSATIONS, corpus))
        print(f"built profiles of {small} and {big} messages in {time.perf_counter() - t0:.1f} s")

        for layout in ("same", "spread"):
            medians = {}
            for size in (small, big):
                path, cids = dbs[(layout, size)]
                medians[size] = median_ms(time_appends(path, cids, args.appends, corpus, seed=size))
                print(f"append_median_ms_{layout}_{size}: {medians[size]:.3f}")
            suffix = "" if layout == "same" else "_spread"
            print(f"append_ratio_{label}_vs_{small // 1000}k{suffix}: {medians[big] / medians[small]:.2f}")

        path, _ = dbs[("spread", big)]
        store = HistoryStore(path)
        words = corpus.words
        kinds = {
            "rare_word": [words[i] for i in range(15_000, 15_010)],
            "medium_word": [words[i] for i in range(200, 210)],
            "common_word": [words[i] for i in range(0, 10)],
            "two_words": [f"{words[i]} {words[i + 50]}" for i in range(20, 30)],
            "prefix": [words[i][:4] for i in range(1000, 1010)],
            # the worst case: a prefix of a very common word that is not a word itself
            "common_prefix": [words[i][:3] for i in range(0, 10)],
        }
        lookups = []
        lookup_rng = random.Random(1)
        for _ in range(200):
            mid = lookup_rng.randint(1, big)
            start = time.perf_counter()
            store.get_message(mid)
            lookups.append(time.perf_counter() - start)
        baseline = median_ms(lookups)
        print(f"point_lookup_median_ms: {baseline:.3f}")
        every = []
        for kind, queries in kinds.items():
            samples = []
            for _ in range(3):
                for query in queries:
                    start = time.perf_counter()
                    store.search(query)
                    samples.append(time.perf_counter() - start)
            every += samples
            print(f"search_{kind}_median_ms: {median_ms(samples):.2f}  p95_ms: {p95_ms(samples):.2f}")
        print(f"search_median_ms_{label}: {median_ms(every):.2f}")
        print(f"search_p95_ms_{label}: {p95_ms(every):.2f}")
        print(f"search_vs_point_lookup_ratio: {median_ms(every) / baseline:.1f}")
        store.close()

        empty = root / "empty.sqlite3"
        HistoryStore(empty).close()
        empty_ms = median_ms(time_open_latest(empty))
        big_same_ms = median_ms(time_open_latest(dbs[("same", big)][0]))
        big_spread_ms = median_ms(time_open_latest(dbs[("spread", big)][0]))
        print(f"open_latest50_ms_empty: {empty_ms:.2f}")
        print(f"open_latest50_ms_{label}: {big_same_ms:.2f} (one conversation), "
              f"{big_spread_ms:.2f} ({SPREAD_CONVERSATIONS} conversations)")
        print(f"open_latest_ratio_{label}_vs_empty: {max(big_same_ms, big_spread_ms) / empty_ms:.2f}")


if __name__ == "__main__":
    main()
