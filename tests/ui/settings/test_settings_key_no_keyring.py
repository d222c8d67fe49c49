"""Settings without a keyring: a typed key is used for the session, or, opted in,
stored in a 0600 file in the config dir; never thrown away, never in config.toml."""

from __future__ import annotations

import os
import stat

import pytest
from textual.widgets import Input, Switch

from agenttui.core.config.key_file import key_file_path
from agenttui.ui.app import make_app
from agenttui.ui.screens.settings import SettingsScreen
from tests.ui.data_harness import settle
from tests.ui.helpers import send, wait_until

KEY = "sk-test-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
SIZE = (120, 36)


@pytest.fixture
def no_keyring():
    import keyring
    from keyring.backends import fail

    keyring.set_keyring(fail.Keyring())  # the autouse memory_keyring fixture restores its own after


async def _settings_checked(app, pilot) -> SettingsScreen:
    await settle(pilot, app)  # the main screen is up first, as for a user
    await app.run_action("open_settings")
    def checked() -> bool:
        status = app.screen.query("#keyring-status") if isinstance(app.screen, SettingsScreen) else None
        return bool(status) and "checking" not in str(status.first().render())

    await wait_until(pilot, checked)
    return app.screen


def _key_notes(app) -> list[str]:
    return [n.message for n in app._notifications if n.title == "API key"]


@pytest.mark.slow
async def test_a_typed_key_is_used_for_the_session_without_a_keyring(make_services, fake_openai, no_keyring):
    services = make_services(environ={"OPENAI_BASE_URL": fake_openai.base_url})  # no OPENAI_API_KEY
    fake_openai.reply("hello with the typed key")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _settings_checked(app, pilot)
        status = str(screen.query_one("#keyring-status").render())
        assert "session only" in status and "OPENAI_API_KEY" in status
        assert screen.query_one("#key-file-row").display  # the opt-in is offered ...
        assert screen.query_one("#set-key-file", Switch).value is False  # ... and off
        screen.query_one("#set-api-key", Input).value = KEY
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not isinstance(app.screen, SettingsScreen))
        assert any("this session only" in note for note in _key_notes(app))
        lookup = services.api_key()
        assert (lookup.value, lookup.source) == (KEY, "session")
        await send(pilot, "hi")
        await wait_until(pilot, lambda: fake_openai.chat_requests)
    sent = [r for r in fake_openai.requests if r.path.endswith("/chat/completions")][-1]
    auth = {k.lower(): v for k, v in sent.headers.items()}["authorization"]
    assert auth == f"Bearer {KEY}"
    assert not key_file_path(services.paths.config_dir).exists()  # nothing written without the opt-in
    assert KEY not in services.paths.config_file.read_text()


@pytest.mark.slow
async def test_opt_in_stores_a_0600_file_found_after_a_restart_and_off_removes_it(make_services, no_keyring):
    services = make_services(environ={})
    path = key_file_path(services.paths.config_dir)
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _settings_checked(app, pilot)
        screen.query_one("#set-api-key", Input).value = KEY
        screen.query_one("#set-key-file", Switch).value = True
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not isinstance(app.screen, SettingsScreen))
        assert any(str(path) in note and "0600" in note for note in _key_notes(app))
    assert path.read_text().strip() == KEY
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert KEY not in services.paths.config_file.read_text()
    again = make_services(environ={})  # a new start: the key is found in the file
    assert (again.api_key().value, again.api_key().source) == (KEY, "file")
    app = make_app(again, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _settings_checked(app, pilot)
        switch = screen.query_one("#set-key-file", Switch)
        assert switch.value is True  # shows where the key is kept
        switch.value = False
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not isinstance(app.screen, SettingsScreen))
        assert any("Removed the key file" in note for note in _key_notes(app))
    assert not path.exists()


@pytest.mark.slow
async def test_with_a_keyring_the_file_is_not_offered(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _settings_checked(app, pilot)
        assert "keyring:" in str(screen.query_one("#keyring-status").render())
        assert not screen.query_one("#key-file-row").display
        screen.query_one("#set-api-key", Input).value = KEY
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not isinstance(app.screen, SettingsScreen))
    assert services.api_key().source == "keyring"
    assert not key_file_path(services.paths.config_dir).exists()
