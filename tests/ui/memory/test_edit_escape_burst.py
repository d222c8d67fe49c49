"""The Memory pane's item editor edits the item, and Esc typed with what follows cancels.

Textual's Input selects all on focus: the first key typed replaced the whole note.

A terminal sends Esc as ESC, and Textual reads ESC followed at once by a letter as
alt+<letter>: Esc and "hello" typed quickly reached the editor as alt+h and "ello", so
the edit was not cancelled, the letters went into the item, and an Enter in the same
burst saved them into memory. After Esc the focus is on the list, where letters are
commands (d deletes), so the rest of the burst is not handed on there either.
"""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from agenttui.ui.escape_or_option_arrow import EscapeAwareParser
from agenttui.ui.widgets.memory_item_editor import MemoryItemEditor
from agenttui.ui.widgets.memory_pane import MemoryPane
from tests.ui.data_harness import Harness, services_for, settle
from tests.ui.helpers import wait_until


async def _editing(pilot, app, services):
    pane = app.query_one(MemoryPane)
    await settle(pilot, app)
    listing = pane.query_one("#memory-list", OptionList)
    listing.focus()
    note = next(i for i in services.memory.items() if i.text == "prefer metric units")
    listing.highlighted = listing.get_option_index(note.id)
    await pilot.press("enter")
    editor = pane.query_one(MemoryItemEditor)
    await wait_until(pilot, lambda: editor.display and editor.has_focus)
    return editor


async def test_typing_in_the_editor_adds_to_the_item_instead_of_replacing_it(tmp_path):
    services = services_for(tmp_path)
    services.memory.add_note("prefer metric units")
    app = Harness(services, MemoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        editor = await _editing(pilot, app, services)
        await pilot.press(*", always")
        await pilot.press("enter")
        await wait_until(pilot, lambda: not editor.display)
        await settle(pilot, app)
    assert [i.text for i in services.memory.items()] == ["prefer metric units, always"]


@pytest.mark.parametrize("burst", ["\x1bhello\r", "\x1bdelete\r", "\x1b\x1bd\r", "\x1b2 cats?\r"])
async def test_esc_with_typing_cancels_the_edit_and_changes_nothing(tmp_path, burst):
    services = services_for(tmp_path)
    services.memory.add_note("prefer metric units")
    services.memory.add_note("lives in Bandung")
    app = Harness(services, MemoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        editor = await _editing(pilot, app, services)
        parser = EscapeAwareParser()  # the app's parser in a terminal: Esc + "2 …" is Esc, then "2 …"
        for event in [*parser.feed(burst), *parser.feed("")]:
            app.post_message(event)
        await wait_until(pilot, lambda: not editor.display, explain=lambda: editor.value)
        await settle(pilot, app)
    assert sorted(i.text for i in services.memory.items()) == ["lives in Bandung", "prefer metric units"]
