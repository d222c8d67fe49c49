"""History's focus and keys are obvious. F3 lands on the conversation list (it
landed in the search box, where the footer offered "r Rename" and r typed into the search);
the footer shows only the keys that act where the focus is; ↓ leaves the search box for the list.
The Memory pane's list keys follow the same rule in its Add field."""

from __future__ import annotations

import pytest
from textual.widgets import Footer, Input

from agenttui.core.models import Message
from agenttui.ui.app import make_app
from tests.ui.helpers import chat, history_list_focused, wait_until

SIZE = (120, 40)
LIST_KEYS = ("Rename", "Archive/restore", "Delete", "Clear history")


def _footer(app) -> str:
    footer = app.screen.query_one(Footer)
    return " | ".join(f"{k.key} {k.description}" for k in footer.query("FooterKey"))


@pytest.mark.slow
async def test_f3_lands_on_the_list_whose_keys_are_shown_and_work(services):
    conversation = services.history.create_conversation("Deploy notes")
    services.history.append(conversation.id, Message(role="user", content="how do we deploy?"))
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = await history_list_focused(pilot, app, 1)
        await wait_until(pilot, lambda: all(key in _footer(app) for key in LIST_KEYS))
        assert "slash Search" in _footer(app)
        await pilot.press("r")  # renames (it used to type into the search box)
        rename = pane.query_one("#history-rename", Input)
        await wait_until(pilot, lambda: rename.has_focus)
        assert rename.value == "Deploy notes"
        assert pane.query_one("#history-search", Input).value == ""


@pytest.mark.slow
async def test_in_the_search_box_list_keys_are_hidden_and_down_goes_to_the_list(services):
    services.history.create_conversation("Deploy notes")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        pane = app.screen.query_one("#history-pane")
        await wait_until(pilot, lambda: pane.conversation_list.option_count == 1)
        await pilot.press("f3")
        await wait_until(pilot, lambda: pane.conversation_list.has_focus)
        await pilot.press("slash")
        search = pane.query_one("#history-search", Input)
        await wait_until(pilot, lambda: search.has_focus)
        await wait_until(pilot, lambda: "List" in _footer(app))
        footer = _footer(app)
        assert not any(key in footer for key in LIST_KEYS), footer  # they would type here
        assert "slash Search" not in footer
        await pilot.press(*"rad")  # typed, not renamed / archived / deleted
        assert search.value == "rad"
        assert not pane.query_one("#history-rename").display
        await pilot.press("down")
        await wait_until(pilot, lambda: not search.has_focus and pane.has_focus_within)
        await pilot.press("escape")  # from the results: clears the search, back on the list
        await wait_until(pilot, lambda: search.value == "" and pane.conversation_list.has_focus)
        await wait_until(pilot, lambda: "Rename" in _footer(app))


@pytest.mark.slow
async def test_memory_list_keys_show_only_on_the_list(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        await pilot.press("f2")  # Memory at its add box; the list is a shift+tab away
        listing = app.screen.query_one("#memory-list")
        await wait_until(pilot, lambda: app.screen.query_one("#memory-add", Input).has_focus)
        listing.focus()
        await wait_until(pilot, lambda: listing.has_focus and "Edit" in _footer(app))
        await pilot.press("a")
        add = app.screen.query_one("#memory-add", Input)
        await wait_until(pilot, lambda: add.has_focus)
        await wait_until(pilot, lambda: "Edit" not in _footer(app))
        footer = _footer(app)
        assert not any(key in footer for key in ("Pin", "Delete", "Undo delete", "Scope for new")), footer
        await pilot.press(*"eps")  # typed, as the footer now implies
        assert add.value == "eps"
