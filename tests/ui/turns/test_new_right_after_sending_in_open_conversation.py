"""A message sent in an open conversation, then /new typed at once: the message stays in that conversation.

The turn read the conversation it belongs to when its worker ran, not when Enter sent it:
/new (or another conversation opened) ran in between had already emptied the chat, so the
message went into a new conversation of its own, one nobody opened -- or into the one opened.
"""

from __future__ import annotations

import pytest

from agenttui.core.models import Message
from agenttui.ui.app import make_app
from tests.ui.helpers import chat, type_at_once, wait_until, workers_done

SIZE = (120, 36)


@pytest.mark.slow
async def test_a_message_then_new_keeps_the_message_in_the_open_conversation(chat_services, fake_openai):
    chat_services.settings.recall.semantic = False
    history = chat_services.history
    trip = history.create_conversation("Trip to Lisbon")
    history.append_many(trip.id, [Message("user", "Which hotel did we book?"), Message("assistant", "The Almalusa.")])
    fake_openai.reply(" ".join(f"word{i}" for i in range(200)), words_per_second=40)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await wait_until(pilot, lambda: pane.conversation_id == trip.id and pane.prompt.has_focus)
        type_at_once(app, "and the flight number?\r/new\r")
        await wait_until(
            pilot,
            lambda: any(
                m.content == "and the flight number?"
                for c in history.list_conversations(limit=100)
                for m in history.messages(c.id)
            ),
            timeout=60,
        )
        await wait_until(pilot, lambda: not pane.streaming and pane.turns.command is None)
        await workers_done(pilot)
        shown = pane.conversation_id
    where = {
        m.content: c.id
        for c in history.list_conversations(limit=100)
        for m in history.messages(c.id)
        if m.role == "user"
    }
    assert where["and the flight number?"] == trip.id, where
    assert shown != trip.id
    assert len(history.list_conversations(limit=100)) == 1  # no conversation of its own, opened by nobody


@pytest.mark.slow
async def test_a_message_then_another_conversation_opened_before_its_turn_runs_stays_where_it_was_sent(
    chat_services, fake_openai
):
    import asyncio

    from agenttui.ui import messages as app_messages

    chat_services.settings.recall.semantic = False
    history = chat_services.history
    older = history.create_conversation("Recipes")
    history.append_many(
        older.id, [Message("user", "How long do I boil an egg?"), Message("assistant", "Nine minutes.")]
    )
    trip = history.create_conversation("Trip to Lisbon")
    history.append_many(trip.id, [Message("user", "Which hotel did we book?"), Message("assistant", "The Almalusa.")])
    fake_openai.reply(" ".join(f"word{i}" for i in range(200)), words_per_second=40)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await wait_until(pilot, lambda: pane.conversation_id == trip.id and pane.prompt.has_focus)
        ready, open_conversation = app.first_turn_ready, pane.open_conversation
        opened = asyncio.Event()

        async def opening(*args: object, **kwargs: object) -> None:
            await open_conversation(*args, **kwargs)
            opened.set()

        async def user_opens_another_first(timeout: float = 15.0) -> None:
            # the History pane's Enter on another conversation, handled before the turn's worker goes on
            turn = pane.turns.turn
            if turn is not None and not opened.is_set():
                app.main.post_message(app_messages.ConversationRequested(older.id))
                await opened.wait()
            await ready(timeout)

        pane.open_conversation = opening  # type: ignore[method-assign]
        app.first_turn_ready = user_opens_another_first  # type: ignore[method-assign]
        type_at_once(app, "and the flight number?\r")
        await wait_until(
            pilot,
            lambda: any(
                m.content == "and the flight number?"
                for c in history.list_conversations(limit=100)
                for m in history.messages(c.id)
            ),
            timeout=60,
        )
        await wait_until(pilot, lambda: not pane.streaming)
        await workers_done(pilot)
        shown = pane.conversation_id
    assert shown == older.id
    assert [m.content for m in history.messages(older.id)] == ["How long do I boil an egg?", "Nine minutes."]
    assert "and the flight number?" in [m.content for m in history.messages(trip.id)]
