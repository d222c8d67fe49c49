"""Settings dialog save: a commented config.toml keeps its comments, order and formatting;
only the edited key's line changes (core/config/toml_edit.py). Textual Pilot, real files."""

from __future__ import annotations

import difflib

import pytest
from textual.widgets import Input

from agenttui.ui.app import make_app
from agenttui.ui.screens.settings import SettingsScreen
from tests.ui.data_harness import settle

COMMENTED = """\
# my agenttui settings -- keep these notes
model = "gpt-4o-mini"   # the cheap one

[agent]
# be patient with slow local models
max_seconds = 300   # five minutes

[memory]
inject_notes = 40 # explicit on purpose
"""


@pytest.mark.slow
async def test_settings_save_changes_only_the_edited_line(paths, make_services):
    config = paths.config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(COMMENTED)
    services = make_services()  # reads the commented file
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        await app.run_action("open_settings")
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        screen.query_one("#set-memory-inject_notes", Input).value = "12"
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert not isinstance(app.screen, SettingsScreen)  # saved and dismissed
    after = config.read_text()
    changed = [line for line in difflib.ndiff(COMMENTED.splitlines(), after.splitlines()) if line[:1] in "+-"]
    assert changed == ["- inject_notes = 40 # explicit on purpose", "+ inject_notes = 12 # explicit on purpose"]
