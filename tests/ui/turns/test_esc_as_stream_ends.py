"""Esc pressed as a stream ends: the reply's marker on screen says what history stored.

The race: the loop has read the stream's end and stored the whole reply, and its
``TurnFinished`` waits in the Chat pane's queue, when Esc arrives. The screen once
said "⚠ incomplete: cancelled" while history kept the reply complete and unflagged.
All of the reply arrived, so complete is the honest answer on both.
"""

from __future__ import annotations

import asyncio
import threading
import time

from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import AssistantMessage
from tests.ui.helpers import chat, replies, send, wait_until

SIZE = (120, 36)
WORDS = "Alpha beta gamma delta epsilon"


async def _while_held(predicate, timeout: float = 60.0) -> None:
    """Wait for ``predicate`` while the pane's queue is held: Pilot's waits would wait for the
    pane to empty its queue, which it cannot until the test lets it."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"condition not met within {timeout} s"
        await asyncio.sleep(0.02)


def _stored_reply(services, cid):
    if cid is None:
        return None
    stored = [m for m in services.history.messages(cid) if m.role == "assistant"]
    return stored[-1] if stored else None


async def test_esc_after_the_whole_reply_was_stored_leaves_it_complete_on_screen(chat_services, fake_openai):
    last_word = threading.Event()  # the server holds the last word until the pane's queue is held
    fake_openai.reply(WORDS, gate=last_word, gate_at=len(WORDS.split()) - 1)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await send(pilot, "five words please")
        await wait_until(pilot, lambda: replies(app) and "delta" in replies(app)[0], timeout=60)

        held, release = asyncio.Event(), asyncio.Event()

        async def hold_the_pane() -> None:  # the pane is busy: the turn's last events queue behind
            held.set()
            await release.wait()

        view = app.screen.query_one(AssistantMessage)
        app.screen.set_focus(None)  # Esc goes to the App's binding, not through the held pane
        pane.call_later(hold_the_pane)
        await _while_held(held.is_set)
        last_word.set()
        await _while_held(lambda: (r := _stored_reply(chat_services, pane.conversation_id)) is not None
                          and "epsilon" in r.content)
        await app._press_keys(["escape"])  # Pilot's press, without its wait for an idle screen
        await _while_held(lambda: view.has_class("-incomplete"))  # Esc shows at once
        release.set()
        await wait_until(pilot, lambda: not pane.streaming, timeout=60)
        await pilot.pause()

        stored = _stored_reply(chat_services, pane.conversation_id)
        assert stored is not None and stored.content == WORDS
        assert view.has_class("-incomplete") == stored.incomplete
        assert not stored.incomplete  # the whole reply arrived: complete on both
        assert "epsilon" in view.text and "epsilon" in view.markdown.source  # shown whole, too
