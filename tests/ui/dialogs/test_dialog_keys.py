"""Dialog keys do what the dialog shows: Enter on the first-run dialog takes its primary
button ("Open settings", it pressed "Later"), and Settings says its save key."""

from __future__ import annotations

from textual.widgets import Button

from agenttui.ui.app import make_app
from agenttui.ui.screens.first_run import FirstRunScreen
from agenttui.ui.screens.settings import SettingsScreen
from tests.ui.helpers import chat, wait_until


async def test_enter_on_the_first_run_dialog_opens_settings(services, memory_keyring):
    app = make_app(services)  # no key anywhere: the first-run dialog comes up
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, FirstRunScreen)
                         and bool(app.screen.query("#settings")))
        primary = [b for b in app.screen.query(Button) if b.variant == "primary"]
        await wait_until(pilot, lambda: app.screen.focused is not None)
        assert app.screen.focused in primary  # the button drawn as the default is the one Enter presses
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen))


async def test_escape_on_the_first_run_dialog_is_still_later(services, memory_keyring):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, FirstRunScreen)
                         and bool(app.screen.query("#settings")))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, FirstRunScreen))
        assert not isinstance(app.screen, SettingsScreen)


async def test_settings_shows_its_save_key_and_the_key_saves(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        await app.run_action("open_settings")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen)
                         and bool(app.screen.query("#settings-save")))
        screen = app.screen
        save = screen.query_one("#settings-save", Button)
        assert "ctrl+s" in str(save.label).lower()
        await pilot.pause()
        assert save.region.width >= len(str(save.label))  # the label is not cut
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not isinstance(app.screen, SettingsScreen))
