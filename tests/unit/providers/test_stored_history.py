"""What is stored, and histories written by versions that stored empty replies.

Schema v5 (``messages.meta``) keeps the incomplete reason, provider fields and
(optionally) reasoning; conversations that already hold an empty assistant
message (written by older versions) continue to work.
"""

from __future__ import annotations

import sqlite3

import pytest

from agenttui.agent.wire_repair import EMPTY_REPLY
from agenttui.core.history import schema
from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message, ToolCall

from . import formats
from .helpers import follow_up_succeeds

GITHUB_TOKEN = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"


async def test_a_stored_empty_reply_no_longer_breaks_the_conversation(services, conversation, fake_openai):
    history = services.history
    history.append(conversation.id, Message("user", "hello"))
    history.append(conversation.id, Message("assistant", None))  # what older versions stored
    sent = await follow_up_succeeds(services, conversation, fake_openai, checks=formats.openai_checks)
    assert {"role": "assistant", "content": EMPTY_REPLY} in sent
    roles = [m["role"] for m in sent if m["role"] != "system"]
    assert roles == ["user", "assistant", "user"]  # alternation kept for strict chat templates


def _old_file(path, version: int) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), isolation_level=None)
    schema.migrate(conn, target=version)
    conn.execute("INSERT INTO conversations (id, title, created, updated) VALUES "
                 "('c1', 'old', '2025-01-01T00:00:00.000000+00:00', '2025-01-01T00:00:00.000000+00:00')")
    conn.executemany("INSERT INTO messages (conversation_id, role, content, created) VALUES ('c1', ?, ?, "
                     "'2025-01-01T00:00:00.000000+00:00')", [("user", "old question"), ("assistant", None)])
    return conn


def test_a_version_4_file_migrates_and_keeps_its_messages(tmp_path):
    db = tmp_path / "history.db"
    _old_file(db, 4).close()
    store = HistoryStore(db)
    rows = store.messages("c1")
    assert [(m.role, m.content) for m in rows] == [("user", "old question"), ("assistant", None)]
    assert rows[1].incomplete_reason is None and rows[1].provider_fields == {}
    store.append("c1", Message("assistant", "new", incomplete=True, incomplete_reason="cut"))
    assert store.messages("c1")[-1].incomplete_reason == "cut"
    store.close()
    assert schema.schema_version(sqlite3.connect(str(db))) == schema.SCHEMA_VERSION


def test_a_failed_version_5_migration_leaves_version_4(tmp_path, monkeypatch):
    db = tmp_path / "history.db"
    conn = _old_file(db, 4)
    broken = schema.Migration(5, "v5, then a crash", (*schema.MIGRATIONS[4].statements, "NOT SQL"))
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS[:4], broken))
    with pytest.raises(sqlite3.OperationalError):
        schema.migrate(conn)
    assert schema.schema_version(conn) == 4
    assert "meta" not in {row[1] for row in conn.execute("PRAGMA table_info(messages)")}
    monkeypatch.undo()
    conn.close()
    store = HistoryStore(db)  # the next open simply retries
    assert len(store.messages("c1")) == 2
    store.close()


def test_provider_fields_round_trip_exactly_and_text_is_redacted(tmp_path):
    store = HistoryStore(tmp_path / "history.db")
    cid = store.create_conversation().id
    signature = formats.GEMINI_SIGNATURE
    call = ToolCall("function-call-1", "recall", '{"query": "tea"}',
                    extra={"extra_content": {"google": {"thought_signature": signature}}})
    store.append(cid, Message("assistant", None, tool_calls=[call],
                              provider_fields={"reasoning_content": f"use {GITHUB_TOKEN} to look"},
                              reasoning=f"thinking about {GITHUB_TOKEN}"))
    [row] = store.messages(cid)
    assert row.tool_calls[0].extra == call.extra  # opaque: byte for byte
    assert row.tool_calls[0].to_openai()["extra_content"]["google"]["thought_signature"] == signature
    assert row.provider_fields["reasoning_content"].startswith("use ") and GITHUB_TOKEN not in str(row.provider_fields)
    assert row.reasoning.startswith("thinking about") and GITHUB_TOKEN not in row.reasoning
    assert row.to_openai()["reasoning_content"] == row.provider_fields["reasoning_content"]
    store.close()


def test_export_and_import_keep_what_the_provider_needs_back(tmp_path):
    import json

    from agenttui.core.history.importer import parse_agenttui_document

    source = HistoryStore(tmp_path / "a.db")
    cid = source.create_conversation("gemini").id
    call = ToolCall("function-call-1", "recall", '{"query": "tea"}',
                    extra={"extra_content": {"google": {"thought_signature": formats.GEMINI_SIGNATURE}}})
    source.append_many(cid, [
        Message("user", "tea?"),
        Message("assistant", None, tool_calls=[call], provider_fields={"reasoning_content": "look"}),
        Message("tool", "nothing", tool_call_id="function-call-1", name="recall"),
        Message("assistant", "Cut", incomplete=True, incomplete_reason="cut at the limit",
                cut_tool_calls=[{"id": "c2", "name": "remember", "arguments": '{"te'}])])
    document = source.export_json(cid)
    source.close()
    imported = parse_agenttui_document(json.loads(document))
    target = HistoryStore(tmp_path / "b.db")
    assert target.import_conversation(imported.conversation, imported.messages)
    rows = target.messages(cid)
    assert rows[1].tool_calls[0].extra == call.extra
    assert rows[1].to_openai()["reasoning_content"] == "look"
    assert rows[3].incomplete_reason == "cut at the limit" and rows[3].cut_tool_calls[0]["name"] == "remember"
    target.close()
