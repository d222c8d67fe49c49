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
