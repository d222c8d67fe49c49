"""Export to Markdown and JSON: full conversation, metadata, redacted again."""

from __future__ import annotations

import json
import sqlite3

from history_fakes import fake_openai_key

from agenttui.core.history.export import EXPORT_FORMAT
from agenttui.core.models import Message, ToolCall


def _conversation(store):
    conversation = store.create_conversation(model="gpt-test")
    store.append(conversation.id, Message("user", "How do I list files?"))
    store.append(conversation.id, Message(
        "assistant", "Let me check.", tool_calls=[ToolCall("call_1", "shell", '{"command": "ls"}')]))
    store.append(conversation.id, Message("tool", "a.txt\n```\nb.txt", tool_call_id="call_1", name="shell"))
    store.append(conversation.id, Message("user", "And this?", image_b64="aGVsbG8=", image_mime="image/png"))
    store.append(conversation.id, Message("assistant", "Two files.", incomplete=True))
    return store.get_conversation(conversation.id)


def test_export_json_has_everything(store):
    conversation = _conversation(store)
    document = json.loads(store.export_json(conversation.id))
    assert document["format"] == EXPORT_FORMAT and document["version"] == 1
    meta = document["conversation"]
    assert meta["id"] == conversation.id and meta["title"] == "How do I list files?"
    assert meta["model"] == "gpt-test" and meta["message_count"] == 5 and meta["archived"] is False
    messages = document["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "user", "assistant"]
    assert messages[1]["tool_calls"] == [{"id": "call_1", "name": "shell", "arguments": '{"command": "ls"}'}]
    assert messages[2]["tool_call_id"] == "call_1" and messages[2]["name"] == "shell"
    assert messages[3]["image_b64"] == "aGVsbG8=" and messages[4]["incomplete"] is True
    assert all(m["id"] and m["created"] for m in messages)


def test_export_markdown_reads_well(store):
    conversation = _conversation(store)
    text = store.export_markdown(conversation.id)
    assert text.startswith("# How do I list files?\n")
    assert f"- id: `{conversation.id}`" in text and "- model: gpt-test" in text
    assert "## User" in text and "## Assistant (incomplete)" in text and "## Tool result `shell`" in text
    assert '**Tool call** `shell` (`call_1`)' in text and '{"command": "ls"}' in text
    assert "````\na.txt\n```\nb.txt\n````" in text  # a fence longer than the backticks inside
    assert "[image: image/png" in text and "aGVsbG8=" not in text
    assert text.index("How do I list files?") < text.index("Two files.")


def test_exports_redact_again(store, db_path):
    """Text that slipped into the file (older rules, hand edits) is caught on the way out."""
    conversation = _conversation(store)
    key = fake_openai_key(3)
    conn = sqlite3.connect(str(db_path))
    conn.execute("UPDATE messages SET content = ? WHERE role = 'user'", (f"leaked {key}",))
    conn.execute("UPDATE conversations SET title = ?", (f"title {key}",))
    conn.commit()
    conn.close()
    for exported in (store.export_markdown(conversation.id), store.export_json(conversation.id)):
        assert key not in exported and "leaked [REDACTED" in exported
