"""Keys typed in one burst around the prompt inspector land where the user meant them.

Esc and a key typed at once arrive from a terminal as ESC + the key, which Textual's
parser reads as alt+<key> (escape_then_key.py). The events here are the ones Textual's
own parser makes from the bytes, posted at once as a terminal delivers fast typing
(Pilot.press waits between keys, so it would never show this).
"""

from __future__ import annotations

import pytest
from textual._xterm_parser import XTermParser

from agenttui.ui.app import make_app
from agenttui.ui.screens.prompt_inspector import PromptInspectorScreen
from tests.ui.helpers import wait_until
from tests.ui.recall.test_recall_used import NOTE, _seed, _turn

MESSAGE = "hello there, edit nothing and delete nothing"


def _typed(app, raw: str) -> None:
    parser = XTermParser()
    for event in [*parser.feed(raw), *parser.feed("")]:
        app.post_message(event)


def _sent(fake_openai, text: str) -> bool:
    return bool(fake_openai.chat_requests) and text in str(fake_openai.last_messages()[-1])


@pytest.mark.slow
@pytest.mark.parametrize("message", [
    MESSAGE,  # a long burst: the parser reissues the Esc as "^", then the text
    "edit it now",  # a short one: the Esc and the "e" are one alt+e
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
        _typed(app, "\x1b" + message + "\r")
        await wait_until(pilot, lambda: _sent(fake_openai, message))
        assert not isinstance(app.screen, PromptInspectorScreen)
        assert [i.text for i in chat_services.memory.items()] == [NOTE]  # no edit, nothing forgotten
