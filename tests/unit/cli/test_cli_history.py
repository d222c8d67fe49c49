"""``agenttui history …`` over a database written by the real HistoryStore."""

from __future__ import annotations

import json

import pytest

from agenttui.core.models import Message


@pytest.fixture
def conversation(paths):
    from agenttui.core.history.store import HistoryStore

    store = HistoryStore(paths.history_db("default"))
    conv = store.create_conversation("Deploy plan")
    store.append(conv.id, Message(role="user", content="how do we deploy the kraken service?"))
    store.append(conv.id, Message(role="assistant", content="run make deploy \x1b[31mnow\x1b[0m"))
    old = store.create_conversation("Old chat")
    store.append(old.id, Message(role="user", content="archived talk"))
    store.archive(old.id)
    store.close()
    return conv


@pytest.mark.slow
def test_list_and_archived(cli, conversation):
    rows = json.loads(cli("history", "list", "--json").out)
    assert [r["title"] for r in rows] == ["Deploy plan"]
    assert rows[0]["id"] == conversation.id
    archived = json.loads(cli("history", "list", "--json", "--archived").out)
    assert [r["title"] for r in archived] == ["Old chat"]
    assert "Deploy plan" in cli("history", "list").out


@pytest.mark.slow
def test_search(cli, conversation):
    hits = json.loads(cli("history", "search", "kraken", "--json").out)
    assert [h["conversation_id"] for h in hits] == [conversation.id]
    assert cli("history", "search", "nothingmatchesthis").code == 0


def test_show_by_prefix_renders_escapes_inert(cli, conversation):
    result = cli("history", "show", conversation.id[:8])
    assert result.code == 0, result.err
    assert "kraken" in result.out and "make deploy" in result.out
    assert "\x1b" not in result.out and "\\x1b" in result.out


@pytest.mark.slow
def test_export_md_and_json(cli, conversation, tmp_path):
    out = tmp_path / "c.md"
    assert cli("history", "export", conversation.id, "--format", "md", "--output", str(out)).code == 0
    assert "kraken" in out.read_text()
    exported = cli("history", "export", conversation.id, "--format", "json")
    assert exported.code == 0
    assert "kraken" in exported.out and json.loads(exported.out)


def test_unknown_id_exit_1_and_bad_format_exit_2(cli, conversation):
    missing = cli("history", "show", "doesnotexist")
    assert missing.code == 1 and "no conversation" in missing.err
    assert cli("history", "export", conversation.id, "--format", "pdf").code == 2
