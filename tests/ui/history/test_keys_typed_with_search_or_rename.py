"""'/' (search) or 'r' (rename) typed at once with the text for its box on the conversation list.

'/' moves the focus to the search box, but a focus move lands after the keys already on
their way: with the query typed in the same burst (fast typing while the app was busy,
a terminal that sends keys together), its letters reached the list, whose letters are
commands -- "/weather" archived the conversation (a), "/rename" opened a rename (r) that
the rest of the burst typed into.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from textual.widgets import Input

from agenttui.core.models import Message
from agenttui.ui.app import make_app
from tests.ui.helpers import chat, history_list_focused, typed_in_terminal, wait_until, workers_done

SIZE = (120, 40)


@pytest.mark.slow
@pytest.mark.parametrize("query", ["weather", "rename it", "dad"])
async def test_slash_and_a_query_typed_at_once_search(services, query):
    conversation = services.history.create_conversation("Deploy notes")
    services.history.append(conversation.id, Message(role="user", content="how do we deploy?"))
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = await history_list_focused(pilot, app, 1)
        typed_in_terminal(app, "/" + query)
        search = pane.query_one("#history-search", Input)
        await wait_until(pilot, lambda: search.value == query)
        await workers_done(pilot)
        assert search.has_focus
        assert not pane.query_one("#history-rename").display
        assert app.screen is app.main  # no delete confirmation asked for
    kept = services.history.get_conversation(conversation.id)
    assert kept is not None and kept.title == "Deploy notes" and not kept.archived


@pytest.mark.slow
async def test_r_and_a_title_typed_at_once_rename(services):
    conversation = services.history.create_conversation("Deploy notes")
    services.history.append(conversation.id, Message(role="user", content="how do we deploy?"))
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = await history_list_focused(pilot, app, 1)
        typed_in_terminal(app, "rRelease day\r")  # the box selects the old title
        await wait_until(pilot, lambda: services.history.get_conversation(conversation.id).title == "Release day")
        await workers_done(pilot)
        assert not pane.query_one("#history-rename").display
        assert app.screen is app.main
    kept = services.history.get_conversation(conversation.id)
    assert kept is not None and not kept.archived


@pytest.mark.slow
async def test_enter_and_a_question_typed_at_once_open_the_conversation_and_type_the_question(services):
    conversation = services.history.create_conversation("Deploy notes")
    services.history.append(conversation.id, Message(role="user", content="how do we deploy?"))
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await history_list_focused(pilot, app, 1)
        typed_in_terminal(app, "\rdo you remember")
        await wait_until(pilot, lambda: app.screen is app.main and chat(app).prompt.text == "do you remember")
        await workers_done(pilot)
        assert app.screen is app.main  # no delete confirmation asked for
        assert chat(app).conversation_id == conversation.id
    kept = services.history.get_conversation(conversation.id)
    assert kept is not None and kept.title == "Deploy notes" and not kept.archived


async def _polled(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


@pytest.mark.slow
async def test_keys_typed_while_a_conversation_loads_after_enter_go_to_the_prompt(services, monkeypatch):
    conversation = services.history.create_conversation("Deploy notes")
    services.history.append(conversation.id, Message(role="user", content="how do we deploy?"))
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = await history_list_focused(pilot, app, 1)
        listing = pane.conversation_list
        pane_chat = chat(app)
        loading = asyncio.Event()
        opening = pane_chat.open_conversation

        async def slow_open(*args, **kwargs):  # a long conversation: its load takes a while
            await loading.wait()
            return await opening(*args, **kwargs)

        monkeypatch.setattr(pane_chat, "open_conversation", slow_open)
        # (no pilot steps while it loads: they wait for the screen's queue, which the load holds)
        typed_in_terminal(app, "\r")
        await _polled(lambda: listing._selected_at is not None)
        typed = "do you remember"  # after the Enter was handled, before the chat is there
        typed_in_terminal(app, typed)
        try:
            await _polled(lambda: len(listing._held) == len(typed))
            assert app.screen is app.main and not pane.query_one("#history-rename").display
        finally:
            loading.set()  # else a failure here would wait for the load to close the app
        await wait_until(pilot, lambda: pane_chat.prompt.text == typed)
        assert app.screen is app.main and pane_chat.conversation_id == conversation.id
    kept = services.history.get_conversation(conversation.id)
    assert kept is not None and kept.title == "Deploy notes" and not kept.archived
