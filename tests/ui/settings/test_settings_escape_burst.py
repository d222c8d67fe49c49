"""Esc typed together with a message closes a dialog (or the palette); the message goes to the chat.

Textual reads ESC followed at once by a letter as alt+<letter>, and a dialog's text
field typed it: Esc (cancel) in Settings and "hello", Enter typed quickly after it
saved ``model = "hello"`` to config.toml. Now the dialog closes and the keys go to the
prompt below, in order, where Enter sends them.
"""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from agenttui.ui.app import make_app
from agenttui.ui.screens.confirm import ConfirmScreen
from agenttui.ui.screens.settings import SettingsScreen
from tests.ui.helpers import chat, focused_prompt, type_at_once, wait_until, workers_done


@pytest.mark.slow
@pytest.mark.parametrize(("action", "dialog", "message"), [
    ("open_settings", SettingsScreen, "hello"),  # the model field typed it; Enter saved model = "hello"
    ("command_palette", CommandPalette, "clear history"),  # its search typed it; Enter ran the best match
])
async def test_esc_and_a_message_typed_at_once_close_it_save_nothing_and_send_the_message(
        chat_services, fake_openai, action, dialog, message):
    chat_services.settings.recall.semantic = False
    fake_openai.reply("hi there")
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        await focused_prompt(pilot, app)
        await app.run_action(action)
        await wait_until(pilot, lambda: isinstance(app.screen, dialog) and app.focused is not None)

        type_at_once(app, f"\x1b{message}\r")
        await wait_until(pilot, lambda: fake_openai.chat_requests, explain=lambda: (app.screen, chat(app).prompt.text))
        await workers_done(pilot)
        assert app.screen is app.main
    config = chat_services.paths.config_file
    assert not config.exists() or message not in config.read_text()
    assert fake_openai.chat_requests[-1]["messages"][-1]["content"] == message


@pytest.mark.slow
async def test_esc_and_the_word_typed_at_once_in_a_confirm_box_confirms_nothing(chat_services):
    app = make_app(chat_services, check_api_key=False)
    answers: list[bool | None] = []
    async with app.run_test(size=(120, 36)) as pilot:
        await focused_prompt(pilot, app)
        app.push_screen(ConfirmScreen("Delete everything?", "All of it.", require_word="delete"), answers.append)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and app.focused is not None)

        type_at_once(app, "\x1bdelete\r")
        await wait_until(pilot, lambda: app.screen is app.main)
        await workers_done(pilot)
    assert answers == [False]
