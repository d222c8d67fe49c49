"""History at scale: search over 200,000 messages and opening the latest page stay cheap.

The fixture creates conversations through the store and inserts messages
with one ``executemany`` in one transaction on the store's own schema, so
the FTS triggers index them exactly as ``append`` does. It skips only the
redaction pass (~0.1 ms per message, covered by test_history_redaction.py),
which would triple the build time.

Cost is counted, not timed (a timed test fails on a busy machine): SQLite's
virtual-machine steps, by its progress handler. Scanning the messages once
costs about 800,000 steps and counting every message that holds the most
common word about 200,000; a search takes 400-36,000 and opening the latest
page about 3,700 (SQLite 3.40). The bounds leave room for other SQLite
versions and catch a query that reads the whole profile. Latency figures
come from ``bench/bench_history.py``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest

from agenttui.core.history.schema import LINK_AS_ONE_BRANCH
from agenttui.core.history.store import HistoryStore

CONVERSATIONS = 400
PER_CONVERSATION = 500  # 200,000 messages
NEEDLE = "kubernetesoperator"


def _vocabulary(rng: random.Random, size: int = 20_000) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rng.choices(letters, k=rng.randint(3, 10))) for _ in range(size)]


@pytest.fixture(scope="module")
def big_store(tmp_path_factory):
    rng = random.Random(200_000)
    words = _vocabulary(rng)
    weights = [1.0 / (rank + 1) for rank in range(len(words))]  # Zipf-like, like real text
    cum = list(itertools.accumulate(weights))
    path = tmp_path_factory.mktemp("big") / "history.sqlite3"
    store = HistoryStore(path)
    cids = [store.create_conversation(title=f"conversation {c}").id for c in range(CONVERSATIONS)]
    total = CONVERSATIONS * PER_CONVERSATION
    needles = set(rng.sample(range(total), 25))
    stamp = "2025-06-01T12:00:00.000000+00:00"

    def rows():
        for n in range(total):
            text = " ".join(rng.choices(words, cum_weights=cum, k=rng.randint(3, 12)))
            if n in needles:
                text += f" {NEEDLE}"
            yield cids[n // PER_CONVERSATION], "user" if n % 2 == 0 else "assistant", text, stamp

    db = store._db()  # the store's connection: same schema, same triggers
    with store._write():
        db.executemany("INSERT INTO messages (conversation_id, role, content, created) "
                       "VALUES (?, ?, ?, ?)", rows())
        db.execute("UPDATE conversations SET message_count = ?, updated = created", (PER_CONVERSATION,))
        for statement in LINK_AS_ONE_BRANCH:  # raw rows: one branch each, as the v6 migration makes
            db.execute(statement)
    yield store, words
    store.close()


SEARCH_STEPS = 100_000  # a search: at most this many SQLite VM steps (see the module doc)
OPEN_STEPS = 20_000  # the latest conversation and its last 50 messages


def vm_steps(store: HistoryStore, action: Callable[[], Any]) -> tuple[Any, int]:
    """``action()``'s result and the SQLite VM steps it took on the store's connection."""
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0  # go on

    db = store._db()
    db.set_progress_handler(count, 100)
    try:
        result = action()
    finally:
        db.set_progress_handler(None, 0)
    return result, steps[0] * 100


@pytest.mark.slow
def test_search_200k_messages_is_cheap_and_right(big_store):
    store, words = big_store
    assert store.count_conversations() == CONVERSATIONS
    hits = store.search(NEEDLE, limit=50)
    assert len(hits) == 25 and all(NEEDLE in h.snippet for h in hits)

    queries = [NEEDLE, words[0], words[10], words[500], words[5000], f"{words[3]} {words[40]}",
               words[200][:4], f"{words[1]} {words[2]} {words[7]}", "no-such-word-anywhere"]
    costs = {query: vm_steps(store, lambda q=query: store.search(q))[1] for query in queries}
    assert max(costs.values()) < SEARCH_STEPS, costs
    _, scan = vm_steps(store, lambda: store._db().execute(
        "SELECT COUNT(*) FROM messages WHERE content LIKE '%no-such-text%'").fetchone())
    assert scan > 5 * SEARCH_STEPS  # the bound does tell a search from reading every message


@pytest.mark.slow
def test_opening_the_latest_page_at_200k_is_cheap(big_store):
    store, _ = big_store
    reopened = HistoryStore(store.db_path)
    try:
        (latest, page), steps = vm_steps(reopened, lambda: (
            (latest := reopened.latest_conversation()), reopened.messages(latest.id, limit=50)))
    finally:
        reopened.close()
    assert latest.title == f"conversation {CONVERSATIONS - 1}" and len(page) == 50
    assert steps < OPEN_STEPS, steps
