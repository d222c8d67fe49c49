"""A "remember this?" offer belongs to the profile whose chat made it.

It stayed in the Memory pane after ``/profile work``; its Remember there stored a
profile-scope proposal in *work*'s memory. Now it leaves with the switch and is shown
again on the way back, where Remember stores it in the profile it was made in.
"""

from __future__ import annotations

import json

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.widgets.memory_offer import MemoryOffer
from tests.ui.helpers import send, wait_until, workers_done

SIZE = (120, 36)
NOTE = "deploys of this repo go from the release branch"


def _profile_notes(services, profile: str) -> list[str]:
    path = services.paths.profile_memory_file(profile)
    if not path.exists():
        return []
    return [item.get("text") for item in json.loads(path.read_text())["items"]]


async def _switch(pilot, services, name: str) -> None:
    await send(pilot, f"/profile {name}")
    await wait_until(pilot, lambda: services.profile_name == name and f"profile: {name}" in pilot.app.sub_title)
    await workers_done(pilot)


@pytest.mark.slow
async def test_an_offer_leaves_with_its_profile_and_comes_back_with_it(chat_services, fake_openai):
    services = chat_services
    services.profiles.create("work")
    fake_openai.tool_call("remember", {"text": NOTE, "scope": "profile"})  # model_consent "ask": an offer
    app = make_app(services)
    async with app.run_test(size=SIZE) as pilot:
        offer = app.main.query_one(MemoryOffer)
        await send(pilot, "where do deploys of this repo go from?")
        await wait_until(pilot, lambda: offer.display and NOTE in offer.text, explain=lambda: offer.text)
        await workers_done(pilot)

        await _switch(pilot, services, "work")
        assert not offer.display, "default's offer is still shown in profile work"

        await _switch(pilot, services, "default")
        await wait_until(pilot, lambda: offer.display and NOTE in offer.text)
        await pilot.click("#offer-primary")  # Remember
        await wait_until(pilot, lambda: NOTE in _profile_notes(services, "default"))
        await workers_done(pilot)
        assert _profile_notes(services, "work") == []
        assert not offer.display


@pytest.mark.slow
async def test_an_offer_arriving_after_the_switch_waits_for_its_profile(services):
    from agenttui.core.models import MemoryItem, Origin, WriteResult
    from agenttui.ui import messages

    services.profiles.create("work")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        offer = app.main.query_one(MemoryOffer)
        await _switch(pilot, services, "work")
        late = MemoryItem(kind="note", scope="profile", text=NOTE, source="model", origin=Origin(profile="default"))
        app.main.post_message(messages.MemoryOffered(NOTE, WriteResult("pending", item=late, pending=True)))
        await workers_done(pilot)
        assert not offer.display, "default's late offer is shown in profile work"
        await _switch(pilot, services, "default")
        await wait_until(pilot, lambda: offer.display and NOTE in offer.text)
