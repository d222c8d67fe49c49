"""The History pane's search box finds by meaning too when messages have vectors (its worker
fuses the full-text hits with the semantic ranking; the UI never waits on the endpoint)."""

from __future__ import annotations

from textual.widgets import Input

from agenttui.core.models import Message
from agenttui.core.recall.semantic import backfill
from agenttui.ui.widgets.conversation_list import SearchResults
from agenttui.ui.widgets.history_pane import HistoryPane
from tests.ui.data_harness import Harness, services_for
from tests.ui.helpers import wait_until

REX = "I adopted a small dog named Rex"


async def test_typing_a_word_the_history_never_used_lists_the_conversation_near_in_meaning(
        tmp_path, fake_openai):
    services = services_for(tmp_path)
    pets = services.history.create_conversation("pets").id
    services.history.append_many(pets, [Message("user", REX), Message("assistant", "Rex is a lovely name")])
    chores = services.history.create_conversation("chores").id
    services.history.append(chores, Message("user", "the invoice for march is overdue"))
    assert backfill(services).complete
    fake_openai.embed_as("puppy", like=REX)
    fake_openai.embedding_delay = 0.3  # a remote endpoint: typing goes on meanwhile
    app = Harness(services, HistoryPane)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            pane = app.query_one(HistoryPane)
            await wait_until(pilot, lambda: pane.conversation_list.total == 2)
            pane.query_one("#history-search", Input).focus()
            await pilot.press(*"puppy")
            results = pane.query_one(SearchResults)
            await wait_until(pilot, lambda: results.display and results.option_count >= 1, timeout=120)
            best = results.hit_for(results.get_option_at_index(0).id)
            assert best.conversation_id == pets and best.snippet == REX
            assert pane.query_one("#history-search", Input).value == "puppy"
    finally:
        services.close()
