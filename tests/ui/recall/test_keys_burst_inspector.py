"""Keys typed in one burst around the prompt inspector land where the user meant them.

Esc and a key typed at once arrive from a terminal as ESC + the key, which Textual's
parser reads as alt+<key> (escape_then_key.py). The events here are the ones Textual's
own parser makes from the bytes, posted at once as a terminal delivers fast typing
(Pilot.press waits between keys, so it would never show this).
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.screens.prompt_inspector import PromptInspectorScreen
from tests.ui.helpers import type_at_once, wait_until
from tests.ui.recall.test_recall_used import NOTE, _seed, _turn

MESSAGE = "hello there, edit nothing and delete nothing"


def _sent(fake_openai, text: str) -> bool:
    return bool(fake_openai.chat_requests) and text in str(fake_openai.last_messages()[-1])


@pytest.mark.slow
@pytest.mark.parametrize("message", [
    MESSAGE,  # the Esc and the "h" are one alt+h, the inspector does not bind
    "edit it now",  # the Esc and the "e" are one alt+e, and "e" is its key (edit a note)
], ids=["long burst", "short burst"])
async def test_esc_and_a_message_typed_at_once_close_it_and_send_the_message(chat_services, fake_openai,
                                                                           message):
    _seed(chat_services)
    fake_openai.reply("It was the Alfama Garden.")
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        await _turn(pilot, app)
        await pilot.press("f4")
        await wait_until(pilot, lambda: isinstance(app.screen, PromptInspectorScreen))
        fake_openai.reply("Noted.")
        type_at_once(app, "\x1b" + message + "\r")
        await wait_until(pilot, lambda: _sent(fake_openai, message))
        assert not isinstance(app.screen, PromptInspectorScreen)
        assert [i.text for i in chat_services.memory.items()] == [NOTE]  # no edit, nothing forgotten
