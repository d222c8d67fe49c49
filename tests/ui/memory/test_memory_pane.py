"""Memory pane: add / edit / pin / delete save to disk through the gate."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Input, OptionList

from agenttui.core.models import WriteResult
from agenttui.ui.widgets.memory_item_editor import MemoryItemEditor, parse_entry
from agenttui.ui.widgets.memory_offer import MemoryOffer
from agenttui.ui.widgets.memory_pane import MemoryPane
from tests.ui.data_harness import Harness, services_for, settle


def _disk_items(services, scope="user"):
    path = services.paths.user_memory_file if scope == "user" else services.paths.profile_memory_file(
        services.profile_name)
    return json.loads(path.read_text())["items"]


def test_parse_entry_tells_facts_from_notes():
    assert parse_entry("language = id").key == "language"
    assert parse_entry("language = id").value == "id"
    assert parse_entry("a == b is equality").key is None
    assert parse_entry("prefer short answers").key is None
    assert parse_entry("   ") is None


async def _type_into(pilot, widget, text):
    widget.focus()
    widget.value = text
    await pilot.press("enter")


@pytest.mark.slow
async def test_add_note_and_fact_save_to_disk_and_post_memory_changed(tmp_path):
    services = services_for(tmp_path)
    app = Harness(services, MemoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        pane = app.query_one(MemoryPane)
        add = pane.query_one("#memory-add", Input)
        await _type_into(pilot, add, "summarise output over 20 lines")
        await settle(pilot, app)
        await _type_into(pilot, add, "language = id")
        await settle(pilot, app)
        texts = {i.get("text") or f"{i['key']} = {i['value']}" for i in _disk_items(services)}
        assert texts == {"summarise output over 20 lines", "language = id"}
        assert all(i["source"] == "manual" for i in _disk_items(services))
        assert pane.option_list.option_count == 2
        assert len(app.posted_of(MemoryPane.MemoryChanged)) == 2
        # scope toggle sends the next item to the profile file
        pane.option_list.focus()
        await pilot.press("s")
        await _type_into(pilot, add, "this project uses tabs")
        await settle(pilot, app)
        assert [i["text"] for i in _disk_items(services, "profile")] == ["this project uses tabs"]


async def test_gate_rejection_is_an_error_toast_and_nothing_is_written(tmp_path):
    services = services_for(tmp_path)
    app = Harness(services, MemoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        pane = app.query_one(MemoryPane)
        await _type_into(pilot, pane.query_one("#memory-add", Input),
                         "password = hunter2")  # blocked key: the runtime boundary
        await settle(pilot, app)
        assert services.memory.items() == []
        errors = [n for n in app._notifications if n.severity == "error"]
        assert errors and errors[-1].title == "Not remembered"
        assert "password" in errors[-1].message  # the gate's reason, not a blank toast
        assert not app.posted_of(MemoryPane.MemoryChanged)


@pytest.mark.slow
async def test_edit_pin_delete_and_undo(tmp_path):
    services = services_for(tmp_path)
    services.memory.add_note("prefer metric units")
    services.memory.set_fact("editor", "vim")
    app = Harness(services, MemoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        pane = app.query_one(MemoryPane)
        await settle(pilot, app)
        listing = pane.query_one("#memory-list", OptionList)
        listing.focus()
        note = next(i for i in services.memory.items() if i.kind == "note")
        listing.highlighted = listing.get_option_index(note.id)
        # edit inline: Enter opens the editor prefilled
        await pilot.press("enter")
        editor = pane.query_one(MemoryItemEditor)
        assert editor.display and editor.value == "prefer metric units"
        editor.value = "prefer metric units, always"
        await pilot.press("enter")
        await settle(pilot, app)
        assert services.memory.get(note.id).text == "prefer metric units, always"
        assert not editor.display
        # pin toggles on disk and the pinned item sorts first
        listing.highlighted = listing.get_option_index(note.id)
        await pilot.press("p")
        await settle(pilot, app)
        assert services.memory.get(note.id).pinned is True
        assert listing.get_option_at_index(0).id == note.id
        # a fact edits its value through the same editor
        fact = next(i for i in services.memory.items() if i.kind == "fact")
        listing.highlighted = listing.get_option_index(fact.id)
        await pilot.press("e")
        assert editor.value == "editor = vim"
        editor.value = "editor = helix"
        await pilot.press("enter")
        await settle(pilot, app)
        assert services.memory.get(fact.id).value == "helix"
        # delete is immediate, with undo
        listing.highlighted = listing.get_option_index(note.id)
        await pilot.press("d")
        await settle(pilot, app)
        assert services.memory.get(note.id) is None
        assert listing.option_count == 1
        await pilot.press("u")
        await settle(pilot, app)
        back = [i for i in services.memory.items() if i.kind == "note"]
        assert [i.text for i in back] == ["prefer metric units, always"] and back[0].pinned


@pytest.mark.slow
async def test_offer_remember_and_dismiss(tmp_path):
    services = services_for(tmp_path)
    app = Harness(services, MemoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        pane = app.query_one(MemoryPane)
        await settle(pilot, app)
        from agenttui.core.models import MemoryItem

        item = MemoryItem(kind="note", scope="user", text="don't use emojis", source="correction")
        pane.offer("don't use emojis", WriteResult("pending", item=item, pending=True))
        offer = pane.query_one(MemoryOffer)
        await pilot.pause()
        assert offer.display
        await pilot.click("#offer-primary")
        await settle(pilot, app)
        assert [(i.text, i.source) for i in services.memory.items()] == [("don't use emojis", "correction")]
        assert not offer.display
        # already saved (corrections = "save"): Undo removes it
        saved = services.memory.items()[0]
        pane.offer("don't use emojis", WriteResult("added", item=saved))
        await pilot.pause()
        assert str(pane.query_one("#offer-primary").label) == "Undo"
        await pilot.click("#offer-primary")
        await settle(pilot, app)
        assert services.memory.items() == []
        # dismiss stores nothing
        pane.offer("x", WriteResult("pending", item=MemoryItem(kind="note", scope="user", text="x"), pending=True))
        await pilot.pause()
        await pilot.click("#offer-secondary")
        await settle(pilot, app)
        assert services.memory.items() == []


@pytest.mark.slow
async def test_main_screen_routes_offers_to_the_pane(services):
    from agenttui.core.models import MemoryItem
    from agenttui.ui import messages
    from agenttui.ui.app import make_app

    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        item = MemoryItem(kind="note", scope="user", text="stop using bullet lists", source="correction")
        app.main.post_message(messages.MemoryOffered("stop using bullet lists",
                                                     WriteResult("pending", item=item, pending=True)))
        await pilot.pause()
        offer = app.main.query_one(MemoryOffer)
        assert offer.display and offer.text == "stop using bullet lists"
        await pilot.click("#offer-primary")
        await settle(pilot, app)
        assert [i.text for i in services.memory.items()] == ["stop using bullet lists"]
        assert "stop using bullet lists" in {i.text for i in app.main.query_one(MemoryPane).items.values()}
