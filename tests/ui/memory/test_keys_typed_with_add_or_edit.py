"""Memory's a (add) and e (edit), typed together with the text for the box they open.

A focus move lands after the keys already on their way to the list, whose letters are
commands: "a" and "dd pizza" typed at once (fast typing while the app was busy, a slow
ssh link that delivers keys in clumps) deleted two notes (d, d) and pinned one (p), and
"e" with ", always" opened the editor without the text.
"""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from agenttui.ui.widgets.memory_item_editor import MemoryItemEditor
from agenttui.ui.widgets.memory_pane import MemoryPane
from tests.ui.data_harness import Harness, services_for, settle
from tests.ui.helpers import typed_in_terminal, wait_until

NOTES = ["prefer metric units", "lives in Bandung"]


async def _typed_at_once(pilot, app, text: str) -> MemoryPane:
    pane = app.query_one(MemoryPane)
    await settle(pilot, app)
    listing = pane.query_one("#memory-list", OptionList)
    listing.focus()
    await wait_until(pilot, lambda: listing.has_focus and listing.highlighted == 0)
    typed_in_terminal(app, text)  # as the app's parser reads one burst from the terminal
    return pane


@pytest.mark.parametrize("typed", ["dd pizza night", "pizza, pepperoni"])
async def test_a_and_a_note_typed_at_once_add_the_note(tmp_path, typed):
    services = services_for(tmp_path)
    for note in NOTES:
        services.memory.add_note(note)
    app = Harness(services, MemoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        await _typed_at_once(pilot, app, "a" + typed + "\r")
        await wait_until(pilot, lambda: len(services.memory.items()) == 3)
        await settle(pilot, app)
    items = services.memory.items()
    assert sorted(i.text for i in items) == sorted([*NOTES, typed])
    assert not any(i.pinned for i in items)


async def test_e_and_text_typed_at_once_edit_the_item(tmp_path):
    services = services_for(tmp_path)
    for note in NOTES:
        services.memory.add_note(note)
    app = Harness(services, MemoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        pane = await _typed_at_once(pilot, app, "e, always\r")
        editor = pane.query_one(MemoryItemEditor)
        await wait_until(pilot, lambda: any(i.text.endswith(", always") for i in services.memory.items()))
        await wait_until(pilot, lambda: not editor.display)
        await settle(pilot, app)
    texts = sorted(i.text for i in services.memory.items())
    assert len(texts) == 2 and sum(t.endswith(", always") for t in texts) == 1
    assert sorted(t.removesuffix(", always") for t in texts) == sorted(NOTES)


async def test_enter_and_text_typed_at_once_edit_the_item(tmp_path):
    services = services_for(tmp_path)
    for note in NOTES:
        services.memory.add_note(note)
    app = Harness(services, MemoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        pane = await _typed_at_once(pilot, app, "\r in winter\r")
        editor = pane.query_one(MemoryItemEditor)
        await wait_until(pilot, lambda: any(i.text.endswith(" in winter") for i in services.memory.items()))
        await wait_until(pilot, lambda: not editor.display)
        await settle(pilot, app)
    texts = sorted(i.text for i in services.memory.items())
    assert len(texts) == 2 and sorted(t.removesuffix(" in winter") for t in texts) == sorted(NOTES)
