"""Switching profile while a reply streams keeps that reply in the profile it was asked in.

The switch swapped the history store under the running turn: its reply (the words on
screen) was then written to the other profile's history, which has no such conversation,
and dropped. The user's question was there, the reply they had been reading was not.
"""

from __future__ import annotations

import threading

import pytest

from agenttui.ui.app import make_app
from tests.ui.helpers import chat, replies, send, wait_until

SIZE = (120, 36)
WORDS = " ".join(f"word{i}" for i in range(40))


@pytest.mark.slow
async def test_reply_streaming_at_the_switch_stays_in_its_profile(chat_services, fake_openai):
    chat_services.profiles.create("work")
    held = threading.Event()  # the reply stops after word5 until the test ends
    fake_openai.reply(WORDS, gate=held, gate_at=6)
    app = make_app(chat_services)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await send(pilot, "tell me a long story")
            await wait_until(pilot, lambda: replies(app) and "word5" in replies(app)[0])
            asked_in = chat(app).conversation_id
            app._switch_profile("work")
            await wait_until(
                pilot,
                lambda: (
                    chat_services.profile_name == "work"
                    and not chat(app).streaming
                    and chat(app).conversation_id != asked_in
                ),
            )
    finally:
        held.set()
    chat_services.switch_profile("default")
    stored = chat_services.history.messages(asked_in)
    assert [m.role for m in stored] == ["user", "assistant"], [(m.role, m.content) for m in stored]
    assert stored[1].content.startswith("word0 word1") and "word5" in stored[1].content
    assert stored[1].incomplete
