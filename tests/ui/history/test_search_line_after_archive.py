"""Archiving a search hit's conversation leaves the search's line on the mode line.

Seen in tmux: with the results of a search on show, ``a`` on a hit archived its
conversation and both the list and the search were read again; the list's page came
last and its count replaced the search's line: "10 conversations" (and "v: archived" on
the border) above two search hits. The list page is held here until the search has been
shown again, the order seen -- a condition, not a delay.
"""

from __future__ import annotations

import threading

from textual.widgets import Input

from agenttui.core.models import Message
from agenttui.ui.app import make_app
from tests.ui.helpers import history_list_focused, wait_until

SIZE = (120, 40)


def _mode(pane) -> str:
    return str(pane.query_one("#history-mode").render()).strip()


async def test_the_search_line_stays_when_the_list_reloads_behind_it(services):
    history = services.history
    deploy = history.create_conversation("Deploy notes")
    history.append(deploy.id, Message(role="user", content="how do we deploy the kumquat service?"))
    for title in ("Lunch", "Trip"):
        history.create_conversation(title)

    gate = threading.Event()
    held = threading.Event()
    list_conversations = history.list_conversations

    def slow_list(*args, **kwargs):
        if held.is_set():
            gate.wait(timeout=60)
        return list_conversations(*args, **kwargs)

    history.list_conversations = slow_list  # type: ignore[method-assign]
    app = make_app(services, check_api_key=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            pane = await history_list_focused(pilot, app, 3)
            await pilot.press("slash")
            search = pane.query_one("#history-search", Input)
            await wait_until(pilot, lambda: search.has_focus)
            await pilot.press(*"kumquat", "enter")
            results = pane.search_results
            await wait_until(pilot, lambda: results.has_focus and results.option_count == 1)
            await wait_until(pilot, lambda: _mode(pane) == "1 conversation, 1 hit", explain=lambda: _mode(pane))
            shown = []  # each time search results are shown
            show_hits = results.show_hits

            def counted(*args, **kwargs):
                shown.append(1)
                return show_hits(*args, **kwargs)

            results.show_hits = counted  # type: ignore[method-assign]

            held.set()  # the list's next page waits for the gate
            await pilot.press("a")
            await wait_until(pilot, lambda: history.get_conversation(deploy.id).archived)
            await wait_until(pilot, lambda: shown and results.option_count == 1)  # the search, read again
            await wait_until(pilot, lambda: _mode(pane) == "1 conversation, 1 hit", explain=lambda: _mode(pane))
            gate.set()  # now the list's page and its count arrive, after the search
            await wait_until(
                pilot, lambda: pane.conversation_list.total == 2, explain=lambda: pane.conversation_list.total
            )
            await pilot.pause()
            assert _mode(pane) == "1 conversation, 1 hit"
            assert "clear search" in str(pane.border_subtitle).lower()

            await pilot.press("escape")  # the search cleared: the list's count again
            await wait_until(pilot, lambda: _mode(pane) == "2 conversations", explain=lambda: _mode(pane))
    finally:
        gate.set()
