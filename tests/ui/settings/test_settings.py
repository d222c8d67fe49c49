"""Settings dialog: saved to config.toml, key to the keyring (never the file), applied live."""

from __future__ import annotations

import tomllib

import pytest
from textual.widgets import Input, Select, Switch

from agenttui.ui.app import make_app
from agenttui.ui.screens.settings import SettingsScreen
from tests.ui.data_harness import settle

KEY = "sk-test-abcdefghijklmnopqrstuvwxyz0123456789ABCD"


async def _open(app, pilot) -> SettingsScreen:
    await app.run_action("open_settings")
    await settle(pilot, app)
    assert isinstance(app.screen, SettingsScreen)
    return app.screen


@pytest.mark.slow
async def test_save_writes_config_and_keyring_not_the_key(services, memory_keyring):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        screen = await _open(app, pilot)
        screen.query_one("#set-model", Input).value = "llama3.1:8b"
        screen.query_one("#set-base-url", Input).value = "http://127.0.0.1:11434/v1"
        screen.query_one("#set-api-key", Input).value = KEY
        themes = sorted(app.available_themes)
        other = next(t for t in themes if t != app.theme and t.startswith("agenttui"))
        screen.query_one("#set-theme", Select).value = other
        screen.query_one("#set-memory-corrections", Select).value = "save"
        screen.query_one("#set-memory-model_consent", Select).value = "save"  # "ask" is the default
        screen.query_one("#set-memory-extraction", Switch).value = True
        screen.query_one("#set-memory-inject_notes", Input).value = "12"
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert not isinstance(app.screen, SettingsScreen)  # dismissed on success
        raw = services.paths.config_file.read_text()
        data = tomllib.loads(raw)
        assert data["model"] == "llama3.1:8b"
        assert data["base_url"] == "http://127.0.0.1:11434/v1"
        assert data["theme"] == other
        assert data["memory"]["corrections"] == "save"
        assert data["memory"]["model_consent"] == "save"
        assert data["memory"]["extraction"] is True
        assert data["memory"]["inject_notes"] == 12
        assert KEY not in raw and "api_key" not in raw
        from agenttui.core.config.api_key import get_api_key

        assert get_api_key({}).value == KEY
        # applied live
        assert services.settings.model == "llama3.1:8b"
        assert services.settings.memory.inject_notes == 12
        assert app.theme == other


@pytest.mark.slow
async def test_no_keyring_backend_shows_advice_and_still_saves(services):
    import keyring
    from keyring.backends import fail

    keyring.set_keyring(fail.Keyring())
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        screen = await _open(app, pilot)
        status = str(screen.query_one("#keyring-status").render())
        assert "OPENAI_API_KEY" in status  # the plain advice, not a crash
        screen.query_one("#set-model", Input).value = "gpt-4.1-mini"
        screen.query_one("#set-api-key", Input).value = KEY
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        warnings = [n for n in app._notifications if n.title == "API key"]
        assert warnings and "OPENAI_API_KEY" in warnings[-1].message
        raw = services.paths.config_file.read_text()
        assert "gpt-4.1-mini" in raw and KEY not in raw


@pytest.mark.slow
async def test_enter_in_the_key_field_saves_and_env_overrides_are_named(make_services, memory_keyring):
    services = make_services(environ={"AGENTTUI_MODEL": "fake-model"})
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        screen = await _open(app, pilot)
        hints = " ".join(str(h.render()) for h in screen.query(".hint"))
        assert "AGENTTUI_MODEL" in hints and "fake-model" in hints
        screen.query_one("#set-api-key", Input).focus()
        await pilot.press(*KEY, "enter")
        await settle(pilot, app)
        assert not isinstance(app.screen, SettingsScreen)
        from agenttui.core.config.api_key import get_api_key

        assert get_api_key({}).value == KEY


@pytest.mark.slow
async def test_every_simple_key_of_the_schema_has_a_field_with_its_meaning(services):
    """The form is built from the config schema: a new key is one entry there."""
    from agenttui.core.config.schema import schema_keys
    from agenttui.ui.screens.settings import field_id, form_keys

    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        screen = await _open(app, pilot)
        keys = form_keys()
        paths = {k.path for k in keys}
        assert {"agent.max_seconds", "history.window_messages", "memory.max_note_chars",
                "temperature", "recall.semantic", "agent.stream_options"} <= paths
        lists = {k.path for k in schema_keys() if "list" in str(k.hint)}
        assert not paths & lists
        for key in keys:
            screen.query_one(f"#{field_id(key)}")
        labels = " ".join(str(label.render()) for label in screen.query("Label"))
        assert "history.window_messages" in labels and "recent messages sent with each request" in labels


@pytest.mark.slow
async def test_out_of_range_values_are_refused_with_key_value_and_range(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        screen = await _open(app, pilot)
        field = screen.query_one("#set-agent-max_seconds", Input)
        field.value = "0"
        screen.query_one("#set-memory-max_note_chars", Input).value = "-1"
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert isinstance(app.screen, SettingsScreen)  # not dismissed, nothing written
        assert not services.paths.config_file.exists()
        errors = [n for n in app._notifications if n.title == "Settings not saved"]
        assert errors and "'agent.max_seconds' = 0.0 is out of range (allowed: 1.0 to 86_400.0)" in errors[-1].message
        assert "'memory.max_note_chars' = -1" in errors[-1].message
        assert screen.query_one("#set-memory-max_note_chars").has_focus or field.has_focus
        field.value = "300"
        screen.query_one("#set-memory-max_note_chars", Input).value = "800"
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert not isinstance(app.screen, SettingsScreen)
        data = tomllib.loads(services.paths.config_file.read_text())
        assert data["agent"]["max_seconds"] == 300.0 and data["memory"]["max_note_chars"] == 800
        assert services.settings.agent.max_seconds == 300.0  # applied live
