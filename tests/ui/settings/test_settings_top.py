"""Settings offers, at the top, a model picker filled from the endpoint's
``GET /models`` (real openai client against the fake server), your name, the temperature and
the system prompt (soul); Save stays on screen at every size."""

from __future__ import annotations

import tomllib

import pytest
from textual.widgets import Button, Input, Select, TextArea

from agenttui.ui.app import make_app
from agenttui.ui.screens.settings import SettingsScreen
from tests.ui.helpers import chat, wait_until

SOUL = "You are a terse assistant for a sysadmin. Prefer shell one-liners."


async def _open(app, pilot) -> SettingsScreen:
    await wait_until(pilot, lambda: chat(app).prompt is not None)  # the app is up
    await app.run_action("open_settings")
    await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen)
                     and app.screen.query("#model-list-status"))  # composed, not only pushed
    return app.screen


def _status(screen) -> str:
    return str(screen.query_one("#model-list-status").render())


@pytest.mark.slow
async def test_pick_a_listed_model_and_set_name_temperature_and_soul(chat_services, fake_openai):
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(app, pilot)
        picker = screen.query_one("#set-model-list", Select)
        await wait_until(pilot, lambda: "1 model(s) listed by" in _status(screen))
        assert fake_openai.base_url in _status(screen)
        picker.value = fake_openai.model
        await wait_until(pilot, lambda: screen.query_one("#set-model", Input).value == fake_openai.model)
        screen.query_one("#set-user_name", Input).value = "Ayu"
        screen.query_one("#set-temperature", Input).value = "0.3"
        screen.query_one("#set-soul", TextArea).text = SOUL
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not isinstance(app.screen, SettingsScreen))
    data = tomllib.loads(chat_services.paths.config_file.read_text())
    assert data["model"] == fake_openai.model
    assert data["user_name"] == "Ayu" and data["temperature"] == 0.3 and data["soul"] == SOUL
    assert chat_services.base_settings.soul == SOUL  # applied live


@pytest.mark.slow
async def test_a_gateway_without_the_list_says_so(chat_services, fake_openai):
    fake_openai.no_models(404)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(app, pilot)
        await wait_until(pilot, lambda: "Could not list" in _status(screen))
        assert "404" in _status(screen) and "Type the name" in _status(screen)
        assert screen.query_one("#set-model", Input).value  # still editable by hand


@pytest.mark.slow
async def test_an_empty_soul_restores_the_default(services):
    from agenttui.core.config.settings import DEFAULT_SOUL

    services.base_settings.soul = "something else"
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(app, pilot)
        assert "Set an API key" in _status(screen)  # no key: nothing is fetched
        screen.query_one("#set-soul", TextArea).text = "   "
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not isinstance(app.screen, SettingsScreen))
    assert services.base_settings.soul == DEFAULT_SOUL


@pytest.mark.slow
async def test_save_is_on_screen_at_every_size(services):
    for size in ((80, 24), (100, 30), (120, 40)):
        app = make_app(services, check_api_key=False)
        async with app.run_test(size=size) as pilot:
            screen = await _open(app, pilot)
            await pilot.pause()
            save = screen.query_one("#settings-save", Button).region
            assert save.height > 0 and save.bottom <= size[1] - 1, (size, save)
            assert screen.query_one("#set-soul").region.height > 0 or size[1] < 40
