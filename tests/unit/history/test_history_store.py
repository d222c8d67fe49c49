"""Conversations and messages: CRUD, titles, paging, ephemeral messages, errors."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime

import pytest

from agenttui.core.history.store import HistoryStore, HistoryWriteError, UnknownConversationError, derive_title
from agenttui.core.models import Message, ToolCall


def test_create_get_and_roundtrip_every_field(store):
    conversation = store.create_conversation(model="gpt-x")
    assert conversation.title == "" and conversation.model == "gpt-x"
    created = datetime(2025, 3, 4, 5, 6, 7, 890000, tzinfo=UTC)
    message = Message(
        role="assistant", content="calling", tool_calls=[ToolCall("call_1", "shell", '{"cmd": "ls"}')],
        turn_id="t1", created=created, tokens=12, incomplete=True,
    )
    stored = store.append(conversation.id, message)
    assert stored.id is not None and stored.conversation_id == conversation.id
    assert message.id is None  # the caller's object is left as it was
    tool = store.append(conversation.id, Message("tool", "file.txt", tool_call_id="call_1", name="shell"))
    image = store.append(conversation.id, Message("user", "look", image_b64="aGVsbG8=", image_mime="image/png"))
    back = store.messages(conversation.id)
    assert back == [stored, tool, image]
    assert back[0].created == created and back[0].incomplete and back[0].tokens == 12
    assert back[0].tool_calls == [ToolCall("call_1", "shell", '{"cmd": "ls"}')]
    assert store.get_message(image.id).image_b64 == "aGVsbG8="
    assert store.get_conversation("nope") is None


def test_append_updates_conversation_and_counter(store):
    conversation = store.create_conversation()
    for i in range(5):
        store.append(conversation.id, Message("user" if i % 2 == 0 else "assistant", f"m{i}"))
    again = store.get_conversation(conversation.id)
    assert again.updated > conversation.updated
    assert again.message_count == store.count_messages(conversation.id) == 5


def test_ephemeral_messages_are_never_written(store):
    conversation = store.create_conversation()
    ephemeral = Message("system", "thinking…", persist=False)
    assert store.append(conversation.id, ephemeral) is ephemeral
    assert ephemeral.id is None
    kept = store.append_many(conversation.id, [Message("user", "a"), ephemeral, Message("user", "b")])
    assert kept[1] is ephemeral and kept[0].id and kept[2].id
    assert [m.content for m in store.messages(conversation.id)] == ["a", "b"]
    assert store.get_conversation(conversation.id).message_count == 2


@pytest.mark.parametrize(
    ("content", "title"),
    [
        ("How do I rotate logs?", "How do I rotate logs?"),
        ("\n\n  ## Deploy   the\tapp\nsecond line", "Deploy the app"),
        ("> quoted question", "quoted question"),
        ("word " * 40, "word word word word word word word word word word word…"),
        ("x" * 100, "x" * 59 + "…"),
        ("\x1b[31mred\x1b[0m alert", "[31mred[0m alert"),
        ("", ""),
        (None, ""),
    ],
)
def test_derive_title(content, title):
    assert derive_title(content) == title
    assert len(derive_title(content)) <= 60


def test_title_comes_from_first_user_message_only_when_missing(store):
    untitled = store.create_conversation()
    store.append(untitled.id, Message("system", "You are helpful"))
    store.append(untitled.id, Message("user", "  \n"))  # nothing usable yet
    assert store.get_conversation(untitled.id).title == ""
    store.append(untitled.id, Message("user", "Plan the migration to Postgres\nwith details"))
    store.append(untitled.id, Message("user", "Something else"))
    assert store.get_conversation(untitled.id).title == "Plan the migration to Postgres"

    titled = store.create_conversation(title="  My\nchosen   title ")
    assert titled.title == "My chosen title"
    store.append(titled.id, Message("user", "first question"))
    assert store.get_conversation(titled.id).title == "My chosen title"


def test_list_latest_archive_restore_rename(store):
    ids = []
    for i in range(5):
        conversation = store.create_conversation(title=f"c{i}")
        store.append(conversation.id, Message("user", f"hello {i}"))
        ids.append(conversation.id)
    store.append(ids[1], Message("user", "bump"))  # c1 is now the most recent
    assert [c.title for c in store.list_conversations()] == ["c1", "c4", "c3", "c2", "c0"]
    assert [c.title for c in store.list_conversations(limit=2, offset=1)] == ["c4", "c3"]
    assert store.latest_conversation().id == ids[1]

    store.archive(ids[1])
    assert store.latest_conversation().id == ids[4]
    assert store.count_conversations() == 4 and store.count_conversations(archived=True) == 1
    assert [c.id for c in store.list_conversations(archived=True)] == [ids[1]]
    assert store.count_conversations(archived=None) == 5
    assert store.get_conversation(ids[1]).archived

    store.restore(ids[1])
    assert store.latest_conversation().id == ids[1] and not store.get_conversation(ids[1]).archived
    store.rename(ids[0], "renamed")
    assert store.get_conversation(ids[0]).title == "renamed"


def test_delete_removes_messages_and_index(store, db_path):
    keep = store.create_conversation(title="keep")
    drop = store.create_conversation(title="drop")
    store.append(keep.id, Message("user", "shared word banana"))
    store.append_many(drop.id, [Message("user", "banana bread"), Message("assistant", "banana pie")])
    store.delete(drop.id)
    assert store.get_conversation(drop.id) is None
    assert store.messages(drop.id) == [] and store.count_messages(drop.id) == 0
    assert [hit.conversation_id for hit in store.search("banana")] == [keep.id]
    conn = sqlite3.connect(str(db_path), isolation_level=None)
    assert conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 1
    conn.execute("INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)")
    conn.close()
    with pytest.raises(UnknownConversationError):
        store.delete(drop.id)


def test_clear_deletes_everything_and_counts(store):
    for i in range(3):
        conversation = store.create_conversation()
        store.append(conversation.id, Message("user", f"note {i}"))
    store.archive(conversation.id)
    assert store.clear() == 3
    assert store.count_conversations(archived=None) == 0 and store.search("note") == []
    assert store.clear() == 0
    fresh = store.create_conversation()  # the store stays usable
    later = store.append(fresh.id, Message("user", "after clear"))
    assert later.id > 3  # ids are never reused (AUTOINCREMENT)


def test_unknown_conversation_is_reported(store):
    for action in (lambda: store.append("missing", Message("user", "x")),
                   lambda: store.rename("missing", "t"), lambda: store.archive("missing"),
                   lambda: store.restore("missing"), lambda: store.export_json("missing")):
        with pytest.raises(UnknownConversationError):
            action()
    assert store.count_conversations(archived=None) == 0


@pytest.mark.slow
def test_paging_a_long_conversation(store):
    conversation = store.create_conversation()
    stored = store.append_many(conversation.id, [Message("user", f"message {i}") for i in range(5000)])
    other = store.create_conversation()
    store.append(other.id, Message("user", "interleaved"))
    last_page = store.messages(conversation.id, limit=50)
    assert [m.content for m in last_page] == [f"message {i}" for i in range(4950, 5000)]
    before = store.messages(conversation.id, limit=50, before_id=last_page[0].id)
    assert [m.content for m in before] == [f"message {i}" for i in range(4900, 4950)]
    first = store.messages(conversation.id, limit=50, before_id=stored[3].id)
    assert [m.content for m in first] == ["message 0", "message 1", "message 2"]
    assert store.messages(conversation.id, limit=50, before_id=stored[0].id) == []
    assert len(list(store.iter_messages(conversation.id, batch=333))) == 5000


def test_hot_paths_use_indexes_never_scans(store):
    """Append and the page query touch O(log n) rows: no SCAN of a real table."""
    conversation = store.create_conversation()
    store.append(conversation.id, Message("user", "warm up"))
    db = store._db()  # the store's own connection, to see the exact SQL it runs
    seen: list[str] = []
    db.set_trace_callback(seen.append)
    try:
        store.append(conversation.id, Message("user", "traced"))
        store.messages(conversation.id, limit=50, before_id=10)
        store.latest_conversation()
    finally:
        db.set_trace_callback(None)
    statements = [s for s in seen if s.split()[0].upper() in ("SELECT", "INSERT", "UPDATE")
                  and "messages_fts" not in s and "trigger" not in s.lower()]
    assert len(statements) >= 4
    for statement in statements:
        plan = " | ".join(row[3] for row in db.execute("EXPLAIN QUERY PLAN " + statement))
        assert "SCAN messages" not in plan and "SCAN conversations" not in plan, (statement, plan)
        assert "COUNT(" not in statement.upper()


def test_locked_database_raises_write_error_and_retry_succeeds(db_path):
    store = HistoryStore(db_path, busy_timeout=0.2)
    conversation = store.create_conversation()
    blocker = sqlite3.connect(str(db_path), isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    message = Message("user", "please keep me")
    with pytest.raises(HistoryWriteError, match="locked"):
        store.append(conversation.id, message)
    assert message.id is None and message.content == "please keep me"
    blocker.execute("ROLLBACK")
    blocker.close()
    assert store.append(conversation.id, message).id is not None
    assert store.count_messages(conversation.id) == 1
    store.close()


def test_concurrent_appends_from_threads(store):
    conversation = store.create_conversation()
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for i in range(50):
                store.append(conversation.id, Message("user", f"w{n}-{i}"))
                store.messages(conversation.id, limit=5)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert store.count_messages(conversation.id) == 200
    assert store.get_conversation(conversation.id).message_count == 200


def test_close_then_use_reopens(store):
    conversation = store.create_conversation()
    store.close()
    store.close()  # idempotent
    store.append(conversation.id, Message("user", "after close"))
    assert store.count_messages(conversation.id) == 1


def test_two_stores_on_one_file_see_each_other(db_path):
    first, second = HistoryStore(db_path), HistoryStore(db_path)
    conversation = first.create_conversation()
    second.append(conversation.id, Message("user", "from the second instance"))
    first.append(conversation.id, Message("user", "from the first"))
    assert first.count_messages(conversation.id) == second.count_messages(conversation.id) == 2
    first.close()
    second.close()


def test_files_are_private(store, db_path):
    conversation = store.create_conversation()
    store.append(conversation.id, Message("user", "private"))
    for path in (db_path, db_path.with_name(db_path.name + "-wal"), db_path.with_name(db_path.name + "-shm")):
        assert path.exists(), path
        assert path.stat().st_mode & 0o777 == 0o600, path
    assert db_path.parent.stat().st_mode & 0o777 == 0o700
