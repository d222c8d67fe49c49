"""``/profile NAME`` switches to that profile; an unknown name says so.

The name was ignored: ``/profile work`` opened the picker as ``/profile`` does, and
``/profile nosuch`` too, with nothing saying the name was not used.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.screens.profiles import ProfilesScreen
from tests.ui.helpers import send, wait_until, workers_done

SIZE = (120, 36)


@pytest.mark.slow
async def test_profile_with_a_name_switches_to_it(services):
    services.profiles.create("work")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "/profile work")
        await wait_until(pilot, lambda: services.profile_name == "work" and "profile: work" in app.sub_title)
        assert not isinstance(app.screen, ProfilesScreen)


@pytest.mark.slow
async def test_an_unknown_profile_name_is_refused_with_the_names(services):
    services.profiles.create("work")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await send(pilot, "/profile nosuch")
        await wait_until(pilot, lambda: any("nosuch" in message for _, _, message in app.notices))
        await workers_done(pilot)
        said = next(message for _, _, message in app.notices if "nosuch" in message)
        assert "default" in said and "work" in said
        assert services.profile_name == "default" and not isinstance(app.screen, ProfilesScreen)
