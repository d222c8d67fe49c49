"""History pane: paging at 10,000, search -> ConversationSelected,
rename / archive / restore / delete (confirm, Cancel first, backup first)."""

from __future__ import annotations

import pytest
from textual.widgets import Button, Input

from agenttui.core.models import Message
from agenttui.ui.screens.confirm import ConfirmScreen
from agenttui.ui.widgets.conversation_list import PAGE, ConversationList, SearchResults
from agenttui.ui.widgets.history_pane import HistoryPane
from tests.ui.data_harness import Harness, services_for, settle
from tests.ui.helpers import wait_until


def _many(history, n: int) -> None:
    for i in range(n):
        history.create_conversation(title=f"conversation {i:05d}")


@pytest.mark.slow
async def test_pages_10000_conversations_newest_first(tmp_path):
    services = services_for(tmp_path)
    _many(services.history, 10_000)
    app = Harness(services, HistoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        listing = app.query_one(ConversationList)
        assert listing.total == 10_000
        assert listing.option_count == PAGE  # not the whole profile
        first = listing.conversations[listing.get_option_at_index(0).id]
        assert first.title == "conversation 09999"  # newest first
        # moving the cursor near the end loads the next page
        listing.focus()
        listing.highlighted = PAGE - 5
        await settle(pilot, app)
        assert listing.option_count == 2 * PAGE
        # jump to the end repeatedly: pages keep coming, no duplicates
        for _ in range(3):
            await pilot.press("end")
            await settle(pilot, app)
        assert listing.option_count == 5 * PAGE
        assert len(listing.conversations) == listing.option_count
        assert "10000 conversations" in str(app.query_one("#history-mode").render())


@pytest.mark.slow
async def test_search_hit_opens_conversation_at_message(tmp_path):
    services = services_for(tmp_path)
    history = services.history
    target = history.create_conversation(title="deploy notes")
    history.append(target.id, Message(role="user", content="how do I rotate the kubernetes certificates"))
    hit_msg = history.append(target.id, Message(role="assistant", content="use kubeadm certs renew all"))
    other = history.create_conversation(title="lunch")
    history.append(other.id, Message(role="user", content="what about pizza"))
    app = Harness(services, HistoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        search = app.query_one("#history-search", Input)
        search.focus()
        await pilot.press(*"kubeadm")
        results = app.query_one(SearchResults)
        await wait_until(pilot, lambda: results.display and results.option_count)  # after the debounce
        await settle(pilot, app)
        assert results.display and results.option_count == 1
        results.focus()
        await pilot.press("enter")
        await pilot.pause()
        selected = app.posted_of(HistoryPane.ConversationSelected)
        assert [(m.conversation_id, m.message_id) for m in selected] == [(target.id, hit_msg.id)]
        # Escape clears the search and shows the list again
        search.focus()
        await pilot.press("escape")
        await pilot.pause()
        assert not results.display and app.query_one(ConversationList).display


@pytest.mark.slow
async def test_rename_archive_restore(tmp_path):
    services = services_for(tmp_path)
    convo = services.history.create_conversation(title="old title")
    app = Harness(services, HistoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        listing = app.query_one(ConversationList)
        listing.focus()
        await pilot.press("r")
        rename = app.query_one("#history-rename", Input)
        assert rename.display and rename.value == "old title"
        rename.value = "new title"
        await pilot.press("enter")
        await settle(pilot, app)
        assert services.history.get_conversation(convo.id).title == "new title"
        # archive: gone from the list, present in the archived view
        listing.focus()
        await pilot.press("a")
        await settle(pilot, app)
        assert services.history.get_conversation(convo.id).archived
        assert listing.option_count == 0
        await pilot.press("v")
        await settle(pilot, app)
        assert listing.archived and listing.option_count == 1
        await pilot.press("a")  # restore
        await settle(pilot, app)
        assert not services.history.get_conversation(convo.id).archived


@pytest.mark.slow
async def test_delete_needs_confirm_starting_on_cancel_and_backs_up_first(tmp_path):
    services = services_for(tmp_path)
    keep = services.history.create_conversation(title="keep me")
    doomed = services.history.create_conversation(title="delete me")
    services.history.append(doomed.id, Message(role="user", content="hello"))
    app = Harness(services, HistoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        listing = app.query_one(ConversationList)
        listing.focus()
        listing.highlighted = listing.get_option_index(doomed.id)
        await pilot.press("d")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert "'delete me'" in dialog.statement and "1 message" in dialog.statement
        assert app.focused is dialog.query_one("#cancel", Button)
        await pilot.press("enter")  # Enter on a fresh dialog = Cancel
        await settle(pilot, app)
        assert services.history.get_conversation(doomed.id) is not None
        await pilot.press("d")
        await pilot.pause()
        await pilot.click("#confirm")
        await settle(pilot, app)
        assert services.history.get_conversation(doomed.id) is None
        assert services.history.get_conversation(keep.id) is not None
        backups = list(services.paths.backups_dir.glob("*.tar.gz"))
        assert len(backups) == 1


@pytest.mark.slow
async def test_clear_history_requires_typed_word(tmp_path):
    services = services_for(tmp_path)
    _many(services.history, 3)
    app = Harness(services, HistoryPane)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        app.query_one(ConversationList).focus()
        await pilot.press("X")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen) and "3 conversation(s)" in dialog.statement
        confirm = dialog.query_one("#confirm", Button)
        assert confirm.disabled
        dialog.query_one("#confirm-word", Input).focus()
        await pilot.press(*"delet")
        assert confirm.disabled
        await pilot.press("e")
        assert not confirm.disabled
        await pilot.press("enter")
        await settle(pilot, app)
        assert services.history.count_conversations() == 0
        assert list(services.paths.backups_dir.glob("*.tar.gz"))
