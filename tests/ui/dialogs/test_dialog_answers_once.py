"""A dialog answered with two keys at once answers once and leaves the app running.

Enter in a text box posts ``Input.Submitted`` each time; two Enters typed at once both
reached the dialog's handler before it had gone, and the second ``dismiss`` popped the
screen under it: over the main screen alone Textual's ``ScreenStackError`` ended the app
(screens/answer_once.py). "Type 'delete' and press Enter" invites exactly that double Enter
(Clear history, reset memory, delete a profile); so does Enter in a Settings field.
"""

from __future__ import annotations

import pytest
from textual.widgets import Input

from agenttui.ui.app import make_app
from agenttui.ui.screens.confirm import ConfirmScreen
from agenttui.ui.screens.settings import SettingsScreen
from tests.ui.data_harness import settle
from tests.ui.helpers import chat, type_at_once, wait_until

SIZE = (120, 36)


@pytest.mark.slow
async def test_the_confirm_word_and_two_enters_answer_once(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready and chat(app).prompt is not None)
        answers: list[bool | None] = []
        app.push_screen(ConfirmScreen("Clear history?", "All of it goes.", require_word="delete"), answers.append)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and app.focused is not None)
        type_at_once(app, "delete\r\r")
        await wait_until(pilot, lambda: app.screen is app.main)
        await settle(pilot, app)
        assert answers == [True] and app.is_running and app.screen is app.main


@pytest.mark.slow
async def test_enter_twice_in_a_settings_field_saves_once_and_leaves_the_app_running(services, memory_keyring):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await app.run_action("open_settings")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen) and app.screen.query("#set-model"))
        screen = app.screen
        field = screen.query_one("#set-model", Input)
        field.value = "llama3.1:8b"
        field.focus()
        await wait_until(pilot, lambda: field.has_focus)
        saves = []
        real_save = screen._save
        screen._save = lambda *args, **kw: (saves.append(args), real_save(*args, **kw))[1]
        type_at_once(app, "\r\r")
        await wait_until(pilot, lambda: app.screen is app.main)
        await settle(pilot, app)
        assert app.is_running and app.screen is app.main
        assert len(saves) == 1 and services.settings.model == "llama3.1:8b"
