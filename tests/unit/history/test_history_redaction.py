"""Secrets never reach the database file, its WAL, or an export."""

from __future__ import annotations

import json

from history_fakes import fake_openai_key

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message, ToolCall


def _raw_bytes(db_path) -> bytes:
    data = b""
    for suffix in ("", "-wal", "-shm"):
        path = db_path.with_name(db_path.name + suffix)
        if path.exists():
            data += path.read_bytes()
    return data


def test_secrets_are_redacted_before_they_reach_disk(store, db_path):
    key = fake_openai_key(1)
    conversation = store.create_conversation(title=f"debugging {key}")
    user = store.append(conversation.id, Message("user", f"my key is {key}, why 401?"))
    call = store.append(conversation.id, Message(
        "assistant", None, tool_calls=[ToolCall("c1", "shell", json.dumps({"cmd": f"export OPENAI_API_KEY={key}"}))]))
    result = store.append(conversation.id, Message("tool", f"OPENAI_API_KEY={key}\nok", tool_call_id="c1",
                                                    name="shell"))
    assert key not in user.content and "[REDACTED" in user.content
    assert key not in call.tool_calls[0].arguments and key not in result.content
    assert key not in store.get_conversation(conversation.id).title

    wal = db_path.with_name(db_path.name + "-wal")
    assert wal.exists() and wal.stat().st_size > 0  # the WAL holds the data right now
    raw = _raw_bytes(db_path)
    assert b"my key is" in raw  # we are looking at the right bytes
    assert key.encode() not in raw and key[8:].encode() not in raw  # FTS tokens included

    store.close()  # checkpoint folds the WAL into the main file
    assert key.encode() not in _raw_bytes(db_path)
    assert store.search(key) == [] and store.search(key[8:]) == []


def test_rename_is_redacted_too(store, db_path):
    key = fake_openai_key(2)
    conversation = store.create_conversation()
    store.rename(conversation.id, f"key {key}")
    assert key not in store.get_conversation(conversation.id).title
    assert key.encode() not in _raw_bytes(db_path)


def test_extra_patterns_from_config_apply(db_path):
    store = HistoryStore(db_path, redact_patterns=[r"ACME-\d{6}"])
    conversation = store.create_conversation()
    stored = store.append(conversation.id, Message("user", "ticket token ACME-123456 please"))
    assert "ACME-123456" not in stored.content
    assert b"ACME-123456" not in _raw_bytes(db_path)
    store.close()


def test_ordinary_text_is_left_alone(store):
    conversation = store.create_conversation()
    text = "commit 3f786850e387550fdab836ed7e6dc881de23001b fixed the password prompt"
    assert store.append(conversation.id, Message("user", text)).content == text
