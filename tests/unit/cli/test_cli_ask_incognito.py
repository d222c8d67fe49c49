"""``agenttui ask --incognito``: memory is read, nothing is written.

Real subprocess, real SQLite and memory files, the real openai client against
the fake server. The data dir (AGENTTUI_HOME) is compared file by file, byte
by byte, before and after.
"""

from __future__ import annotations

import os

import pytest

from agenttui.cli import main
from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message
from tests.data_dir import tree
from tests.fakes.provider_rejections import STREAM_OPTIONS

QUESTION = "remind me how the kraken service gets deployed"


@pytest.fixture
def seeded(cli, paths):
    store = HistoryStore(paths.history_db("default"))
    kraken = store.create_conversation("Kraken deploy")
    store.append(kraken.id, Message(role="user", content="how do we deploy the kraken service?"))
    store.append(kraken.id, Message(role="assistant", content="Run make ship-kraken from the ops repo."))
    store.close()
    assert cli("memory", "add", "I prefer short answers").code == 0
    return kraken


@pytest.mark.slow
def test_incognito_reads_memory_and_history_and_writes_nothing(cli, seeded, isolated_home, fake_openai):
    # a refusal the loop falls back from (would be remembered in state/endpoints.json) and a
    # memory write the model attempts (the tool is not even offered)
    fake_openai.reject("stream_options", STREAM_OPTIONS["unknown-parameter"])
    fake_openai.tool_call("remember", {"text": "the user deploys kraken on fridays"})
    fake_openai.reply("make ship-kraken, from the ops repo.")
    before = tree(isolated_home)

    result = cli("ask", "--incognito", QUESTION)

    assert result.code == 0, result.err
    assert result.out == "make ship-kraken, from the ops repo.\n"
    assert "incognito: nothing was saved" in result.err
    assert tree(isolated_home) == before
    first = fake_openai.chat_requests[-2]
    system = first["messages"][0]["content"]
    assert "I prefer short answers" in system  # memory is in the prompt
    assert any("make ship-kraken" in m["content"] for m in first["messages"]
               if m["role"] == "system" and "<recalled>" in m["content"])  # recall read history
    assert [m["role"] for m in first["messages"] if m["role"] != "system"] == ["user"]  # a fresh chat
    names = {t["function"]["name"] for t in first.get("tools") or ()}
    assert not {"remember", "forget", "update_context", "append_learning"} & names
    assert "search_history" in names
    tool_result = fake_openai.chat_requests[-1]["messages"][-1]
    assert tool_result["role"] == "tool" and "disabled tool 'remember'" in tool_result["content"]


@pytest.mark.slow
def test_incognito_on_a_fresh_home_creates_nothing(cli, isolated_home, fake_openai, paths):
    paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text('model = "gpt-test"\n')
    before = tree(isolated_home)
    fake_openai.reply("hello")
    result = cli("ask", "--incognito", "hi")
    assert result.code == 0, result.err
    assert tree(isolated_home) == before


@pytest.mark.slow
def test_the_same_turn_without_incognito_does_write(cli, seeded, isolated_home, fake_openai):
    """The control: the comparison above can fail (use counts, history, endpoint state)."""
    fake_openai.reject("stream_options", STREAM_OPTIONS["unknown-parameter"])
    fake_openai.reply("make ship-kraken.")
    before = tree(isolated_home)
    assert cli("ask", "--new", QUESTION).code == 0
    after = tree(isolated_home)
    assert after != before
    assert any(name.endswith("endpoints.json") for name in set(after) - set(before))


@pytest.mark.slow
def test_a_failed_incognito_turn_writes_nothing_either(cli, seeded, isolated_home, fake_openai):
    fake_openai.status(400)
    before = tree(isolated_home)
    result = cli("ask", "--incognito", QUESTION)
    assert result.code == 1
    assert tree(isolated_home) == before


@pytest.mark.slow
def test_incognito_with_semantic_recall_writes_nothing(cli, seeded, isolated_home, fake_openai, paths):
    """Semantic recall embeds the question through the endpoint and reads the stored vectors;
    no vector is stored and the database's -wal/-shm files do not outlive the command."""
    paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text("[recall]\nsemantic = true\n")
    assert cli("history", "embed").code == 0  # vectors for the seeded messages, as a user would
    fake_openai.reply("make ship-kraken.")
    embedded = len(fake_openai.embedding_requests)
    before = tree(isolated_home)
    result = cli("ask", "--incognito", QUESTION)
    assert result.code == 0, result.err
    asked = [r["input"] for r in fake_openai.embedding_requests[embedded:]]
    assert any(QUESTION in str(text) for text in asked)  # the question was embedded: ranking ran
    assert tree(isolated_home) == before


def _open_under(root) -> list[str]:
    """Files under ``root`` this process holds open (Linux's /proc/self/fd)."""
    held = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:  # the directory's own descriptor, closed while listing
            continue
        if target.startswith(str(root)):
            held.append(target)
    return held


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="reads open files from Linux's /proc")
def test_incognito_ask_closes_the_twins_own_semantic_connection(cli, seeded, isolated_home, fake_openai,
                                                               paths, capsys):
    """In process, so what the command leaves open is seen: the twin builds its own semantic
    state (the real services had none) and it must close with the twin, as the app's does."""
    paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text("[recall]\nsemantic = true\n")
    assert cli("history", "embed").code == 0
    fake_openai.reply("make ship-kraken.")
    embedded = len(fake_openai.embedding_requests)
    assert _open_under(isolated_home) == []

    assert main(["ask", "--incognito", QUESTION]) == 0

    assert "make ship-kraken." in capsys.readouterr().out
    asked = [r["input"] for r in fake_openai.embedding_requests[embedded:]]
    assert any(QUESTION in str(text) for text in asked)  # ranking ran, so the state was made
    assert _open_under(isolated_home) == []
