"""A message sent while the conversation's page is being read shows once.

Opening a conversation reads its latest page in a thread. A message sent before that read
ends is stored first, so it is in the page, and it is also on screen as sent. It showed
twice, and ↑ then selected the copy above while the marker went on the other. Here the
page read is held (a gate around the real history read) until the turn is over.
"""

from __future__ import annotations

import sys
import threading

import pytest

from agenttui.core.models import Message
from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import AssistantMessage, UserMessage
from tests.ui.data_harness import settle
from tests.ui.helpers import chat, send, wait_until


def _seed(services) -> str:
    conversation = services.history.create_conversation("Old one")
    for i in range(3):
        services.history.append(conversation.id, Message(role="user", content=f"old question {i}"))
        services.history.append(conversation.id, Message(role="assistant", content=f"old answer {i}"))
    return conversation.id


@pytest.mark.slow
async def test_a_message_sent_while_the_page_is_read_shows_once(chat_services, fake_openai, monkeypatch):
    cid = _seed(chat_services)
    chat_services.history.create_conversation("Newer, empty")  # the app opens this one first
    fake_openai.default.text = "the new answer"
    history = chat_services.history
    real_messages = history.messages
    gate, held = threading.Event(), threading.Event()

    def gated(conversation_id, *args, **kwargs):
        # the log's read of this conversation's page
        if conversation_id == cid and sys._getframe(1).f_code.co_name == "_load" and not gate.is_set():
            held.set()
            gate.wait(120)
        return real_messages(conversation_id, *args, **kwargs)

    monkeypatch.setattr(history, "messages", gated)
    app = make_app(chat_services)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        await settle(pilot, app)
        await chat(app).open_conversation(cid)
        await wait_until(pilot, held.is_set, timeout=60)  # the page read has begun, and waits

        await send(pilot, "the new question")
        await wait_until(pilot, lambda: not chat(app).streaming and any(
            r.text == "the new answer" for r in app.screen.query(AssistantMessage)), timeout=60)
        assert [m.content for m in real_messages(cid)][-2:] == ["the new question", "the new answer"]
        gate.set()  # the page (which now holds the new turn) comes in
        log = chat(app).chat_log
        await wait_until(pilot, lambda: any(m.text == "old question 0" for m in log.query(UserMessage)),
                         timeout=60)

        questions = [m.text for m in log.query(UserMessage)]
        answers = [m.text for m in log.query(AssistantMessage)]
        assert questions == ["old question 0", "old question 1", "old question 2", "the new question"]
        assert answers == ["old answer 0", "old answer 1", "old answer 2", "the new answer"]
