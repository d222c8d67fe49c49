"""``agenttui ask --dry-run``: the request a real turn sends, with nothing sent or written."""

from __future__ import annotations

import json

import pytest

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message
from tests.data_dir import tree

QUESTION = "remind me how the kraken service gets deployed"


@pytest.fixture
def seeded(cli, paths):
    """Two conversations (the kraken one older) and a memory note, written by the real stores."""
    store = HistoryStore(paths.history_db("default"))
    kraken = store.create_conversation("Kraken deploy")
    store.append(kraken.id, Message(role="user", content="how do we deploy the kraken service?"))
    store.append(kraken.id, Message(role="assistant", content="Run make ship-kraken from the ops repo."))
    lunch = store.create_conversation("Lunch")
    store.append(lunch.id, Message(role="user", content="what should I eat today"))
    store.append(lunch.id, Message(role="assistant", content="A bowl of soto ayam."))
    store.close()
    assert cli("memory", "add", "I prefer short answers").code == 0
    return kraken, lunch


def _dry(cli, *flags):
    result = cli("ask", "--dry-run", "--json", *flags, QUESTION)
    assert result.code == 0, result.err
    return json.loads(result.out)


@pytest.mark.slow
def test_new_leaves_the_data_dir_byte_identical_and_recalls_other_conversations(
        cli, seeded, isolated_home):
    before = tree(isolated_home)
    request = _dry(cli, "--new")
    assert tree(isolated_home) == before

    assert set(request) == {"model", "messages", "tools"}
    messages = request["messages"]
    assert messages[-1] == {"role": "user", "content": QUESTION}
    assert "I prefer short answers" in messages[0]["content"]
    recalled = [m["content"] for m in messages if m["role"] == "system" and "<recalled>" in m["content"]]
    assert len(recalled) == 1 and "make ship-kraken" in recalled[0]
    assert not any(m["role"] == "assistant" for m in messages)  # a fresh conversation: no window
    names = [t["function"]["name"] for t in request["tools"]]
    assert "remember" in names and "search_history" in names


@pytest.mark.slow
def test_without_new_it_is_the_latest_conversations_prompt(cli, seeded, isolated_home):
    before = tree(isolated_home)
    messages = _dry(cli)["messages"]
    assert tree(isolated_home) == before
    turns = [(m["role"], m["content"]) for m in messages if m["role"] != "system"]
    assert turns == [("user", "what should I eat today"), ("assistant", "A bowl of soto ayam."),
                     ("user", QUESTION)]


@pytest.mark.slow
@pytest.mark.parametrize("new", [True, False])
def test_it_is_exactly_what_the_real_turn_sends(cli, seeded, fake_openai, new):
    """The same request reaches the endpoint when the turn runs for real."""
    flags = ("--new",) if new else ()
    preview = _dry(cli, *flags)
    assert fake_openai.requests == []  # the dry run contacted nothing
    real = cli("ask", *flags, QUESTION)
    assert real.code == 0, real.err
    (sent,) = fake_openai.chat_requests
    assert preview == {"model": sent["model"], "messages": sent["messages"], "tools": sent["tools"]}


def test_needs_no_key_and_creates_no_home(cli, isolated_home):
    result = cli("ask", "--dry-run", "--json", "--new", "hello")  # no OPENAI_API_KEY, failing keyring
    assert result.code == 0, result.err
    assert json.loads(result.out)["messages"][-1]["content"] == "hello"
    assert not isolated_home.exists()


@pytest.mark.slow
def test_readable_form_and_json_needs_dry_run(cli, seeded, isolated_home):
    before = tree(isolated_home)
    readable = cli("ask", "--dry-run", "--new", QUESTION)
    assert readable.code == 0, readable.err
    assert readable.out.startswith("model: ") and "\ntools: remember" in readable.out
    assert f"--- user ---\n{QUESTION}" in readable.out and "make ship-kraken" in readable.out
    assert tree(isolated_home) == before
    assert cli("ask", "--json", QUESTION).code == 2


@pytest.mark.slow
def test_semantic_recall_with_nothing_embedded_contacts_nothing(cli, seeded, paths, fake_openai):
    paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text("[recall]\nsemantic = true\n")
    result = cli("ask", "--dry-run", "--json", QUESTION)
    assert result.code == 0, result.err
    assert fake_openai.requests == []


# No word in common with QUESTION: only the embeddings can bring it into the prompt.
JENKINS = "press the blue button in jenkins to publish builds"


@pytest.mark.slow
def test_with_semantic_recall_the_dry_run_is_the_real_prompt_byte_for_byte(cli, seeded, paths, fake_openai,
                                                                           isolated_home):
    """``[recall] semantic = "auto"`` (the default): the dry run embeds the question at
    ``/embeddings`` (never the chat endpoint) and ranks the stored vectors, as the turn does."""
    store = HistoryStore(paths.history_db("default"))
    ci = store.create_conversation("CI")
    store.append(ci.id, Message(role="user", content=JENKINS))
    store.append(ci.id, Message(role="assistant", content="Noted."))
    store.close()
    assert cli("history", "embed").code == 0
    fake_openai.embed_as(QUESTION, like=JENKINS)
    embedded = len(fake_openai.embedding_requests)

    before = tree(isolated_home)
    dry = cli("ask", "--dry-run", "--json", "--new", QUESTION)
    assert dry.code == 0, dry.err
    assert tree(isolated_home) == before  # it still writes nothing
    preview = json.loads(dry.out)
    assert fake_openai.chat_requests == []  # no chat request during the dry run
    assert [body["input"] for body in fake_openai.embedding_requests[embedded:]] == [[QUESTION]]
    recalled = next(m["content"] for m in preview["messages"] if "<recalled>" in (m["content"] or ""))
    assert JENKINS in recalled, dry.err  # by meaning alone

    real = cli("ask", "--new", QUESTION)
    assert real.code == 0, real.err
    (sent,) = fake_openai.chat_requests
    assert json.dumps(preview["messages"], ensure_ascii=False) == json.dumps(sent["messages"], ensure_ascii=False)
    assert preview["tools"] == sent["tools"] and preview["model"] == sent["model"]


@pytest.mark.slow
def test_the_dry_run_says_how_many_messages_semantic_recall_cannot_rank_yet(cli, seeded, paths, fake_openai):
    """Messages added after the backfill (an import, another process) are found by their words
    only until they are embedded: the dry run is still the turn's prompt, and says so."""
    assert cli("history", "embed").code == 0
    fully = cli("ask", "--dry-run", "--json", "--new", QUESTION)
    assert fully.code == 0, fully.err
    assert "not embedded yet" not in fully.err
    store = HistoryStore(paths.history_db("default"))
    later = store.create_conversation("Imported")
    store.append(later.id, Message(role="user", content="the kraken moved to the new cluster"))
    store.append(later.id, Message(role="assistant", content="Then deploy it with helm."))
    store.close()
    partly = cli("ask", "--dry-run", "--json", "--new", QUESTION)
    assert partly.code == 0, partly.err
    assert "2 messages are not embedded yet" in partly.err
    assert "agenttui history embed" in partly.err
