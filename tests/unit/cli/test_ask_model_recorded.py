"""``ask --model`` records the model on the conversation it continues, as /model does in the
chat (and on each reply, with its usage). Real subprocesses, the fake server, real SQLite."""

from __future__ import annotations

import json

import pytest


@pytest.mark.slow
def test_ask_model_is_recorded_on_the_continued_conversation(cli, fake_openai):
    assert cli("ask", "--model", "first-model", "hello").code == 0
    assert cli("ask", "--model", "other-model", "again").code == 0  # continues the latest conversation
    listed = json.loads(cli("history", "list", "--json").out)
    assert len(listed) == 1 and listed[0]["model"] == "other-model"
    assert [r["model"] for r in fake_openai.chat_requests] == ["first-model", "other-model"]
    shown = json.loads(cli("history", "show", listed[0]["id"][:8], "--json").out)
    assert [m["usage"]["model"] for m in shown["messages"] if m["role"] == "assistant"] == \
        ["first-model", "other-model"]


@pytest.mark.slow
def test_ask_continues_a_conversation_with_the_model_it_records(cli, fake_openai):
    """As the Chat pane and ``llm -c``: the conversation's model, not the default; --new: the default."""
    assert cli("ask", "--model", "chosen-model", "hello").code == 0
    assert cli("ask", "again").code == 0  # continues the latest, on its model
    dry = json.loads(cli("ask", "--dry-run", "--json", "and again").out)
    assert cli("ask", "--new", "elsewhere").code == 0
    default = fake_openai.chat_requests[-1]["model"]
    assert default != "chosen-model"
    assert [r["model"] for r in fake_openai.chat_requests] == ["chosen-model", "chosen-model", default]
    assert dry["model"] == "chosen-model"  # the dry run shows the real turn's model
