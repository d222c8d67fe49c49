"""Recall's candidate rows are kept between look-ups (recall_rows.py), and stay exact.

The check is always against a second store opened on the same file, which
has read nothing yet: whatever the first store kept, it must answer what a
fresh read answers.
"""

from __future__ import annotations

import sqlite3

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message


def fresh(db_path, match: str) -> list[tuple]:
    other = HistoryStore(db_path)
    try:
        return [tuple(row) for row in other.recall_candidates(match, 10)]
    finally:
        other.close()


def kept(store: HistoryStore, match: str) -> list[tuple]:
    return [tuple(row) for row in store.recall_candidates(match, 10)]


def test_a_renamed_conversation_shows_its_new_title(store, db_path):
    cid = store.create_conversation(title="pets").id
    store.append(cid, Message(role="user", content="our cat is called Kopi"))
    assert [row[2] for row in kept(store, '"kopi"')] == ["pets"]
    store.rename(cid, "the cat")
    assert kept(store, '"kopi"') == fresh(db_path, '"kopi"')
    assert [row[2] for row in kept(store, '"kopi"')] == ["the cat"]


def test_an_archived_conversation_is_marked(store, db_path):
    cid = store.create_conversation(title="pets").id
    store.append(cid, Message(role="user", content="our cat is called Kopi"))
    assert [row[3] for row in kept(store, '"kopi"')] == [False]
    store.archive(cid)
    assert [row[3] for row in kept(store, '"kopi"')] == [True]
    assert kept(store, '"kopi"') == fresh(db_path, '"kopi"')


def test_an_untitled_conversation_takes_its_title_from_a_later_message(store, db_path):
    cid = store.create_conversation().id
    store.append(cid, Message(role="assistant", content="Hello! How is Kopi?"))
    assert [row[2] for row in kept(store, '"kopi"')] == [""]
    store.append(cid, Message(role="user", content="Kopi is asleep"))  # the conversation's title now
    assert kept(store, '"kopi"') == fresh(db_path, '"kopi"')
    assert {row[2] for row in kept(store, '"kopi"')} == {"Kopi is asleep"}


def test_an_untitled_conversations_later_rows_read_the_title_it_took(store, db_path):
    # the conversation is read while untitled, then titled by a user message: rows read
    # after that (not kept before) must carry the title, as the join with conversations gives
    cid = store.create_conversation().id
    store.append(cid, Message(role="assistant", content="Hello! How is Kopi?"))
    assert [row[2] for row in kept(store, '"kopi"')] == [""]
    store.append(cid, Message(role="user", content="Kopi is asleep on the mat"))
    store.append(cid, Message(role="assistant", content="A mat is a fine place for a nap"))
    assert kept(store, '"mat"') == fresh(db_path, '"mat"')
    assert {row[2] for row in kept(store, '"mat"')} == {"Kopi is asleep on the mat"}


def test_rows_of_a_kept_conversation_read_later_carry_its_title(store, db_path):
    first = store.create_conversation(title="pets").id
    second = store.create_conversation(title="").id
    store.append(first, Message(role="user", content="Kopi naps"))
    assert [row[2] for row in kept(store, '"kopi"')] == ["pets"]
    store.append(first, Message(role="assistant", content="Kopi naps a lot"))
    store.append(second, Message(role="assistant", content="Kopi again"))
    assert kept(store, '"kopi"') == fresh(db_path, '"kopi"')
    store.rename(first, "the cat")
    assert kept(store, '"kopi"') == fresh(db_path, '"kopi"')
    assert {row[2] for row in kept(store, '"kopi"')} == {"the cat", ""}


def test_another_connections_rename_is_seen(store, db_path):
    cid = store.create_conversation(title="pets").id
    store.append(cid, Message(role="user", content="our cat is called Kopi"))
    assert [row[2] for row in kept(store, '"kopi"')] == ["pets"]
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE conversations SET title = 'renamed elsewhere' WHERE id = ?", (cid,))
    conn.close()
    assert [row[2] for row in kept(store, '"kopi"')] == ["renamed elsewhere"]


def test_a_deleted_message_is_not_found_again(store, db_path):
    first = store.create_conversation(title="one").id
    second = store.create_conversation(title="two").id
    store.append(first, Message(role="user", content="Kopi naps"))
    store.append(second, Message(role="user", content="Kopi eats"))
    assert len(kept(store, '"kopi"')) == 2
    store.delete(first)
    assert [row[2] for row in kept(store, '"kopi"')] == ["two"]


def test_tool_traffic_stays_out_when_read_again(store, db_path):
    cid = store.create_conversation(title="tools").id
    store.append(cid, Message(role="tool", content="kopi result", tool_call_id="x", name="read"))
    store.append(cid, Message(role="user", content="what did kopi do"))
    for _ in range(2):  # the second time from what was kept
        assert [row[4] for row in kept(store, '"kopi"')] == ["user"]
    assert kept(store, '"kopi"') == fresh(db_path, '"kopi"')



def test_the_cache_starts_afresh_past_its_bound_of_characters(store, db_path, monkeypatch):
    from agenttui.core.history import recall_rows

    monkeypatch.setattr(recall_rows, "MAX_CHARS", 30)
    cid = store.create_conversation(title="long").id
    for k in range(3):
        store.append(cid, Message(role="user", content=f"kopi {k} " + "naps in the sun " * 3))
    first = kept(store, '"kopi"')
    cache = store._recall_rows
    assert all(row[0] in cache for row in first)
    cache.sync(store.epoch)  # the same state, but past the bound
    assert not any(row[0] in cache for row in first)
    assert kept(store, '"kopi"') == first == fresh(db_path, '"kopi"')
