"""/model sticks to its conversation: opened again (History, after a restart), it goes on
with the model chosen; another conversation keeps the default. Against the fake OpenAI
server (the model each request named) and real SQLite.
"""

from __future__ import annotations

import os

import pytest

from agenttui.ui import messages as app_messages
from agenttui.ui.app import make_app
from tests.ui.helpers import chat, replies, send, send_and_wait, wait_until

SIZE = (160, 36)


async def _open_from_history(pilot, app, cid: str, shown: int) -> None:
    """As the History pane does when a conversation is chosen in it; waits until its ``shown``
    replies are on screen (a reply counted while the page still loads would make the next
    ``send_and_wait`` wait for one reply too many)."""
    app.main.post_message(app_messages.ConversationRequested(cid, None))
    await wait_until(pilot, lambda: chat(app).conversation_id == cid and len(replies(app)) == shown,
                     explain=lambda: (chat(app).conversation_id, len(replies(app))))


@pytest.mark.slow
async def test_the_chosen_model_is_used_again_when_the_conversation_is_reopened(
        chat_services, fake_openai, make_services):
    default = chat_services.model
    assert default != "chosen-model"
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        await send(pilot, "/model chosen-model")
        await wait_until(pilot, lambda: "model: chosen-model" in app.sub_title)
        await send_and_wait(pilot, "first conversation")
        first = chat(app).conversation_id
        assert fake_openai.chat_requests[-1]["model"] == "chosen-model"

        await send(pilot, "/new")
        await wait_until(pilot, lambda: chat(app).conversation_id is None)
        await send_and_wait(pilot, "second conversation")
        second = chat(app).conversation_id
        assert second != first
        assert fake_openai.chat_requests[-1]["model"] == default  # a new one: the default

        await _open_from_history(pilot, app, first, shown=1)
        await wait_until(pilot, lambda: "model: chosen-model" in app.sub_title)
        await send_and_wait(pilot, "first again")
        assert fake_openai.chat_requests[-1]["model"] == "chosen-model"

        await _open_from_history(pilot, app, second, shown=1)
        await wait_until(pilot, lambda: f"model: {default}" in app.sub_title)
        await send_and_wait(pilot, "second again")
        assert fake_openai.chat_requests[-1]["model"] == default

        await _open_from_history(pilot, app, first, shown=2)  # the latest one when the app starts again
        await wait_until(pilot, lambda: "model: chosen-model" in app.sub_title)
        await send_and_wait(pilot, "first, the latest")

    # a restart: new services over the same files; the latest conversation opens with its model
    again = make_services(environ=dict(os.environ))
    app = make_app(again)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: chat(app).conversation_id == first and len(replies(app)) == 3)
        await wait_until(pilot, lambda: "model: chosen-model" in app.sub_title)
        await send_and_wait(pilot, "after the restart")
        assert fake_openai.chat_requests[-1]["model"] == "chosen-model"
        assert again.history.get_conversation(first).model == "chosen-model"
        assert again.history.get_conversation(second).model == default


@pytest.mark.slow
async def test_a_conversation_continued_before_it_was_opened_uses_its_model(chat_services, fake_openai):
    """A cold start: a message typed while the latest conversation is looked up continues it
    without opening it (``LatestConversation``: its page goes above the message); the turn
    still uses the model that conversation records."""
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        conversation = chat_services.history.create_conversation("Earlier", "recorded-model")
        pane = chat(app)
        pane.conversation_id = conversation.id  # what the look-up does when a message waits
        await pane.chat_log.prepend_conversation(conversation.id)
        await send_and_wait(pilot, "straight away")
        assert pane.conversation_id == conversation.id
        assert fake_openai.chat_requests[-1]["model"] == "recorded-model"
        assert "model: recorded-model" in app.sub_title


@pytest.mark.slow
async def test_the_open_conversation_follows_a_new_default(chat_services, fake_openai):
    """Open while the default changes (F9), without a /model choice: the next turn uses the
    new default and the record says so (it is the model the last turn used)."""
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await send_and_wait(pilot, "on the first default")
        cid = chat(app).conversation_id
        old = chat_services.model
        chat_services.settings.model = "new-default"  # as F9 saves it
        assert chat_services.model == "new-default"
        await send_and_wait(pilot, "on the new default")
        assert fake_openai.chat_requests[-1]["model"] == "new-default"
        assert chat_services.history.get_conversation(cid).model == "new-default"
        assert old != "new-default"
