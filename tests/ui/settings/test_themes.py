"""Themes: built-ins load, the choice persists, a bad file toasts and falls back."""

from __future__ import annotations

import tomllib

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.themes import builtin_themes_dir, load_themes
from tests.ui.helpers import foreground_complete, notifications


def test_four_builtin_themes_with_dark_and_light():
    loaded = load_themes(None)
    assert loaded.errors == []
    assert {"agenttui-dark", "agenttui-light", "agenttui-solarized", "agenttui-high-contrast"} <= set(loaded.themes)
    assert loaded.themes["agenttui-dark"].dark and not loaded.themes["agenttui-light"].dark
    assert (builtin_themes_dir() / "agenttui-dark.toml").is_file()


@pytest.mark.slow
async def test_theme_choice_persists_to_config(services, make_services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(100, 30)) as pilot:
        assert app.theme == "agenttui-dark"
        app.theme = "agenttui-light"
        await foreground_complete(app)
        await pilot.pause()
    config = tomllib.loads(services.paths.config_file.read_text())
    assert config["theme"] == "agenttui-light"
    again = make_app(make_services(), check_api_key=False)
    async with again.run_test(size=(100, 30)):
        assert again.theme == "agenttui-light"


async def test_bad_user_theme_gives_an_error_toast_and_a_fallback(paths, make_services):
    paths.user_themes_dir.mkdir(parents=True)
    (paths.user_themes_dir / "broken.toml").write_text('name = "broken"\nprimary = "not-a-colour"\n')
    (paths.user_themes_dir / "mine.toml").write_text('name = "mine"\nprimary = "#ff0000"\n')
    paths.config_file.write_text('theme = "broken"\n')
    services = make_services()
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(100, 30)):
        errors = [(t, m) for s, t, m in notifications(app) if s == "error"]
        assert any("broken.toml" in m and "not a colour" in m for _, m in errors)
        assert any("'broken' is not available" in m for _, m in errors)
        assert app.theme == "agenttui-dark"
        assert "mine" in app.available_themes  # a good user theme still loads
    assert 'theme = "broken"' in paths.config_file.read_text()  # not rewritten by the fallback


@pytest.mark.slow
async def test_next_theme_cycles_through_the_agenttui_themes(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(100, 30)) as pilot:
        before = app.theme
        await pilot.press("ctrl+t")
        assert app.theme != before and app.theme in app.agent_themes
