"""A tool call's outcome (``tool_status``) survives ``export_json`` -> import, and Markdown says it.

Without it an exported-then-imported conversation showed every call as ✓: a denied
``rm -rf`` and a failed tool too.
"""

from __future__ import annotations

import json

from agenttui.core.history.importer import import_into, parse_export
from agenttui.core.history.store import HistoryStore
from agenttui.core.models import TOOL_STATUSES, Message, ToolCall


def _calls_and_results(store: HistoryStore) -> str:
    conversation = store.create_conversation("Tidy the disk")
    store.append(conversation.id, Message("user", "clean up please"))
    calls = [
        ToolCall(f"call_{n}", "shell", json.dumps({"command": f"step {n}"})) for n in range(len(TOOL_STATUSES) + 1)
    ]
    store.append(conversation.id, Message("assistant", None, tool_calls=calls, turn_id="t1"))
    # one result per outcome, and one stored before outcomes were kept (no status)
    for call, status in zip(calls, [*TOOL_STATUSES, None], strict=True):
        store.append(
            conversation.id,
            Message(
                "tool", f"result of {call.id}", tool_call_id=call.id, name="shell", turn_id="t1", tool_status=status
            ),
        )
    return conversation.id


def _statuses(store: HistoryStore, cid: str) -> list[str | None]:
    return [m.tool_status for m in store.messages(cid) if m.role == "tool"]


def test_export_json_writes_each_outcome_and_import_reads_it_back(store, tmp_path):
    cid = _calls_and_results(store)
    document = json.loads(store.export_json(cid))
    tools = [m for m in document["messages"] if m["role"] == "tool"]
    assert [m.get("tool_status") for m in tools] == [*TOOL_STATUSES, None]
    assert "tool_status" not in tools[-1]  # nothing written when nothing was kept

    fresh = HistoryStore(tmp_path / "fresh.sqlite3")
    try:
        counts = import_into(fresh, parse_export(document).conversations)
        assert counts.imported == 1
        assert _statuses(fresh, cid) == [*TOOL_STATUSES, None]
    finally:
        fresh.close()


def test_an_export_without_outcomes_still_imports(store, tmp_path):
    """Exports written before ``tool_status`` existed: the calls come back as they were read."""
    cid = _calls_and_results(store)
    document = json.loads(store.export_json(cid))
    for message in document["messages"]:
        message.pop("tool_status", None)
    fresh = HistoryStore(tmp_path / "fresh.sqlite3")
    try:
        assert import_into(fresh, parse_export(document).conversations).imported == 1
        assert _statuses(fresh, cid) == [None] * (len(TOOL_STATUSES) + 1)
    finally:
        fresh.close()


def test_an_unknown_or_misplaced_outcome_is_not_kept(store, tmp_path):
    cid = _calls_and_results(store)
    document = json.loads(store.export_json(cid))
    tools = [m for m in document["messages"] if m["role"] == "tool"]
    tools[0]["tool_status"] = "exploded"
    tools[1]["tool_status"] = ["denied"]
    document["messages"][0]["tool_status"] = "denied"  # a user message has no outcome
    fresh = HistoryStore(tmp_path / "fresh.sqlite3")
    try:
        assert import_into(fresh, parse_export(document).conversations).imported == 1
        messages = fresh.messages(cid)
        assert messages[0].tool_status is None
        assert [m.tool_status for m in messages if m.role == "tool"][:3] == [None, None, "denied"]
    finally:
        fresh.close()


def test_markdown_names_a_call_that_did_not_end_well(store):
    cid = _calls_and_results(store)
    text = store.export_markdown(cid)
    headings = [line for line in text.splitlines() if line.startswith("## Tool result")]
    assert headings == [
        "## Tool result `shell`",
        "## Tool result `shell` (failed)",
        "## Tool result `shell` (denied)",
        "## Tool result `shell` (not run)",
        "## Tool result `shell` (stopped)",
        "## Tool result `shell`",
    ]
