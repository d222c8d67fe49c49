"""A 1 MB paste into the prompt or the History search box leaves the app responsive.

The prompt keeps a long paste aside and shows one line for it (the message
sent holds the paste); the search box keeps the first ``SEARCH_PASTE_MAX``
characters of the paste's first line.

A pasted blob froze the app (a quadratic recall regex, run on the draft
after every pause in typing and on the search box's text). Here the real app
gets a bracketed paste of a megabyte -- "what does this blob mean: <base64>
thanks" -- then the work the paste starts must end (the draft's recall and
embedding, the History search) and a key typed afterwards must land. No time
bounds: the speed is bench/bench_paste_echo.py's; a regression shows here as
a worker that does not finish within ``wait_until``'s generous timeout.
"""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import Input

from agenttui.ui import app as app_module
from agenttui.ui.app import make_app
from agenttui.ui.widgets.history_pane import SEARCH_PASTE_MAX
from tests.linear_time import blob_with_words
from tests.ui.helpers import chat, wait_until, workers_done

MEGABYTE = blob_with_words(1_000_000)
SIZE = (120, 36)
WAIT = 240.0  # s: a megabyte in a soft-wrapped TextArea takes Textual itself seconds on a busy machine


@pytest.fixture(autouse=True)
def no_backfill_worker(monkeypatch):
    monkeypatch.setattr(app_module, "EMBED_AFTER_S", 600.0)  # only the draft's requests count here


def _draft_workers(app) -> list:
    return [w for w in app.workers if w.group == "semantic-draft"]


@pytest.mark.slow
async def test_a_megabyte_pasted_into_the_prompt_is_prepared_and_the_next_key_lands(chat_services):
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        prompt = chat(app).prompt
        prompt.focus()
        app.post_message(events.Paste(MEGABYTE))  # as the driver does: the app forwards it
        await wait_until(pilot, lambda: prompt.pastes, WAIT)
        assert prompt.text == "[pasted text #1: 1,000,000 characters]"  # one short line on screen
        await wait_until(pilot, lambda: chat(app).draft_recall.prepared == MEGABYTE, WAIT)  # the pause ran out
        await wait_until(pilot, lambda: all(w.is_finished for w in _draft_workers(app)), WAIT)
        await pilot.press("z")
        await wait_until(pilot, lambda: prompt.text.endswith("z"), WAIT)
        assert prompt.message_text() == MEGABYTE + "z"  # what Enter sends
        await workers_done(pilot, WAIT)


@pytest.mark.slow
async def test_a_megabyte_pasted_into_the_history_search_box_is_searched_and_the_next_key_lands(chat_services):
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        search = app.screen.query_one("#history-search", Input)
        search.focus()
        app.post_message(events.Paste(MEGABYTE))
        await wait_until(pilot, lambda: search.value == MEGABYTE[:SEARCH_PASTE_MAX], WAIT)
        await workers_done(pilot, WAIT)  # the debounced search ran to its end
        await pilot.press("z")
        await wait_until(pilot, lambda: search.value == MEGABYTE[:SEARCH_PASTE_MAX] + "z", WAIT)
        await workers_done(pilot, WAIT)


async def test_a_short_paste_goes_into_the_prompt_as_text(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        prompt = chat(app).prompt
        prompt.focus()
        app.post_message(events.Paste("a short paste"))
        await wait_until(pilot, lambda: prompt.text == "a short paste")  # once: not twice
        assert not prompt.pastes and prompt.message_text() == "a short paste"
