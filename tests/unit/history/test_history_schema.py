"""Schema versioning: fresh files, idempotent reopen, v1 -> v2, too-new, corrupt files."""

from __future__ import annotations

import sqlite3

import pytest

from agenttui.core.history.schema import MIGRATIONS, SCHEMA_VERSION, migrate, schema_version
from agenttui.core.history.store import HistoryError, HistoryStore
from agenttui.core.models import Message


def _raw(path):
    return sqlite3.connect(str(path), isolation_level=None)


def test_store_is_lazy(db_path):
    HistoryStore(db_path)
    assert not db_path.exists()


def test_fresh_file_gets_every_migration(store, db_path):
    assert store.count_conversations() == 0  # first use creates the file
    conn = _raw(db_path)
    assert schema_version(conn) == SCHEMA_VERSION == MIGRATIONS[-1].version
    names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert {"conversations", "messages", "messages_fts", "messages_by_conversation",
            "conversations_by_updated", "messages_fts_insert", "messages_fts_delete",
            "messages_fts_update", "embeddings", "embeddings_scan", "embeddings_stale"} <= names
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_reopen_is_idempotent(db_path):
    first = HistoryStore(db_path)
    cid = first.create_conversation("kept").id
    first.append(cid, Message("user", "hello"))
    first.close()
    for _ in range(3):
        again = HistoryStore(db_path)
        assert again.get_conversation(cid).title == "kept"
        assert again.count_messages(cid) == 1
        again.close()
    assert schema_version(_raw(db_path)) == SCHEMA_VERSION


def test_migrates_a_version_1_file_and_backfills_counts(db_path):
    db_path.parent.mkdir(parents=True)
    conn = _raw(db_path)
    migrate(conn, target=1)  # exactly what an older agenttui wrote
    assert schema_version(conn) == 1
    conn.execute("INSERT INTO conversations (id, title, created, updated) VALUES "
                 "('c1', 'old', '2025-01-01T00:00:00.000000+00:00', '2025-01-01T00:00:00.000000+00:00')")
    conn.executemany(
        "INSERT INTO messages (conversation_id, role, content, created) VALUES ('c1', ?, ?, "
        "'2025-01-01T00:00:00.000000+00:00')",
        [("user", "the old migration question"), ("assistant", "an old answer")],
    )
    conn.close()

    store = HistoryStore(db_path)
    conversation = store.get_conversation("c1")
    assert conversation.message_count == 2  # backfilled by migration 2
    assert [m.content for m in store.messages("c1")] == ["the old migration question", "an old answer"]
    assert [hit.message_id for hit in store.search("migration")] == [1]  # FTS kept working
    store.append("c1", Message("user", "new"))
    assert store.get_conversation("c1").message_count == 3
    store.close()
    assert schema_version(_raw(db_path)) == SCHEMA_VERSION


def test_a_failed_migration_changes_nothing(db_path, monkeypatch):
    import agenttui.core.history.schema as schema

    db_path.parent.mkdir(parents=True)
    conn = _raw(db_path)
    migrate(conn, target=1)
    broken = schema.Migration(99, "broken", ("CREATE TABLE half_done (x)", "THIS IS NOT SQL"))
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, broken))
    monkeypatch.setattr(schema, "SCHEMA_VERSION", 99)
    with pytest.raises(sqlite3.OperationalError):
        schema.migrate(conn)
    assert schema_version(conn) == 1  # neither migration 2 nor the half of 99 stuck
    names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert "half_done" not in names
    assert "message_count" not in {row[1] for row in conn.execute("PRAGMA table_info(conversations)")}


def test_a_newer_schema_is_refused_and_left_alone(db_path):
    db_path.parent.mkdir(parents=True)
    conn = _raw(db_path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    before = db_path.read_bytes()
    with pytest.raises(HistoryError, match="newer agenttui"):
        HistoryStore(db_path).count_conversations()
    assert db_path.read_bytes() == before


def test_a_corrupt_file_is_moved_aside_not_overwritten(db_path):
    db_path.parent.mkdir(parents=True)
    garbage = b"this is not a database, it is somebody's precious file" * 100
    db_path.write_bytes(garbage)
    store = HistoryStore(db_path)
    assert store.count_conversations() == 0
    moved = [p for p in db_path.parent.iterdir() if ".corrupt-" in p.name]
    assert len(moved) == 1 and moved[0].read_bytes() == garbage
    assert len(store.problems) == 1 and str(moved[0]) in store.problems[0]
    store.close()
