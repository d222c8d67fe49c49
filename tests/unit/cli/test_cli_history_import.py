"""``agenttui history import`` through the real CLI, real HistoryStore, real files.

The ChatGPT fixture (data/chatgpt_conversations.json) is hand-written from the
public description of ChatGPT's data export: ``conversations.json`` is an
array of conversations with ``title``, ``create_time``/``update_time`` (epoch
seconds), ``mapping`` {node id: {id, message, parent, children}},
``current_node``, ``is_archived``, ``default_model_slug``; messages carry
``author.role``, ``content.content_type``/``parts``, ``recipient``,
``metadata.is_visually_hidden_from_conversation`` -- see
https://github.com/mitkury/chatgpt-export-parser/blob/main/docs/chatgpt-data-export-format.md
It holds a regenerated answer on a branch off the current path, an image
part, a browser tool call and result, a hidden system root, hidden custom
instructions, a null ``create_time``, an archived conversation and one with
nothing visible.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message, ToolCall

CHATGPT = Path(__file__).parent / "data" / "chatgpt_conversations.json"
# Built at run time so no key-shaped literal sits in the repository.
FAKE_KEY = "sk-proj-" + "Xq7Lm2Rt9Vb4Nc8Kd1Wf6Hy3Jz5Pa0SeT4uG"


def _at(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _store(home: Path) -> HistoryStore:
    return HistoryStore(home / "data" / "profiles" / "default" / "history.sqlite3")


def _all(store: HistoryStore) -> list:
    return store.list_conversations(limit=100, archived=None)


def _fields(message: Message) -> tuple:
    return (message.role, message.content, message.created, message.tool_calls,
            message.tool_call_id, message.name, message.image_b64, message.image_mime,
            message.turn_id, message.incomplete)


@pytest.fixture
def source(paths):
    """A conversation with every kind of message, written by the real store."""
    store = HistoryStore(paths.history_db("default"))
    conv = store.create_conversation("Deploy the kraken")
    base = datetime(2025, 3, 14, 9, 26, 53, 589793, tzinfo=UTC)
    rows = [
        Message(role="user", content="how do we deploy the kraken?", created=base, turn_id="t1"),
        Message(role="assistant", content=None, turn_id="t1", created=base.replace(second=54),
                tool_calls=[ToolCall(id="call_1", name="search_history", arguments='{"query": "kraken"}')]),
        Message(role="tool", content="found 1 hit", tool_call_id="call_1", name="search_history",
                turn_id="t1", created=base.replace(second=55)),
        Message(role="assistant", content="Run `make ship-kraken`.", turn_id="t1",
                created=base.replace(second=56), tokens=7),
        Message(role="user", content="and rollback?", created=base.replace(minute=30), turn_id="t2",
                image_b64="iVBORw0KGgo=", image_mime="image/png"),
        Message(role="assistant", content="make rollb", created=base.replace(minute=31),
                turn_id="t2", incomplete=True),
    ]
    store.append_many(conv.id, rows)
    store.archive(conv.id)
    conv = store.get_conversation(conv.id)
    messages = store.messages(conv.id)
    store.close()
    return conv, messages


@pytest.mark.slow
def test_export_then_import_into_a_fresh_home_is_identical_and_idempotent(cli, source, tmp_path):
    conv, messages = source
    exported = tmp_path / "kraken.json"
    assert cli("history", "export", conv.id, "--format", "json", "-o", str(exported)).code == 0

    fresh = tmp_path / "fresh-home"
    first = cli("history", "import", str(exported), env={"AGENTTUI_HOME": str(fresh)})
    assert first.code == 0, first.err
    assert "imported 1 conversation (6 messages); 0 already present" in first.out
    store = _store(fresh)
    (copy,) = _all(store)
    assert (copy.id, copy.title, copy.created, copy.updated, copy.archived, copy.message_count) == (
        conv.id, conv.title, conv.created, conv.updated, True, 6)
    assert [_fields(m) for m in store.messages(copy.id)] == [_fields(m) for m in messages]
    store.close()

    again = cli("history", "import", str(exported), env={"AGENTTUI_HOME": str(fresh)})
    assert again.code == 0, again.err
    assert "imported 0 conversations (0 messages); 1 already present, skipped" in again.out
    store = _store(fresh)
    assert len(_all(store)) == 1 and store.count_messages(conv.id) == 6
    store.close()
    # back into the profile it came from: nothing new either
    home = cli("history", "import", str(exported))
    assert home.code == 0 and "1 already present" in home.out


def test_an_array_of_exports_imports_each(cli, source, tmp_path):
    conv, _ = source
    one = json.loads(cli("history", "export", conv.id, "--format", "json").out)
    other = json.loads(json.dumps(one))
    other["conversation"]["id"] = "b" * 32
    other["conversation"]["title"] = "Second copy"
    both = tmp_path / "both.json"
    both.write_text(json.dumps([one, other]))
    fresh = tmp_path / "fresh-home"
    result = cli("history", "import", "--format", "agenttui", str(both), env={"AGENTTUI_HOME": str(fresh)})
    assert result.code == 0, result.err
    assert "imported 2 conversations (12 messages)" in result.out
    store = _store(fresh)
    assert sorted(c.title for c in _all(store)) == ["Deploy the kraken", "Second copy"]
    store.close()


def test_chatgpt_export_keeps_the_current_path_with_its_times(cli, isolated_home):
    result = cli("history", "import", str(CHATGPT))
    assert result.code == 0, result.err
    assert "(chatgpt): imported 2 conversations (7 messages)" in result.out
    assert "1 with nothing to import, skipped" in result.out
    store = _store(isolated_home)
    by_title = {c.title: c for c in _all(store)}
    assert set(by_title) == {"Packing for Lisbon", "Good morning in Indonesian"}

    lisbon = by_title["Packing for Lisbon"]
    assert (lisbon.created, lisbon.updated, lisbon.model, lisbon.archived) == (
        _at(1732420000.0), _at(1732420600.0), "gpt-4o", False)
    got = [(m.role, m.content, m.created) for m in store.messages(lisbon.id)]
    assert got == [
        ("user", "What should I pack for Lisbon in March?", _at(1732420010.0)),
        ("assistant", "Layers and a light rain jacket:\nMarch in Lisbon is mild but wet.",
         _at(1732420030.5)),
        ("user", "[image]\nIs this jacket warm enough?", _at(1732420100.0)),
        # create_time null: the conversation's create_time
        ("assistant", "Yes, with a sweater under it that jacket is fine for 15 C.", _at(1732420000.0)),
    ]  # the active branch: not the first "shorts and sandals" answer, not the browser call or its result
    first_answer = store.messages(lisbon.id)[1]
    siblings = store.sibling_ids(lisbon.id, first_answer.id)  # kept as a branch
    assert [store.get_message(s).content for s in siblings] == [
        "Pack for summer: shorts and sandals.", first_answer.content]

    indonesian = by_title["Good morning in Indonesian"]
    assert indonesian.archived and indonesian.model == "gpt-4o-mini"
    assert [(m.role, m.content) for m in store.messages(indonesian.id)] == [
        ("user", "How do I say good morning in Indonesian?"), ("assistant", "Selamat pagi.")]
    store.close()

    again = cli("history", "import", "--format", "chatgpt", str(CHATGPT))
    assert again.code == 0 and "imported 0 conversations (0 messages); 2 already present" in again.out
    store = _store(isolated_home)
    assert sum(c.message_count for c in _all(store)) == 7
    store.close()


def _agenttui_doc_with_key() -> dict:
    return {"format": "agenttui.conversation", "version": 1,
            "conversation": {"id": "c" * 32, "title": f"key {FAKE_KEY}",
                             "created": "2025-01-02T03:04:05+00:00",
                             "updated": "2025-01-02T03:05:00+00:00", "model": None,
                             "archived": False, "message_count": 1},
            "messages": [{"id": 1, "role": "user", "content": f"my key is {FAKE_KEY} ok",
                          "tool_calls": [], "tool_call_id": None, "name": None, "image_b64": None,
                          "image_mime": None, "turn_id": None, "created": "2025-01-02T03:04:05+00:00",
                          "tokens": 0, "incomplete": False}]}


def _chatgpt_with_key() -> list:
    data = json.loads(CHATGPT.read_text())
    node = data[1]["mapping"]["d1e2f3a4-0002-4c2b-9d1e-000000000012"]["message"]
    node["content"]["parts"] = [f"my key is {FAKE_KEY} ok"]
    return data


@pytest.mark.parametrize("build", [_agenttui_doc_with_key, _chatgpt_with_key])
def test_text_is_redacted_on_the_way_in(cli, isolated_home, tmp_path, build):
    path = tmp_path / "with-key.json"
    path.write_text(json.dumps(build()))
    assert cli("history", "import", str(path)).code == 0
    store = _store(isolated_home)
    contents = [m.content or "" for c in _all(store) for m in store.messages(c.id)]
    titles = [c.title for c in _all(store)]
    store.close()
    assert any("my key is [REDACTED" in text for text in contents)
    assert not any(FAKE_KEY in text for text in contents + titles)


def test_bad_files_fail_cleanly_and_do_not_lose_the_good_one(cli, isolated_home, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('[{"format": "agenttui.conversation", ')
    unknown = tmp_path / "unknown.json"
    unknown.write_text('{"hello": "world"}')
    missing = tmp_path / "missing.json"
    result = cli("history", "import", str(missing), str(broken), str(CHATGPT), str(unknown))
    assert result.code == 1
    assert "Traceback" not in result.err
    assert "missing.json: cannot read it" in result.err
    assert "broken.json: not JSON" in result.err
    assert "unknown.json: not a known export" in result.err
    assert "(chatgpt): imported 2 conversations" in result.out
    assert "total: imported 2 conversations (7 messages)" in result.out
    store = _store(isolated_home)
    assert len(_all(store)) == 2
    store.close()


def test_a_bad_conversation_is_reported_and_the_rest_imported(cli, isolated_home, tmp_path):
    good = _agenttui_doc_with_key()
    bad = json.loads(json.dumps(good))
    bad["conversation"]["id"] = "d" * 32
    bad["conversation"]["title"] = "Broken one"
    bad["messages"][0]["role"] = "narrator"
    newer = json.loads(json.dumps(good))
    newer["version"] = 99
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps([good, bad, newer]))
    result = cli("history", "import", str(path))
    assert result.code == 1 and "Traceback" not in result.err
    assert "conversation 2 ('Broken one'): message 1 has an unknown role 'narrator'" in result.err
    assert "conversation 3" in result.err and "newer agenttui" in result.err
    assert "imported 1 conversation (1 message)" in result.out


def test_wrong_forced_format_and_bad_choice(cli, tmp_path):
    forced = cli("history", "import", "--format", "agenttui", str(CHATGPT))
    assert forced.code == 1 and "no element of the array is an agenttui.conversation" in forced.err
    assert cli("history", "import", "--format", "csv", str(CHATGPT)).code == 2
