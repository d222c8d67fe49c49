"""Characters that arrive as a burst of keys are inserted as one edit, in the order typed.

A paste without bracketed paste (some terminals, an ssh hop, ``tmux paste-buffer``) reaches
the app as one key per character; each edit re-wrapped the line, so 30,000 characters took
minutes. The keys are posted to the app the way Textual's driver posts them.
"""

from __future__ import annotations

import pytest
from textual import events

from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import UserMessage
from tests.ui.helpers import chat, wait_until
from tests.ui.prompt.test_type_ahead import app_caught_up, key_event, typed

SIZE = (100, 30)


def _count_edits(prompt) -> list[str]:
    edits: list[str] = []
    real = prompt.replace

    def counted(insert, *args, **kwargs):
        edits.append(insert)
        return real(insert, *args, **kwargs)

    prompt.replace = counted
    return edits


@pytest.mark.slow
async def test_a_long_burst_of_keys_is_one_edit_and_is_sent_whole(chat_services, fake_openai):
    fake_openai.default.text = "got it"
    blob = "QUJD" * 2_000  # 8,000 characters on one line
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None and chat(app).prompt.has_focus)
        edits = _count_edits(chat(app).prompt)
        typed(app, f"what is {blob} thanks\r")
        await wait_until(pilot, lambda: [m.text for m in app.screen.query(UserMessage)] == [f"what is {blob} thanks"],
                         timeout=120)
        assert len(edits) < 20, len(edits)  # one per burst the queue held, not one per character
        assert chat(app).prompt.text == ""


@pytest.mark.slow
async def test_keys_in_a_burst_keep_their_order(chat_services):
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        prompt = chat(app).prompt
        await wait_until(pilot, lambda: prompt is not None and prompt.has_focus)
        typed(app, "nexy")
        app.post_message(events.Key("backspace", None))
        typed(app, "t line")
        app.post_message(events.Key("ctrl+j", None))  # a newline
        typed(app, "second")
        app.post_message(events.Key("home", None))  # to the start of the line
        typed(app, "a ")
        await app_caught_up(app)
        await wait_until(pilot, lambda: prompt.text == "next line\na second", timeout=30)
        app.post_message(key_event("x"))  # a lone key is inserted too
        await wait_until(pilot, lambda: prompt.text == "next line\na xsecond", timeout=30)
