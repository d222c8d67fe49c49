"""/incognito asked while a reply streams, with the next message typed straight after.

The user means that message for the incognito chat. Before, /incognito was refused
with a notice ("a reply is still streaming") while the message typed after it was
queued for the saved chat, and stored in history. Now /incognito takes its place in
the queue: the chat becomes incognito when the reply ends, and the message is sent
there. Real services and SQLite, the real openai client against the fake server;
the keys are the ones Textual's own parser makes from the bytes, posted at once.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from tests.ui.helpers import chat, replies, type_at_once, wait_until, while_streaming

SIZE = (120, 36)
SECRET = "my plan for the surprise party"


def _saved_texts(services) -> list[str]:
    history = services.history
    return [m.content for c in history.list_conversations(limit=1000) for m in history.messages(c.id)]


@pytest.mark.slow
async def test_a_message_typed_after_incognito_during_a_reply_is_sent_incognito_and_never_saved(
        chat_services, fake_openai):
    chat_services.settings.recall.semantic = False  # the indexer would only add noise here
    fake_openai.reply(" ".join(f"word{i}" for i in range(300)), words_per_second=60)
    fake_openai.reply("A party it is.")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await while_streaming(pilot, app)
        type_at_once(app, "/incognito\r" + SECRET + "\r")
        await wait_until(pilot, lambda: "A party it is." in replies(app),
                         explain=lambda: (chat(app).incognito, chat(app).turns.queued, replies(app)[-1:]))
        assert chat(app).incognito
        assert fake_openai.last_messages()[-1]["content"] == SECRET
    assert SECRET not in _saved_texts(chat_services)
    assert "tell me a long story" in _saved_texts(chat_services)


@pytest.mark.slow
async def test_incognito_asked_twice_while_a_reply_streams_is_taken_back(chat_services, fake_openai):
    chat_services.settings.recall.semantic = False
    fake_openai.reply(" ".join(f"word{i}" for i in range(300)), words_per_second=60)
    fake_openai.reply("Saved as usual.")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await while_streaming(pilot, app)
        type_at_once(app, "/incognito\r/incognito\rnothing secret here\r")
        await wait_until(pilot, lambda: "Saved as usual." in replies(app))
        assert not chat(app).incognito
    assert "nothing secret here" in _saved_texts(chat_services)


@pytest.mark.slow
async def test_incognito_typed_then_alt_i_at_once_ends_in_the_saved_chat_that_saves(chat_services, fake_openai):
    """'/incognito' and alt+i ran at the same time: the second entry took the first's twin for the real
    services, and leaving put the twin back: the chat said it was saved, and saved nothing."""
    from agenttui.core.incognito import IncognitoHistory
    from tests.ui.helpers import send_and_wait, workers_done

    chat_services.settings.recall.semantic = False
    fake_openai.reply("Kept.")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        type_at_once(app, "/incognito\r\x1bi")  # the command, then alt+i (in, then out again)
        await workers_done(pilot)
        await wait_until(pilot, lambda: not pane.incognito, explain=lambda: pane.incognito)
        assert not isinstance(pane.services.history, IncognitoHistory)
        await send_and_wait(pilot, "keep this one")
    assert "keep this one" in _saved_texts(chat_services)
