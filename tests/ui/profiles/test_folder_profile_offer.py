"""Started in a project folder no profile is bound to: one toast offers a profile for it; the
Profiles dialog comes filled in, and the profile it creates is the one in use."""

from __future__ import annotations

import os

from textual.widgets import Checkbox, Input

from agenttui.bootstrap import build_services
from agenttui.ui.app import make_app
from agenttui.ui.screens.profiles import ProfilesScreen
from tests.ui.helpers import notifications, wait_until, workers_done

TITLE = "Profile for this folder?"


def _offers(app) -> list[str]:
    return [message for _severity, title, message in notifications(app) if title == TITLE]


async def test_a_repository_on_default_is_offered_a_profile_that_ctrl_g_enter_makes_and_uses(paths, tmp_path):
    repo = tmp_path / "my repo!"
    (repo / ".git").mkdir(parents=True)
    (repo / "src").mkdir()
    services = build_services(paths=paths, cwd=repo / "src", environ=dict(os.environ))
    try:
        app = make_app(services, check_api_key=False)
        async with app.run_test(size=(120, 36)) as pilot:
            await wait_until(pilot, lambda: _offers(app), timeout=60)
            assert "ctrl+g" in _offers(app)[0] and "default" in _offers(app)[0]
            assert services.profile_name == "default"  # nothing made without the key
            await pilot.press("ctrl+g")
            await wait_until(pilot, lambda: isinstance(app.screen, ProfilesScreen))
            dialog = app.screen
            assert dialog.query_one("#profile-name", Input).value == "my-repo"
            assert dialog.query_one("#profile-bind", Checkbox).value is True
            await pilot.press("n", "enter")  # the offer's flow: the key, then Enter
            await wait_until(pilot, lambda: services.profile_name == "my-repo", timeout=60)
            assert not isinstance(app.screen, ProfilesScreen)
            assert "profile: my-repo" in app.sub_title
        bound = services.profiles.get("my-repo")
        assert bound is not None and [p.resolve() for p in bound.paths] == [repo.resolve()]  # the root
    finally:
        services.close()
    again = build_services(paths=paths, cwd=repo / "src", environ=dict(os.environ))
    try:
        assert again.profile_name == "my-repo"  # the next start in the folder uses it
    finally:
        again.close()


async def test_no_offer_outside_a_repository_or_in_a_bound_one(paths, tmp_path):
    plain = tmp_path / "notes"
    plain.mkdir()
    repo = tmp_path / "bound"
    (repo / ".git").mkdir(parents=True)
    assert await _offers_at_start(paths, plain) == []
    setup = build_services(paths=paths, cwd=repo, environ=dict(os.environ))
    setup.profiles.bind("default", repo)  # kept in default on purpose: a choice made
    setup.close()
    assert await _offers_at_start(paths, repo) == []


async def _offers_at_start(paths, cwd) -> list[str]:
    services = build_services(paths=paths, cwd=cwd, environ=dict(os.environ))
    try:
        app = make_app(services, check_api_key=False)
        async with app.run_test(size=(120, 36)) as pilot:
            await wait_until(pilot, lambda: app.main.panes_ready, timeout=60)
            await workers_done(pilot, timeout=60)  # the offer's look-up has run
            return _offers(app)
    finally:
        services.close()
