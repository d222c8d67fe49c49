"""``HistoryStore.term_counts`` keeps its answers between calls, and they stay exact.

The check is always against a second store opened on the same file, which
has counted nothing yet: whatever the first store kept, it must answer what
a fresh count answers.
"""

from __future__ import annotations

import sqlite3

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message

WORDS = ("kopi", "cat", "migraine", "dentist")


def fresh_counts(db_path, terms, cap):
    other = HistoryStore(db_path)
    try:
        return other.term_counts(terms, cap=cap)
    finally:
        other.close()


def add(store: HistoryStore, cid: str, *words: str) -> None:
    store.append(cid, Message(role="user", content=" ".join(words)))


def test_a_count_below_its_cap_grows_with_the_next_message(store, db_path):
    cid = store.create_conversation().id
    add(store, cid, "kopi")
    assert store.term_counts(["kopi"], cap=5) == {"kopi": 1}
    add(store, cid, "kopi naps")
    assert store.term_counts(["kopi"], cap=5) == {"kopi": 2}


def test_a_saturated_count_drops_after_a_delete(store, db_path):
    first = store.create_conversation().id
    second = store.create_conversation().id
    for _ in range(3):
        add(store, first, "kopi")
    add(store, second, "kopi")
    assert store.term_counts(["kopi"], cap=2) == {"kopi": 2}
    store.delete(first)
    assert store.term_counts(["kopi"], cap=2) == {"kopi": 1}


def test_a_saturated_count_is_recounted_for_a_higher_cap(store):
    cid = store.create_conversation().id
    for _ in range(4):
        add(store, cid, "kopi")
    assert store.term_counts(["kopi"], cap=2) == {"kopi": 2}
    assert store.term_counts(["kopi"], cap=10) == {"kopi": 4}
    assert store.term_counts(["kopi"], cap=3) == {"kopi": 3}


def test_another_connections_delete_is_seen(store, db_path):
    cid = store.create_conversation().id
    for _ in range(3):
        add(store, cid, "kopi")
    assert store.term_counts(["kopi"], cap=2) == {"kopi": 2}
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("DELETE FROM conversations")
    conn.close()
    assert store.term_counts(["kopi"], cap=2) == {"kopi": 0}


operations = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.integers(0, 1), st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)),
        st.tuples(st.just("delete"), st.integers(0, 1), st.just([])),
        st.tuples(st.just("count"), st.integers(1, 4), st.just([])),
    ),
    max_size=25,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=operations)
def test_kept_counts_always_equal_a_fresh_count(tmp_path_factory, steps):
    db_path = tmp_path_factory.mktemp("terms") / "history.sqlite3"
    store = HistoryStore(db_path)
    try:
        conversations = [store.create_conversation().id, store.create_conversation().id]
        for op, arg, words in steps:
            if op == "add":
                add(store, conversations[arg], *words)
            elif op == "delete":
                store.delete(conversations[arg])
                conversations[arg] = store.create_conversation().id
            else:
                assert store.term_counts(WORDS, cap=arg) == fresh_counts(db_path, WORDS, arg)
        assert store.term_counts(WORDS, cap=3) == fresh_counts(db_path, WORDS, 3)
    finally:
        store.close()


class _OneTable:
    """The cache as it was, one table swept on each append: the reference the split one must equal."""

    def __init__(self) -> None:
        self.epoch: object = None
        self.newest = -1
        self.counts: dict[str, tuple[int, int]] = {}

    def sync(self, epoch: object, newest: int) -> None:
        if epoch != self.epoch or newest < self.newest:
            self.counts = {}
        elif newest != self.newest:
            self.counts = {term: hit for term, hit in self.counts.items() if hit[0] >= hit[1]}
        self.epoch, self.newest = epoch, newest

    def get(self, term: str, cap: int) -> int | None:
        hit = self.counts.get(term)
        if hit is None:
            return None
        return min(hit[0], cap) if hit[0] < hit[1] or cap <= hit[1] else None

    def put(self, term: str, count: int, cap: int) -> None:
        self.counts[term] = (count, cap)


_OPS = st.lists(st.one_of(
    st.tuples(st.just("sync"), st.integers(0, 1), st.integers(0, 4)),
    st.tuples(st.just("get"), st.sampled_from(WORDS), st.integers(1, 6)),
    st.tuples(st.just("put"), st.sampled_from(WORDS), st.integers(1, 6), st.integers(0, 6)),
), max_size=40)


@settings(max_examples=300, deadline=None)
@given(_OPS)
def test_the_split_cache_answers_as_the_one_table_did(ops):
    from agenttui.core.history.term_counts import TermCountCache

    split, reference = TermCountCache(), _OneTable()
    for op in ops:
        if op[0] == "sync":
            split.sync(op[1], op[2])
            reference.sync(op[1], op[2])
        elif op[0] == "get":
            assert split.get(op[1], op[2]) == reference.get(op[1], op[2])
        else:
            _, term, cap, count = op
            count = min(count, cap)  # what a count up to ``cap`` gives
            split.put(term, count, cap)
            reference.put(term, count, cap)
