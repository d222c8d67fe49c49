"""``u`` in the Memory pane undoes a delete of the profile it was made in.

A profile-scope note deleted in profile default, then ``/profile work`` and ``u``: the
note was put back into *work*'s memory. Now the undo waits for its profile.
"""

from __future__ import annotations

import json

import pytest
from textual.widgets import OptionList

from agenttui.ui.app import make_app
from agenttui.ui.widgets.memory_pane import MemoryPane
from tests.ui.helpers import send, wait_until, workers_done

NOTE = "this repo's tests run with make check"


def _notes(services, profile: str) -> list[str]:
    path = services.paths.profile_memory_file(profile)
    return [item.get("text") for item in json.loads(path.read_text())["items"]] if path.exists() else []


async def _switch(pilot, services, name: str) -> None:
    await send(pilot, f"/profile {name}")
    await wait_until(pilot, lambda: services.profile_name == name and f"profile: {name}" in pilot.app.sub_title)
    await workers_done(pilot)


@pytest.mark.slow
async def test_an_undo_waits_for_the_profile_of_its_delete(services):
    services.profiles.create("work")
    assert services.memory.add_note(NOTE, scope="profile").ok
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        pane = app.main.query_one(MemoryPane)
        await wait_until(pilot, lambda: len(pane.items) == 1)
        listing = pane.query_one("#memory-list", OptionList)
        listing.focus()
        listing.highlighted = 0
        await pilot.press("d")
        await wait_until(pilot, lambda: _notes(services, "default") == [])
        await workers_done(pilot)

        await _switch(pilot, services, "work")
        pane.query_one("#memory-list", OptionList).focus()
        await pilot.press("u")
        await workers_done(pilot)
        assert _notes(services, "work") == [], "default's deleted note was put back into work"

        await _switch(pilot, services, "default")
        pane.query_one("#memory-list", OptionList).focus()
        await pilot.press("u")
        await wait_until(pilot, lambda: _notes(services, "default") == [NOTE])
        assert _notes(services, "work") == []
