"""In a terminal too narrow for the Memory pane, a "remember this?" offer is said.

Below 100 columns the Memory pane is hidden, and the offer (a noticed correction, or
the model's proposal waiting for consent) was shown only there: at 80x24 the user saw
nothing and the proposal waited unseen. Now a toast says it and how to answer (f2).
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.widgets.memory_offer import MemoryOffer
from agenttui.ui.widgets.memory_pane import MemoryPane
from tests.ui.helpers import send, wait_until, workers_done


def _said_offer(app) -> bool:
    return any(title == "Remember this?" and "f2" in message for _, title, message in app.notices)


@pytest.mark.slow
async def test_an_offer_is_said_when_the_memory_pane_is_hidden(chat_services, fake_openai):
    app = make_app(chat_services)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        pane = app.main.query_one(MemoryPane)
        assert not pane.display  # narrow: the pane is hidden
        await send(pilot, "don't use emojis in your answers")
        offer = pane.query_one(MemoryOffer)
        await wait_until(pilot, lambda: offer.result is not None, explain=lambda: app.notices)
        await wait_until(pilot, lambda: _said_offer(app), explain=lambda: app.notices)


@pytest.mark.slow
async def test_no_toast_when_the_pane_shows_the_offer(chat_services, fake_openai):
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        pane = app.main.query_one(MemoryPane)
        assert pane.display
        await send(pilot, "don't use emojis in your answers")
        offer = pane.query_one(MemoryOffer)
        await wait_until(pilot, lambda: offer.display and offer.result is not None)
        await workers_done(pilot)
        assert not _said_offer(app)
