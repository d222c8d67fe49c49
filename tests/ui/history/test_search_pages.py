"""History search with more hits than one page says the list is cut and loads the rest
when the cursor reaches the end, none dropped in between."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from textual.widgets import Input

from agenttui.core.models import Message
from agenttui.ui.widgets.conversation_list import SearchResults
from agenttui.ui.widgets.history_pane import SEARCH_LIMIT, HistoryPane
from tests.ui.data_harness import Harness, services_for
from tests.ui.helpers import wait_until

MANY = SEARCH_LIMIT * 2 + 50  # the same words in each: recall keeps one, as a user saw


def _fill(history) -> set[str]:
    start = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)
    ids = set()
    for n in range(MANY):
        talk = history.create_conversation(title=f"orchard visit {n}")
        history.append(talk.id, Message(role="user", content="the kumquat harvest was fine",
                                        created=start + timedelta(hours=n)))
        ids.add(talk.id)
    return ids


def _header(pane: HistoryPane) -> str:
    return str(pane.query_one("#history-mode").render())


async def test_a_cut_search_says_so_and_pages_to_the_last_hit(tmp_path):
    services = services_for(tmp_path)
    ids = _fill(services.history)
    app = Harness(services, HistoryPane)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(HistoryPane)
        await wait_until(pilot, lambda: pane.conversation_list.total == MANY)
        search = pane.query_one("#history-search", Input)
        search.focus()
        search.value = "kumquat"
        await pilot.press("enter")
        results = pane.query_one(SearchResults)
        await wait_until(pilot, lambda: results.display and results.option_count > 0)
        assert results.option_count < MANY
        assert "more" in _header(pane), _header(pane)  # the cut is said
        first_page = {results.hit_for(results.get_option_at_index(i).id).conversation_id
                      for i in range(results.option_count)}

        results.focus()

        async def at_end() -> None:
            await pilot.press("end")

        for _ in range(40):
            if results.option_count == MANY:
                break
            await at_end()
            await pilot.pause(0.1)
        await wait_until(pilot, lambda: results.option_count == MANY)
        shown = [results.hit_for(results.get_option_at_index(i).id).conversation_id
                 for i in range(results.option_count)]
        assert set(shown) == ids and len(shown) == MANY  # every hit, each once
        assert first_page <= set(shown[: len(first_page)])  # the rows seen stay where they were
        await wait_until(pilot, lambda: "more" not in _header(pane))
        assert _header(pane).strip() == f"{MANY} conversations, {MANY} hits"
