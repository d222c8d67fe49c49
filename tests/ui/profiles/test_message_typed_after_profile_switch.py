"""A message typed right after ``/profile NAME`` is sent in that profile, and shown there.

The switch ran in a worker of its own, so the command was over at once and the message
behind it was sent while the switch was still under way: it was stored in the new profile
as a question without an answer, and the chat then opened that profile's latest
conversation over it -- the message showed nowhere and its turn was dropped.
"""

from __future__ import annotations

import threading

import pytest

from agenttui.ui.app import make_app
from tests.ui.helpers import chat, replies, send, type_at_once, wait_until, workers_done

SIZE = (120, 36)
WORDS = " ".join(f"word{i}" for i in range(40))


@pytest.mark.slow
@pytest.mark.parametrize(("streaming", "at_once"), [(False, True), (True, True), (True, False)])
async def test_a_message_after_profile_name_goes_to_that_profile(chat_services, fake_openai, streaming, at_once):
    chat_services.profiles.create("work")
    held = threading.Event()  # a reply still streaming at the switch stops after word5
    if streaming:
        fake_openai.reply(WORDS, gate=held, gate_at=6)
    fake_openai.reply("Noted for work.")
    app = make_app(chat_services)
    try:
        async with app.run_test(size=SIZE) as pilot:
            if streaming:
                await send(pilot, "tell me a long story")
                await wait_until(pilot, lambda: replies(app) and "word5" in replies(app)[0])
            if at_once:
                type_at_once(app, "/profile work\ra message for work\r")
            else:  # Enter on the command, then the message: the reply is still winding down
                await send(pilot, "/profile work")
                await send(pilot, "a message for work")
            await wait_until(
                pilot,
                lambda: chat_services.profile_name == "work" and "Noted for work." in replies(app),
                explain=lambda: (chat_services.profile_name, replies(app), chat(app).turns.unsent),
            )
            await workers_done(pilot)
            shown = [m.text for m in chat(app).chat_log.query("UserMessage")]
            assert shown == ["a message for work"]
    finally:
        held.set()
    conversations = chat_services.history.list_conversations()
    assert len(conversations) == 1
    stored = chat_services.history.messages(conversations[0].id)
    assert [(m.role, m.content) for m in stored] == [("user", "a message for work"), ("assistant", "Noted for work.")]
