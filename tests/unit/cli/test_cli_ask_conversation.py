"""``agenttui ask --conversation ID``: continue a given conversation.

Real subprocess, real SQLite, the real openai client against the fake server.
"""

from __future__ import annotations

import pytest

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message


@pytest.fixture
def two(paths):
    """Two conversations; 'older' is not the latest, so plain ``ask`` would not pick it."""
    store = HistoryStore(paths.history_db("default"))
    older = store.create_conversation("Kraken deploy")
    store.append(older.id, Message(role="user", content="how do we deploy the kraken service?"))
    store.append(older.id, Message(role="assistant", content="Run make ship-kraken from the ops repo."))
    newer = store.create_conversation("Lunch")
    store.append(newer.id, Message(role="user", content="what should I eat today"))
    store.append(newer.id, Message(role="assistant", content="A bowl of soto ayam."))
    store.close()
    return older, newer


def _turns(paths, cid):
    store = HistoryStore(paths.history_db("default"))
    try:
        return [(m.role, m.content) for m in store.messages(cid)]
    finally:
        store.close()


@pytest.mark.slow
@pytest.mark.parametrize("prefix", [False, True])
def test_continues_the_given_conversation_not_the_latest(cli, paths, two, fake_openai, prefix):
    older, newer = two
    fake_openai.reply("Also tag the release first.")
    ident = older.id[:8] if prefix else older.id
    result = cli("ask", "--conversation", ident, "and before that?")
    assert result.code == 0, result.err
    assert result.out == "Also tag the release first.\n"
    sent = [(m["role"], m["content"]) for m in fake_openai.last_messages() if m["role"] != "system"]
    assert sent == [("user", "how do we deploy the kraken service?"),
                    ("assistant", "Run make ship-kraken from the ops repo."),
                    ("user", "and before that?")]
    assert _turns(paths, older.id)[-2:] == [("user", "and before that?"),
                                            ("assistant", "Also tag the release first.")]
    assert len(_turns(paths, newer.id)) == 2  # the latest one is untouched


def _rows(paths):
    store = HistoryStore(paths.history_db("default"))
    try:
        return [(c.id, c.message_count) for c in store.list_conversations()]
    finally:
        store.close()


@pytest.mark.slow
def test_unknown_id_is_refused_and_nothing_is_sent_or_stored(cli, paths, two, fake_openai):
    before = _rows(paths)
    result = cli("ask", "--conversation", "nosuchid", "hello")
    assert result.code == 1
    assert "no conversation 'nosuchid' in profile 'default'" in result.err
    assert fake_openai.chat_requests == []
    assert _rows(paths) == before  # (the file's bytes may differ: closing runs PRAGMA optimize)


def test_excludes_new_and_incognito(cli, two):
    older, _ = two
    for flag in ("--new", "--incognito"):
        result = cli("ask", "--conversation", older.id, flag, "hello")
        assert result.code == 2 and "exclude each other" in result.err, result.err


@pytest.mark.slow
def test_dry_run_previews_the_given_conversation(cli, two):
    import json

    older, _ = two
    result = cli("ask", "--dry-run", "--json", "--conversation", older.id, "and then?")
    assert result.code == 0, result.err
    turns = [m["content"] for m in json.loads(result.out)["messages"] if m["role"] != "system"]
    assert turns == ["how do we deploy the kraken service?", "Run make ship-kraken from the ops repo.",
                     "and then?"]
    assert cli("ask", "--dry-run", "--conversation", "zzz", "x").code == 1


@pytest.mark.slow
def test_older_turns_not_sent_are_said_on_stderr(cli, paths, two, fake_openai):
    older, _ = two
    paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text("[history]\nwindow_messages = 1\n")
    fake_openai.reply("Tag it first.")
    result = cli("ask", "--conversation", older.id, "and before that?")
    assert result.code == 0, result.err
    assert "older turns not sent: 1 " in result.err  # the question; its answer was sent
    fake_openai.reply("ok")
    assert "not sent" not in cli("ask", "--new", "hello").err
