"""Esc and ctrl+r pressed one after the other, read at once, are Esc then ctrl+r: the reply stops
and the question is asked again.

A terminal sends them as ESC and the byte ctrl+r; read together (a quick "stop, ask again", a
busy app), Textual made them ctrl+r alone (it drops the alt of alt+ctrl+r): the reply went on
and the chat said "A reply is still streaming: Esc stops it" to someone who had just pressed it.
"""

from __future__ import annotations

import threading

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.escape_or_option_arrow import EscapeAwareParser
from tests.ui.helpers import chat, replies, send, typed_in_terminal, wait_until

SIZE = (100, 30)


def keys(*reads: str) -> list[tuple[str, str | None]]:
    parser = EscapeAwareParser()
    events = [event for read in reads for event in parser.feed(read)] + list(parser.feed(""))
    return [(event.key, event.character) for event in events]


@pytest.mark.parametrize("reads", [("\x1b\x12",), ("\x1b", "\x12")])
def test_esc_then_ctrl_r_is_both_keys(reads):
    assert keys(*reads) == [("escape", "\x1b"), ("ctrl+r", "\x12")]


def test_other_keys_after_esc_are_as_before():
    assert keys("\x12") == [("ctrl+r", "\x12")]
    assert keys("\x1b\x7f") == [("ctrl+w", None)]  # Option+Backspace: delete a word
    assert keys("\x1b\r") == [("enter", "\r")]
    assert keys("\x1b\t") == [("shift+tab", None)]


@pytest.mark.slow
async def test_esc_and_ctrl_r_read_at_once_stop_the_reply_and_ask_again(chat_services, fake_openai):
    held = threading.Event()
    fake_openai.reply(" ".join(f"word{i}" for i in range(40)), gate=held, gate_at=6)
    fake_openai.reply("asked again")
    app = make_app(chat_services)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await send(pilot, "tell me a long story")
            await wait_until(pilot, lambda: replies(app) and "word5" in replies(app)[0])
            typed_in_terminal(app, "\x1b\x12")  # one read, posted at once
            await wait_until(
                pilot,
                lambda: "asked again" in replies(app) and not chat(app).streaming,
                explain=lambda: (replies(app), len(fake_openai.chat_requests)),
            )
    finally:
        held.set()
    assert len(fake_openai.chat_requests) == 2
