"""Conversations as trees (schema v6): branches, the active branch, fork, migration."""

from __future__ import annotations

import json
import sqlite3

import pytest

from agenttui.core.history import schema
from agenttui.core.history.store import NEW_ROOT, HistoryError, HistoryStore
from agenttui.core.models import Message, ToolCall

T0 = "2025-03-0{day}T10:00:00.000000+00:00"


def _linear(store: HistoryStore, *texts: str) -> tuple[str, list[Message]]:
    cid = store.create_conversation().id
    roles = ["user", "assistant"]
    saved = [store.append(cid, Message(roles[k % 2], text)) for k, text in enumerate(texts)]
    return cid, saved


def _texts(messages: list[Message]) -> list[str | None]:
    return [m.content for m in messages]


# -- migration from v5 (the schema before this issue) --------------------------------------
def _v5_file(path) -> None:
    """A v5 database exactly as the previous release wrote it: its own migrations, then rows
    of three conversations whose messages interleave in id order (they were written side by
    side), with tool calls, a tool result, meta, an archived conversation and an embedding."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), isolation_level=None)
    schema.migrate(conn, target=5)
    assert schema.schema_version(conn) == 5
    for cid, title, archived in (("a", "deploy notes", 0), ("b", "recipes", 0), ("c", "old", 1)):
        conn.execute("INSERT INTO conversations (id, title, created, updated, archived) VALUES "
                     "(?, ?, ?, ?, ?)", (cid, title, T0.format(day=1), T0.format(day=2), archived))
    call = json.dumps([{"id": "call_1", "name": "read_file", "arguments": '{"path": "x"}'}])
    rows = [  # (conversation, role, content, tool_calls, tool_call_id, meta)
        ("a", "user", "how do I deploy the kubernetes operator", None, None, None),
        ("b", "user", "a risotto for four", None, None, None),
        ("a", "assistant", None, call, None, '{"provider": {"reasoning_content": "r"}}'),
        ("a", "tool", "file text", None, "call_1", None),
        ("c", "user", "archived question", None, None, None),
        ("b", "assistant", "arborio, stock, parmesan", None, None, None),
        ("a", "assistant", "run helm upgrade", None, None,
         '{"incomplete_reason": "cut at the token limit"}'),
        ("b", "user", "and for two?", None, None, None),
    ]
    for n, (cid, role, content, calls, call_id, meta) in enumerate(rows):
        conn.execute("INSERT INTO messages (conversation_id, role, content, tool_calls, tool_call_id, "
                     "created, meta, incomplete) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     (cid, role, content, calls, call_id, T0.format(day=1 + n % 2), meta,
                      int(meta is not None and "incomplete" in meta)))
    conn.execute("UPDATE conversations SET message_count = (SELECT COUNT(*) FROM messages "
                 "WHERE conversation_id = conversations.id)")
    conn.execute("INSERT INTO embeddings (message_id, model, dim, bits, vector) VALUES (1, 'm', 8, x'00', ?)",
                 (b"\0" * 32,))
    conn.close()


def test_a_version_5_file_becomes_one_branch_per_conversation(db_path):
    _v5_file(db_path)
    store = HistoryStore(db_path)
    a = store.messages("a")
    assert [m.id for m in a] == [1, 3, 4, 7]  # interleaved ids, each conversation its own chain
    assert [m.parent_id for m in a] == [None, 1, 3, 4]
    assert a[1].tool_calls[0].name == "read_file" and a[1].provider_fields == {"reasoning_content": "r"}
    assert a[3].incomplete_reason == "cut at the token limit"
    b = store.messages("b")
    assert [m.parent_id for m in b] == [None, 2, 6] and _texts(b)[-1] == "and for two?"
    for cid, leaf, count in (("a", 7, 4), ("b", 8, 3), ("c", 5, 1)):
        conversation = store.get_conversation(cid)
        assert (conversation.active_leaf_id, conversation.message_count) == (leaf, count)
        assert not store.has_branches(cid)
    assert store.get_conversation("c").archived
    assert [h.message_id for h in store.search("kubernetes")] == [1]  # FTS untouched
    assert store.messages("a", limit=2, before_id=7) == a[1:3]  # paging walks the chain
    # the migrated conversation continues as one branch
    new = store.append("b", Message("assistant", "halve it"))
    assert new.parent_id == 8 and store.get_conversation("b").active_leaf_id == new.id
    store.close()
    conn = sqlite3.connect(str(db_path))
    assert schema.schema_version(conn) == schema.SCHEMA_VERSION == 9
    assert conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0] == 1
    assert "messages_by_parent" in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()


def test_a_failed_version_6_migration_leaves_version_5(db_path, monkeypatch):
    _v5_file(db_path)
    conn = sqlite3.connect(str(db_path), isolation_level=None)
    broken = schema.Migration(6, "v6, then a crash", (*schema.MIGRATIONS[5].statements, "NOT SQL"))
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS[:5], broken))
    with pytest.raises(sqlite3.OperationalError):
        schema.migrate(conn)
    assert schema.schema_version(conn) == 5
    assert "parent_id" not in {row[1] for row in conn.execute("PRAGMA table_info(messages)")}
    monkeypatch.undo()
    conn.close()
    store = HistoryStore(db_path)  # the next open retries, whole
    assert [m.parent_id for m in store.messages("a")] == [None, 1, 3, 4]
    store.close()


# -- branches ---------------------------------------------------------------------------------
def test_editing_a_question_adds_a_branch_and_keeps_the_old_one(store):
    cid, (q1, a1, q2, a2) = _linear(store, "q1", "a1", "q2 typo", "a2")
    edited = store.append(cid, Message("user", "q2 fixed", parent_id=q2.parent_id))
    assert edited.parent_id == a1.id
    reply = store.append(cid, Message("assistant", "a2 new"))  # continues the new branch
    assert _texts(store.messages(cid)) == ["q1", "a1", "q2 fixed", "a2 new"]
    assert store.get_conversation(cid).message_count == 6  # nothing lost
    assert store.branch_positions(cid, [q1.id, q2.id, edited.id, reply.id]) == {
        q2.id: (1, 2), edited.id: (2, 2)}
    assert store.switch_sibling(cid, edited.id, -1) == q2.id
    assert _texts(store.messages(cid)) == ["q1", "a1", "q2 typo", "a2"]  # its newest leaf: a2
    assert store.off_branch_ids(cid) == {edited.id, reply.id}
    assert store.switch_sibling(cid, q2.id, +1) == edited.id
    assert store.off_branch_ids(cid) == {q2.id, a2.id}


def test_editing_the_first_question_starts_a_new_root(store):
    cid, (q1, _a1) = _linear(store, "first", "answer")
    root = store.append(cid, Message("user", "first, better", parent_id=NEW_ROOT))
    assert root.parent_id is None
    assert _texts(store.messages(cid)) == ["first, better"]
    assert store.sibling_ids(cid, q1.id) == [q1.id, root.id]


def test_regenerating_adds_a_sibling_reply(store):
    cid, (q1, a1) = _linear(store, "q", "first answer")
    again = store.append(cid, Message("assistant", "second answer", parent_id=q1.id))
    assert store.sibling_ids(cid, a1.id) == [a1.id, again.id]
    assert _texts(store.messages(cid)) == ["q", "second answer"]
    assert store.switch_sibling(cid, again.id, +1) == a1.id  # wraps round
    assert _texts(store.messages(cid)) == ["q", "first answer"]


def test_switching_follows_the_newest_leaf_below_the_sibling(store):
    cid, (q1, a1, _q2, a2) = _linear(store, "q1", "a1", "q2", "a2")
    alt = store.append(cid, Message("assistant", "a1 alt", parent_id=q1.id))
    store.append(cid, Message("user", "q2 on alt"))
    store.show_branch(cid, a2.id)
    assert _texts(store.messages(cid)) == ["q1", "a1", "q2", "a2"]
    store.switch_sibling(cid, a1.id, +1)
    assert _texts(store.messages(cid)) == ["q1", "a1 alt", "q2 on alt"]
    assert store.show_branch(cid, q1.id) == store.get_conversation(cid).active_leaf_id  # on it: kept
    with pytest.raises(HistoryError):
        store.show_branch(store.create_conversation().id, alt.id)


def test_a_parent_from_another_conversation_is_refused_and_nothing_is_written(store):
    _cid, (q1, _a1) = _linear(store, "q", "a")
    other = store.create_conversation().id
    with pytest.raises(HistoryError):
        store.append(other, Message("user", "x", parent_id=q1.id))
    assert store.count_messages(other) == 0 and store.get_conversation(other).message_count == 0


def test_paging_and_exports_follow_the_active_branch(store):
    cid, saved = _linear(store, *[f"m{k}" for k in range(10)])
    store.append(cid, Message("assistant", "m9 again", parent_id=saved[8].id))
    page = store.messages(cid, limit=4)
    assert _texts(page) == ["m6", "m7", "m8", "m9 again"]
    assert _texts(store.messages(cid, limit=4, before_id=page[0].id)) == ["m2", "m3", "m4", "m5"]
    markdown = store.export_markdown(cid)
    assert "m9 again" in markdown and "\nm9\n" not in markdown
    assert "- messages: 10 of 11 (the active branch;" in markdown
    document = json.loads(store.export_json(cid))
    assert [m["content"] for m in document["messages"]][-2:] == ["m9", "m9 again"]  # whole tree
    assert document["messages"][-1]["parent_id"] == saved[8].id


def test_search_finds_every_branch(store):
    cid, (q1, a1) = _linear(store, "question", "the zebra answer")
    store.append(cid, Message("assistant", "the giraffe answer", parent_id=q1.id))
    assert [h.message_id for h in store.search("zebra")] == [a1.id]  # off the active branch


# -- fork -------------------------------------------------------------------------------------
def test_fork_holds_the_path_up_to_the_message_and_leaves_the_original(store):
    cid, (q1, a1, _q2, _a2) = _linear(store, "q1", "a1", "q2", "a2")
    store.rename(cid, "plans")
    before = (store.get_conversation(cid), store.messages(cid))
    fork = store.fork(cid, a1.id)
    assert fork.id != cid and fork.title == "plans (fork)"
    copied = store.messages(fork.id)
    assert _texts(copied) == ["q1", "a1"] and copied[1].parent_id == copied[0].id
    assert all(m.id not in (q1.id, a1.id) for m in copied)
    assert store.get_conversation(fork.id).message_count == 2
    assert (store.get_conversation(cid), store.messages(cid)) == before  # original unchanged
    store.append(fork.id, Message("user", "q2 in the fork"))
    assert _texts(store.messages(cid)) == ["q1", "a1", "q2", "a2"]


def test_fork_at_a_tool_call_takes_its_results_along(store):
    cid = store.create_conversation().id
    store.append(cid, Message("user", "read x"))
    ask = store.append(cid, Message("assistant", None, tool_calls=[ToolCall("c1", "read_file", "{}")]))
    store.append(cid, Message("tool", "contents", tool_call_id="c1", name="read_file"))
    store.append(cid, Message("assistant", "done"))
    fork = store.fork(cid, ask.id)
    assert [m.role for m in store.messages(fork.id)] == ["user", "assistant", "tool"]


def test_fork_of_a_message_elsewhere_is_refused(store):
    _cid, (q1, _a) = _linear(store, "q", "a")
    other = store.create_conversation().id
    with pytest.raises(HistoryError):
        store.fork(other, q1.id)
    assert store.count_conversations() == 2


def test_saving_an_incognito_conversation_keeps_its_branches(paths, tmp_path):
    from agenttui.bootstrap import build_services
    from agenttui.core.incognito import incognito_services, save_conversation

    services = build_services(paths=paths, cwd=tmp_path)
    twin = incognito_services(services)
    chat = twin.history.create_conversation()
    q = twin.history.append(chat.id, Message("user", "a name for a cat"))
    twin.history.append(chat.id, Message("assistant", "Miso"))
    twin.history.append(chat.id, Message("assistant", "Tofu", parent_id=q.id))
    twin.history.switch_sibling(chat.id, q.id + 2, -1)  # Miso shown
    save_conversation(twin, chat.id, services.history)
    saved = services.history.messages(chat.id)
    assert _texts(saved) == ["a name for a cat", "Miso"]
    assert _texts([services.history.get_message(i) for i in
                   services.history.sibling_ids(chat.id, saved[1].id)]) == ["Miso", "Tofu"]
    twin.history.discard()
    services.close()


def test_a_neighbour_is_found_on_the_message_s_own_branch(store):
    cid = store.create_conversation().id
    q = store.append(cid, Message("user", "favourite colour?"))
    store.append(cid, Message("assistant", "Blue."))
    tool_ask = store.append(cid, Message("assistant", None, tool_calls=[ToolCall("c1", "lookup", "{}")],
                                         parent_id=q.id))
    store.append(cid, Message("tool", "green", tool_call_id="c1"))
    green = store.append(cid, Message("assistant", "Green, it says."))
    later_q = store.append(cid, Message("user", "why green?"))
    assert store.neighbour(q.id, cid, after=True).id == green.id  # the newest answer, past the tool
    assert store.neighbour(later_q.id, cid, after=False).id == green.id  # not "Blue." (older id)
    assert store.neighbour(green.id, cid, after=False).id == q.id
    assert store.neighbour(later_q.id, cid, after=True) is None
    assert tool_ask.parent_id == q.id


def test_the_branched_flag_is_set_by_the_first_sibling_only(store, db_path):
    cid, (q1, a1) = _linear(store, "q", "a")
    store.append(cid, Message("user", "follow-up", parent_id=a1.id))  # explicit, but no sibling
    assert not store.has_branches(cid)
    assert store.off_branch_ids(cid) == frozenset()
    store.append(cid, Message("assistant", "another answer", parent_id=q1.id))
    assert store.has_branches(cid)
    fork = store.fork(cid, a1.id)
    assert not store.has_branches(fork.id)
    tree = store.create_conversation().id
    assert not store.has_branches(tree)
    store.close()
    # a v6 file with a branch gets the flag from the migration
    conn = sqlite3.connect(str(db_path), isolation_level=None)
    conn.execute("UPDATE conversations SET branched = 0")
    conn.execute("ALTER TABLE conversations DROP COLUMN branched")
    conn.execute("PRAGMA user_version = 6")
    conn.close()
    again = HistoryStore(db_path)
    assert again.has_branches(cid) and not again.has_branches(fork.id)
    again.close()


def test_fork_copies_every_field(store):
    cid = store.create_conversation().id
    q = store.append(cid, Message("user", "look", image_b64="iVBORw0KGgo=", image_mime="image/png"))
    a = store.append(cid, Message("assistant", "cut short", incomplete=True, incomplete_reason="cut at the limit",
                                  provider_fields={"reasoning_content": "r"}))
    fork = store.fork(cid, a.id)
    fq, fa = store.messages(fork.id)
    assert (fq.image_b64, fq.image_mime, fq.created) == ("iVBORw0KGgo=", "image/png", q.created)
    assert (fa.incomplete, fa.incomplete_reason, fa.provider_fields) == (True, "cut at the limit",
                                                                       {"reasoning_content": "r"})
    assert store.get_conversation(fork.id).active_leaf_id == fa.id
