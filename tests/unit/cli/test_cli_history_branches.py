"""``agenttui history show --json`` (parent ids, branches) and ``history fork``."""

from __future__ import annotations

import json

import pytest

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message


@pytest.fixture
def branched(paths):
    """q -> a1, and q -> a2 (a regenerated reply, the active branch)."""
    store = HistoryStore(paths.history_db("default"))
    conv = store.create_conversation("Capitals")
    q = store.append(conv.id, Message(role="user", content="capital of australia?"))
    a1 = store.append(conv.id, Message(role="assistant", content="Sydney, I think"))
    a2 = store.append(conv.id, Message(role="assistant", content="Canberra", parent_id=q.id))
    store.close()
    return conv, q, a1, a2


@pytest.mark.slow
def test_show_json_gives_parent_ids_of_the_active_branch_or_every_branch(cli, branched):
    conv, q, a1, a2 = branched
    shown = json.loads(cli("history", "show", conv.id[:8], "--json").out)
    assert shown["branch"] == "active" and shown["conversation"]["active_leaf_id"] == a2.id
    assert [(m["id"], m["parent_id"], m["content"]) for m in shown["messages"]] == [
        (q.id, None, "capital of australia?"), (a2.id, q.id, "Canberra")]
    every = json.loads(cli("history", "show", conv.id, "--json", "--all").out)
    assert [(m["id"], m["parent_id"]) for m in every["messages"]] == [
        (q.id, None), (a1.id, q.id), (a2.id, q.id)]
    text = cli("history", "show", conv.id).out
    assert "Canberra" in text and "Sydney" not in text
    assert f"#{a2.id} (version 2 of 2)" in text and f"#{q.id}\n" in text


@pytest.mark.slow
def test_fork_prints_the_new_id_and_leaves_the_original(cli, branched, paths):
    conv, _q, a1, _a2 = branched
    result = cli("history", "fork", conv.id[:8], "--at", str(a1.id))
    assert result.code == 0, result.err
    new_id = result.out.strip()
    shown = json.loads(cli("history", "show", new_id, "--json").out)
    assert [m["content"] for m in shown["messages"]] == ["capital of australia?", "Sydney, I think"]
    assert shown["conversation"]["title"] == "Capitals (fork)"
    original = json.loads(cli("history", "show", conv.id, "--json", "--all").out)
    assert len(original["messages"]) == 3 and original["conversation"]["active_leaf_id"] == _a2.id


def test_fork_at_a_message_of_another_conversation_fails_clearly(cli, branched, paths):
    conv, q, _a1, _a2 = branched
    store = HistoryStore(paths.history_db("default"))
    other = store.create_conversation("other").id
    store.close()
    result = cli("history", "fork", other, "--at", str(q.id))
    assert result.code == 1 and f"message {q.id} is not in conversation" in result.err
    assert len(json.loads(cli("history", "list", "--json").out)) == 2  # nothing was created
    missing = cli("history", "fork", conv.id, "--at", "not-a-number")
    assert missing.code == 2
