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
from tests.ui.helpers import chat, focused_field, typed_in_terminal, wait_until


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


@pytest.mark.parametrize("typed", ["2 cats?", "1 more thing", " cats", "?x", ".x", "-x", "=x"])
def test_esc_and_a_digit_space_or_punctuation_with_text_after_it_is_esc_then_the_text(typed):
    """ESC 2 was "™" (a macOS Option character) and ESC + space was a space: the Esc vanished,
    and in Settings Esc and "2 cats?" typed at once saved model = "™ cats?"."""
    got = keys("\x1b" + typed)
    assert got[0] == ("escape", "\x1b")
    assert "".join(character or "" for _, character in got[1:]) == typed


def test_esc_and_a_digit_alone_in_its_read_is_left_as_textual_reads_it():
    assert keys("\x1b2") == [("trade_mark_sign", "™")]
    assert keys("\x1b[Cab")[0] == ("right", None)  # a terminal's own sequences never read as Esc
    assert keys("\x1b]x")[0] != ("escape", "\x1b")


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
@pytest.mark.parametrize("message", ["follow up 1", "2 cats?"])  # ESC f was Option+Right; ESC 2 was "™"
async def test_esc_and_a_message_at_once_in_the_add_box_send_the_message(chat_services, fake_openai, message):
    fake_openai.reply("Noted.")
    notes = [item.text for item in chat_services.memory.items()]
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        field = await focused_field(pilot, app, "#memory-add")
        typed_in_terminal(app, f"\x1b{message}\r")
        await wait_until(pilot, lambda: bool(fake_openai.chat_requests),
                         explain=lambda: (repr(field.value), repr(chat(app).prompt.text)))
        assert fake_openai.last_messages()[-1]["content"] == message
    assert [item.text for item in chat_services.memory.items()] == notes


@pytest.mark.slow
async def test_esc_and_a_message_starting_with_a_digit_in_settings_saves_nothing_and_sends_it(
    chat_services, fake_openai
):
    """Esc and "2 cats?" read at once were "™ cats?": Settings' model field typed it and Enter
    saved it to config.toml, and the app then asked for that model."""
    from agenttui.ui.screens.settings import SettingsScreen

    chat_services.settings.recall.semantic = False
    fake_openai.reply("Noted.")
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        await focused_field(pilot, app, "#prompt")
        await app.run_action("open_settings")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen) and app.focused is not None)
        typed_in_terminal(app, "\x1b2 cats?\r")
        await wait_until(pilot, lambda: bool(fake_openai.chat_requests),
                         explain=lambda: (app.screen, app.focused, repr(chat(app).prompt.text)))
        assert fake_openai.last_messages()[-1]["content"] == "2 cats?"
    config = chat_services.paths.config_file
    assert not config.exists() or "cats" not in config.read_text()
