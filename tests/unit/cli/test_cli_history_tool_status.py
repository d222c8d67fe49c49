"""``agenttui history show`` says how each tool call ended, and export -> import keeps it."""

from __future__ import annotations

import json

import pytest

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message, ToolCall


@pytest.fixture
def conversation(paths):
    store = HistoryStore(paths.history_db("default"))
    conv = store.create_conversation("Tidy the disk")
    store.append(conv.id, Message("user", "clean up please"))
    calls = [
        ToolCall("call_rm", "shell", '{"command": "rm -rf ~/old"}'),
        ToolCall("call_ls", "list_files", '{"path": "."}'),
        ToolCall("call_old", "shell", '{"command": "ls"}'),
    ]
    store.append(conv.id, Message("assistant", None, tool_calls=calls, turn_id="t1"))
    store.append(
        conv.id,
        Message(
            "tool",
            "The user denied this call.",
            tool_call_id="call_rm",
            name="shell",
            turn_id="t1",
            tool_status="denied",
        ),
    )
    store.append(
        conv.id, Message("tool", "a.txt", tool_call_id="call_ls", name="list_files", turn_id="t1", tool_status="ok")
    )
    # stored before outcomes were kept: no status to print
    store.append(conv.id, Message("tool", "b.txt", tool_call_id="call_old", name="shell", turn_id="t1"))
    store.close()
    return conv


def _tool_headings(out: str) -> list[str]:
    """What follows ``#ID`` on each ``[tool] DATE TIME #ID ...`` line."""
    return [line.split("#", 1)[1].partition(" ")[2] for line in out.splitlines() if line.startswith("[tool]")]


def test_show_prints_each_tool_result_s_outcome(cli, conversation):
    result = cli("history", "show", conversation.id[:8])
    assert result.code == 0, result.err
    assert _tool_headings(result.out) == ["shell: denied", "list_files: ok", "shell"]
    shown = json.loads(cli("history", "show", conversation.id, "--json").out)
    assert [m.get("tool_status") for m in shown["messages"] if m["role"] == "tool"] == ["denied", "ok", None]


@pytest.mark.slow
def test_export_then_import_keeps_the_outcomes(cli, conversation, tmp_path):
    exported = tmp_path / "tidy.json"
    assert cli("history", "export", conversation.id, "--format", "json", "-o", str(exported)).code == 0
    fresh = {"AGENTTUI_HOME": str(tmp_path / "fresh-home")}
    imported = cli("history", "import", str(exported), env=fresh)
    assert imported.code == 0, imported.err
    result = cli("history", "show", conversation.id, env=fresh)
    assert result.code == 0, result.err
    assert _tool_headings(result.out) == ["shell: denied", "list_files: ok", "shell"]
