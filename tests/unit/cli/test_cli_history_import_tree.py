"""Importing trees: ChatGPT's ``mapping`` whole, and agenttui's JSON round trip.

data/chatgpt_branched.json is hand-written in the shape of ChatGPT's data-export
``conversations.json`` as described in
https://github.com/mitkury/chatgpt-export-parser/blob/main/docs/chatgpt-data-export-format.md
("Message Mapping Structure" and "Branches": editing a question adds a sibling
user node under the same parent, regenerating adds a sibling assistant node under
the question, ``current_node`` ends the branch the UI shows). It holds a hidden
system root, an edited question whose old branch went through a browser call and
its tool result (skipped: the answer hangs under the question), and a regenerated
answer under the edited question, the current node.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message

BRANCHED = Path(__file__).parent / "data" / "chatgpt_branched.json"


def _store(home: Path) -> HistoryStore:
    return HistoryStore(home / "data" / "profiles" / "default" / "history.sqlite3")


def _content(store: HistoryStore, ids: list[int]) -> list[str | None]:
    return [store.get_message(i).content for i in ids]


def test_a_branched_chatgpt_export_keeps_every_branch(cli, isolated_home):
    result = cli("history", "import", str(BRANCHED))
    assert result.code == 0, result.err
    assert "imported 1 conversation (7 messages)" in result.out
    store = _store(isolated_home)
    (conversation,) = store.list_conversations()
    assert conversation.title == "Sourdough starter names" and conversation.message_count == 7
    active = store.messages(conversation.id)
    assert [m.content for m in active] == [
        "Suggest a name for my sourdough starter", "How about Clint Yeastwood?",
        "Something more serious, in French", "Madame Levure."]
    # the edited question's old version, and its answer (the browser step passed over)
    old_q, _new_q = store.sibling_ids(conversation.id, active[2].id)
    assert _content(store, [old_q]) == ["Something more serious"]
    store.show_branch(conversation.id, old_q)
    assert [m.content for m in store.messages(conversation.id)][2:] == ["Something more serious", "Levain Prime."]
    # the regenerated answer and the first one, in ChatGPT's order
    assert _content(store, store.sibling_ids(conversation.id, active[3].id)) == [
        "Le Levain Royal.", "Madame Levure."]
    store.close()


@pytest.mark.slow
def test_agenttui_json_export_and_import_keep_the_tree(cli, isolated_home, tmp_path):
    store = _store(isolated_home)
    cid = store.create_conversation("tree").id
    q = store.append(cid, Message("user", "q"))
    store.append(cid, Message("assistant", "first"))
    second = store.append(cid, Message("assistant", "second", parent_id=q.id))
    store.append(cid, Message("user", "follow-up"))
    store.switch_sibling(cid, second.id, -1)  # the first answer is shown
    store.close()
    out = tmp_path / "tree.json"
    assert cli("history", "export", cid, "--format", "json", "--output", str(out)).code == 0
    document = json.loads(out.read_text())
    document["conversation"]["id"] = "elsewhere"  # imported as a new conversation
    out.write_text(json.dumps(document))
    assert cli("history", "import", str(out)).code == 0
    store = _store(isolated_home)
    imported = next(c for c in store.list_conversations() if c.id != cid)
    assert [m.content for m in store.messages(imported.id)] == ["q", "first"]  # same active branch
    first = store.messages(imported.id)[1]
    assert _content(store, store.sibling_ids(imported.id, first.id)) == ["first", "second"]
    store.switch_sibling(imported.id, first.id, +1)
    assert [m.content for m in store.messages(imported.id)] == ["q", "second", "follow-up"]
    store.close()


def test_a_parent_id_that_names_no_earlier_message_is_reported_and_nothing_imported(cli, tmp_path, isolated_home):
    document = {"format": "agenttui.conversation", "version": 1,
                "conversation": {"id": "b" * 32, "title": "bad tree"},
                "messages": [{"id": 1, "parent_id": 7, "role": "user", "content": "x",
                              "created": "2025-01-01T00:00:00+00:00"}]}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document))
    result = cli("history", "import", str(bad))
    assert result.code == 1 and "parent_id 7 is not an earlier message" in result.err
    store = _store(isolated_home)
    assert store.count_conversations() == 0
    store.close()
