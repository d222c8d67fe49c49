"""Memory pane: ``d`` pressed again and again deletes the item highlighted after each delete."""

from __future__ import annotations

from textual.widgets import OptionList

from agenttui.ui.widgets.memory_pane import MemoryPane
from tests.ui.data_harness import Harness, services_for, settle
from tests.ui.helpers import wait_until


async def test_twenty_quick_deletes_delete_twenty_items_and_u_puts_back_the_last(tmp_path):
    services = services_for(tmp_path)
    for n in range(25):
        services.memory.add_note(f"note number {n:02d} about topic {n * 7}")
    app = Harness(services, MemoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        pane = app.query_one(MemoryPane)
        listing = pane.query_one("#memory-list", OptionList)
        await wait_until(pilot, lambda: listing.option_count == 25)
        listing.focus()
        listing.highlighted = 0
        await pilot.press(*["d"] * 20)  # no waiting between the presses
        await settle(pilot, app)
        await wait_until(pilot, lambda: len(services.memory.items()) == 5)
        await wait_until(pilot, lambda: listing.option_count == 5)
        assert listing.highlighted is not None  # the next press has something to act on
        await pilot.press("d")
        await settle(pilot, app)
        await wait_until(pilot, lambda: len(services.memory.items()) == 4)
        await pilot.press("u")
        await settle(pilot, app)
        await wait_until(pilot, lambda: len(services.memory.items()) == 5)


async def test_a_second_d_after_the_list_refreshed_deletes_the_next_item(tmp_path):
    services = services_for(tmp_path)
    for text in ("alpha likes tea", "bravo likes coffee", "charlie likes water"):
        services.memory.add_note(text)
    app = Harness(services, MemoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        pane = app.query_one(MemoryPane)
        listing = pane.query_one("#memory-list", OptionList)
        await wait_until(pilot, lambda: listing.option_count == 3)
        listing.focus()
        listing.highlighted = 0
        await pilot.press("d")
        await settle(pilot, app)
        await wait_until(pilot, lambda: listing.option_count == 2)
        await pilot.press("d")
        await settle(pilot, app)
        await wait_until(pilot, lambda: len(services.memory.items()) == 1, timeout=10)
