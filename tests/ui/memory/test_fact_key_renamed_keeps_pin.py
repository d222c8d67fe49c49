"""Renaming a fact's key in the editor keeps what the user set on it.

The store edits values, not keys, so a new key is a new fact; it was written
unpinned and without the old one's expiry: ``★ language = en`` edited to
``preferred_language = en`` lost its star, and with it its place in every prompt.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from textual.widgets import OptionList

from agenttui.core.models import utcnow
from agenttui.ui.widgets.memory_item_editor import MemoryItemEditor
from agenttui.ui.widgets.memory_pane import MemoryPane
from tests.ui.data_harness import Harness, services_for, settle
from tests.ui.helpers import wait_until


@pytest.mark.slow
async def test_a_pinned_fact_with_a_new_key_stays_pinned_and_keeps_its_expiry(tmp_path):
    services = services_for(tmp_path)
    services.memory.set_fact("language", "en", source="manual", pinned=True, ttl_days=30)
    app = Harness(services, MemoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        pane = app.query_one(MemoryPane)
        await settle(pilot, app)
        listing = pane.query_one("#memory-list", OptionList)
        listing.focus()
        listing.highlighted = 0
        await pilot.press("e")
        editor = pane.query_one(MemoryItemEditor)
        assert editor.value == "language = en"
        editor.value = "preferred_language = en"
        await pilot.press("enter")
        await wait_until(
            pilot,
            lambda: [i.key for i in services.memory.items()] == ["preferred_language"],
            explain=lambda: services.memory.items(),
        )
        await settle(pilot, app)
        [fact] = services.memory.items()
        assert fact.pinned, "the renamed fact lost its pin"
        assert fact.expires is not None and timedelta(days=29) < fact.expires - utcnow() <= timedelta(days=30)
