"""The Memory list's keys act as soon as the list has the focus.

Shift+tab from the Add field (or a click on the list's frame) focused the list with no item
highlighted: the footer offered ``e Edit  p Pin  d Delete``, and each did nothing, silently,
until an arrow key first highlighted an item."""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList

from agenttui.ui.widgets.memory_item_editor import MemoryItemEditor
from agenttui.ui.widgets.memory_pane import MemoryPane
from tests.ui.data_harness import Harness, services_for, settle


@pytest.mark.slow
async def test_shift_tab_from_add_field_then_e_edits_the_first_item(tmp_path):
    services = services_for(tmp_path)
    services.memory.add_note("Ich wohne in München")
    services.memory.add_note("ผมชอบกาแฟ")
    app = Harness(services, MemoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        pane = app.query_one(MemoryPane)
        await settle(pilot, app)
        listing = pane.query_one("#memory-list", OptionList)
        pane.query_one("#memory-add", Input).focus()
        await pilot.press("shift+tab")
        assert app.focused is listing
        await pilot.press("e")
        editor = pane.query_one(MemoryItemEditor)
        first = pane.items[listing.get_option_at_index(0).id]
        assert editor.display and editor.value == first.text


@pytest.mark.slow
async def test_focus_keeps_the_highlight_the_user_chose(tmp_path):
    services = services_for(tmp_path)
    services.memory.add_note("first note")
    services.memory.add_note("second note")
    app = Harness(services, MemoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        pane = app.query_one(MemoryPane)
        await settle(pilot, app)
        listing = pane.query_one("#memory-list", OptionList)
        listing.highlighted = 1
        pane.query_one("#memory-add", Input).focus()
        await pilot.pause()
        listing.focus()
        await pilot.pause()
        assert listing.highlighted == 1
