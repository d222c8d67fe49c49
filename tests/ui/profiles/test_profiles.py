"""Profiles: create (bound to cwd), switch (memory/history swap), delete (typed name, backup)."""

from __future__ import annotations

import pytest
from textual.widgets import Button, Checkbox, Input, OptionList

from agenttui.ui.app import make_app
from agenttui.ui.screens.confirm import ConfirmScreen
from agenttui.ui.screens.profiles import ProfilesScreen
from agenttui.ui.widgets.conversation_list import ConversationList
from agenttui.ui.widgets.memory_pane import MemoryPane
from tests.ui.data_harness import settle


async def _open_profiles(app, pilot, cwd):
    app.push_screen(ProfilesScreen(app.services, cwd=cwd), app._switch_profile)
    await settle(pilot, app)
    return app.screen


@pytest.mark.slow
async def test_create_bound_switch_swaps_memory_and_history(services, tmp_path):
    services.memory.add_note("shared preference", scope="user")
    services.memory.add_note("default-only note", scope="profile")
    services.history.create_conversation(title="default chat")
    app = make_app(services, check_api_key=False)
    project = tmp_path / "project"
    project.mkdir()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        screen = await _open_profiles(app, pilot, project)
        assert isinstance(screen, ProfilesScreen)
        screen.query_one("#profile-name", Input).value = "work"
        screen.query_one("#profile-bind", Checkbox).value = True
        await pilot.click("#profile-create")  # created to be used: the app switches to it
        await settle(pilot, app)
        created = services.profiles.get("work")
        assert created is not None and [p.resolve() for p in created.paths] == [project.resolve()]
        assert services.profile_name == "work"
        assert app.screen is not screen
        assert "profile: work" in app.sub_title
        pane = app.screen.query_one(MemoryPane)
        texts = {item.text for item in pane.items.values()}
        assert texts == {"shared preference"}  # user scope follows, default's profile note does not
        assert app.screen.query_one(ConversationList).total == 0


@pytest.mark.slow
async def test_delete_profile_needs_typed_name_and_backs_up(services, tmp_path):
    services.profiles.create("scratch")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        screen = await _open_profiles(app, pilot, tmp_path)
        listing = screen.query_one("#profiles-list", OptionList)
        # the active profile cannot be deleted
        listing.highlighted = 0
        await pilot.press("d")
        await pilot.pause()
        assert app.screen is screen
        listing.highlighted = listing.get_option_index("scratch")
        await pilot.press("d")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen) and dialog.require_word == "scratch"
        word = dialog.query_one("#confirm-word", Input)
        assert app.focused is word  # typing goes to the field at once
        await pilot.press(*"scratc")
        assert dialog.query_one("#confirm", Button).disabled
        await pilot.press("h", "enter")
        await settle(pilot, app)
        assert services.profiles.get("scratch") is None
        assert list(services.paths.backups_dir.glob("*.tar.gz"))
        assert any(p.name.startswith("scratch") for p in services.paths.trash_dir.iterdir())
        assert [o.id for o in screen.query_one("#profiles-list", OptionList).options] == ["default"]


@pytest.mark.slow
async def test_bind_is_ticked_in_an_unbound_project_folder_and_not_in_a_bound_one(services, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        screen = await _open_profiles(app, pilot, project)
        assert screen.query_one("#profile-bind", Checkbox).value is True
        await pilot.press("n", *"work", "enter")  # the natural flow: n, a name, Enter
        await settle(pilot, app)
        assert [p.resolve() for p in services.profiles.get("work").paths] == [project.resolve()]
        assert services.profile_name == "work"  # and in use
        again = await _open_profiles(app, pilot, project)
        assert again.query_one("#profile-bind", Checkbox).value is False  # bound already
