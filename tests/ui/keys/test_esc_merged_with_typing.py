"""Esc and the next message typed at once, in the chat's prompt.

A terminal sends Esc as ESC, and Textual's parser reads ESC followed at once by a
character as alt+<character> (escape_then_key.py). While a reply streamed, Esc
(cancel) and "hello again" typed in one burst reached the prompt as alt+h + "ello
again": the reply went on, and the message lost its first letter. The events are
the ones Textual's own parser makes from the bytes, posted at once.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import AssistantMessage
from tests.ui.helpers import (
    chat,
    focused_prompt,
    replies,
    terminal_keys,
    type_at_once,
    wait_until,
    while_streaming,
)

SIZE = (120, 36)


def _asked(fake_openai) -> list[str]:
    return [str(r["messages"][-1]["content"]) for r in fake_openai.chat_requests]


@pytest.mark.slow
@pytest.mark.parametrize(("message", "first_key"), [
    ("hello again", "alt+h"),  # a short burst: the Esc and the "h" are one alt+h
    ("hello again, and this time a message longer than the parser waits for", "circumflex_accent"),
], ids=["alt+h", "caret"])
async def test_esc_and_a_message_at_once_cancel_the_reply_and_send_the_whole_message(chat_services,
                                                                                    fake_openai, message,
                                                                                    first_key):
    fake_openai.reply(" ".join(f"word{i}" for i in range(400)), words_per_second=40)
    fake_openai.reply("Here again.")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await while_streaming(pilot, app)
        assert terminal_keys("\x1b" + message + "\r")[0].key == first_key  # what the bytes become
        type_at_once(app, "\x1b" + message + "\r")
        await wait_until(pilot, lambda: "Here again." in replies(app),
                         explain=lambda: (_asked(fake_openai), chat(app).prompt.text))
        first = app.screen.query(AssistantMessage).first()
        assert first.has_class("-incomplete") and "word399" not in replies(app)[0]  # Esc cancelled it
        assert _asked(fake_openai)[-1] == message
        assert chat(app).prompt.text == ""


@pytest.mark.slow
async def test_merged_esc_types_its_character_and_a_bound_alt_key_or_a_caret_stays_itself(chat_services):
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        prompt = await focused_prompt(pilot, app)
        type_at_once(app, "\x1bhi, 2^3 ")  # alt+h, ..., a "^" typed
        await wait_until(pilot, lambda: prompt.text == "hi, 2^3 ", explain=lambda: repr(prompt.text))
        for burst, shown in (("\x1b京都 ", "京都 "), ("\x1bX", "X")):  # alt+京, alt+shift+x
            before = prompt.text
            type_at_once(app, burst)
            await wait_until(pilot, lambda: prompt.text == before + shown,  # noqa: B023 (awaited here)
                             explain=lambda: repr(prompt.text))  # noqa: B023
        prompt.clear()
        type_at_once(app, "^_^ smile, nothing streams")  # Esc has nothing to do: a "^" is typed
        await wait_until(pilot, lambda: prompt.text == "^_^ smile, nothing streams",
                         explain=lambda: repr(prompt.text))
        prompt.load_text("hi, 2^3 京都 X")
        type_at_once(app, "\x1bi")  # alt+i is incognito's key: no "i" typed
        await wait_until(pilot, lambda: chat(app).incognito)
        assert prompt.text == "hi, 2^3 京都 X"
