"""ESC f with typing after it in the same read is Esc and "f"; alone it stays Option+Right.

Textual's table reads ESC f / ESC b as ctrl+right / ctrl+left (iTerm2's Option+arrows): Esc
and "follow up" typed at once became ctrl+right and "ollow up" (escape_or_option_arrow.py).
The parser is fed the bytes as the driver reads them, one string per read.
"""

from __future__ import annotations

import inspect

import pytest
from textual.drivers import linux_driver

from agenttui.ui import escape_or_option_arrow
from agenttui.ui.app import make_app
from agenttui.ui.escape_or_option_arrow import EscapeAwareParser, typed_on_at
from tests.ui.helpers import chat, focused_field, wait_until


def keys(*reads: str) -> list[tuple[str, str | None]]:
    parser = EscapeAwareParser()
    events = [event for read in reads for event in parser.feed(read)] + list(parser.feed(""))
    return [(event.key, event.character) for event in events]


def test_esc_f_with_text_after_it_in_the_read_is_esc_then_f():
    assert keys("\x1bfollow up\r") == [
        ("alt+f", "f"),
        *[(c, c) for c in "ollow"],
        ("space", " "),
        ("u", "u"),
        ("p", "p"),
        ("enter", "\r"),
    ]
    assert keys("\x1bbig")[:2] == [("alt+b", "b"), ("i", "i")]


def test_esc_f_alone_in_its_read_stays_option_right():
    assert keys("\x1bf") == [("ctrl+right", None)]
    assert keys("\x1bb") == [("ctrl+left", None)]
    assert keys("\x1bf\x1bf") == [("ctrl+right", None)] * 2  # pressed twice, one read
    assert keys("\x1bf", "ollow") == [("ctrl+right", None), *[(c, c) for c in "ollow"]]  # separate reads


def test_esc_read_at_the_end_of_the_previous_read():
    assert keys("\x1b", "follow")[0] == ("alt+f", "f")


def test_esc_o_and_a_lowercase_letter_with_text_after_it():
    assert keys("\x1bOkay")[:2] == [("alt+shift+o", "O"), ("k", "k")]  # was "+", "ay"
    assert keys("\x1bOk") == [("plus", "+")]  # the application keypad's +, alone


def test_f_keys_and_other_sequences_are_unchanged():
    assert keys("\x1bOQhello")[0] == ("f2", None)  # F2 and typing after it in one read
    assert keys("\x1b[Cab")[0] == ("right", None)
    assert keys("\x1bhello")[0] == ("alt+h", "h")


def test_where_the_reads_are_cut():
    assert typed_on_at("\x1bfollow") == [1]
    assert typed_on_at("\x1bf") == []
    assert typed_on_at("\x1bf\r") == []  # Enter is not text typed on
    assert typed_on_at("ab \x1bbig \x1bf") == [4]
    assert typed_on_at("follow", before="x\x1b") == [0]
    assert typed_on_at("kay", before="\x1bO") == [0]


def test_the_driver_builds_its_parser_from_the_name_install_replaces(monkeypatch):
    monkeypatch.setattr(linux_driver, "XTermParser", linux_driver.XTermParser)  # restored after
    assert "XTermParser(" in inspect.getsource(linux_driver.LinuxDriver.run_input_thread)
    assert escape_or_option_arrow.install()
    assert linux_driver.XTermParser is EscapeAwareParser
    assert escape_or_option_arrow.install()  # twice: still in place


@pytest.mark.slow
async def test_esc_and_follow_up_at_once_in_the_add_box_send_the_message(chat_services, fake_openai):
    fake_openai.reply("Noted.")
    notes = [item.text for item in chat_services.memory.items()]
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        field = await focused_field(pilot, app, "#memory-add")
        parser = EscapeAwareParser()
        for event in [*parser.feed("\x1bfollow up 1\r"), *parser.feed("")]:
            app.post_message(event)
        await wait_until(
            pilot,
            lambda: bool(fake_openai.chat_requests),
            explain=lambda: (repr(field.value), repr(chat(app).prompt.text)),
        )
        assert fake_openai.last_messages()[-1]["content"] == "follow up 1"
    assert [item.text for item in chat_services.memory.items()] == notes
