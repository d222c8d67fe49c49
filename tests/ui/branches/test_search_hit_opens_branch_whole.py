"""Opening a search hit in a branched conversation shows that branch, whole, on screen: it once
showed a blank chat, and once only the first exchange. The log follows its end (anchored), which
puts a page shorter than the view at its bottom (a negative scroll); that scroll was computed
while the page was not yet laid out in full, and the anchor was then released for the hit, so
the page sat lower than the view: its first exchange at the bottom, or nothing. Read from the
terminal's frames (tests/ui/terminal_frames.py), not from the widget tree."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from agenttui.core.models import Message
from agenttui.ui.app import make_app
from agenttui.ui.widgets.conversation_list import SearchResults
from tests.ui.helpers import chat, replies, wait_until, workers_done
from tests.ui.terminal_frames import TerminalFrames

SIZE = (120, 40)


def _seed(history) -> tuple[str, str]:
    """A conversation of three exchanges whose second answer was regenerated (the old one holds
    'cassowary'), and a newer conversation, the one the app opens."""
    cid = history.create_conversation("birds").id
    history.append(cid, Message("user", "which birds live in australia?"))
    history.append(cid, Message("assistant", "Emus, magpies and many parrots."))
    q2 = history.append(cid, Message("user", "name a flightless one"))
    history.append(cid, Message("assistant", "The cassowary, in the northern rainforests."))
    history.append(cid, Message("assistant", "The emu, found nearly everywhere.", parent_id=q2.id))
    history.append(cid, Message("user", "how fast does it run?"))
    history.append(cid, Message("assistant", "Up to 50 km/h."))
    other = history.create_conversation("tea").id
    history.append(other, Message("user", "green or black?"))
    history.append(other, Message("assistant", "Green, for the morning."))
    return cid, other


async def _open_hit(pilot, app, words: str) -> None:
    await pilot.press("f3")
    search = app.screen.query_one("#history-search", Input)
    search.focus()
    search.value = ""
    await pilot.press(*words)
    results = app.screen.query_one(SearchResults)
    # The match comes first; messages only near in meaning may follow it (semantic search).
    await wait_until(pilot, lambda: results.display and results.option_count >= 1
                     and words in str(results.get_option_at_index(0).prompt))
    results.focus()
    results.highlighted = 0
    await pilot.press("enter")


@pytest.mark.slow
@pytest.mark.parametrize("from_same", [False, True], ids=["from-another-conversation", "from-the-same"])
async def test_a_search_hit_on_an_old_branch_shows_that_branch_whole(chat_services, from_same):
    history = chat_services.history
    cid, other = _seed(history)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        terminal = TerminalFrames(app, SIZE)
        await wait_until(pilot, lambda: replies(app) == ["Green, for the morning."])
        if from_same:
            await chat(app).open_conversation(cid)
            await wait_until(pilot, lambda: "Up to 50 km/h." in replies(app))
        await workers_done(pilot)
        log = chat(app).chat_log
        blank: list[bool] = []
        terminal.watchers.append(lambda: blank.append(not any(row.strip() for row in terminal.rows(log))))
        await _open_hit(pilot, app, "cassowary")
        await wait_until(pilot, lambda: replies(app) == ["Emus, magpies and many parrots.",
                                                         "The cassowary, in the northern rainforests."])
        await workers_done(pilot)
        shown = lambda: terminal.text(log)  # noqa: E731
        await wait_until(pilot, lambda: "cassowary" in shown() and "which birds live" in shown())
        # the navigators are read in a thread after the page shows: wait for them, not a frame
        await wait_until(pilot, lambda: "‹ 1/2 ›" in shown(), timeout=120, explain=lambda: (
            shown(), log.scroll_y, log.max_scroll_y,
            [(type(row).__name__, getattr(row, "message_id", None), row.display) for row in log.children]))
        assert [m.content for m in history.messages(cid)][-1].startswith("The cassowary")
        if from_same:
            assert not any(blank), "the chat went blank between the branches"
        assert not blank[-1]


@pytest.mark.slow
async def test_a_row_added_under_a_short_hit_page_shows_in_the_view(chat_services):
    """A page shorter than the view sits at the view's bottom while the log follows its end (a
    negative scroll, kept up to date only by the anchor); opening a hit releases the anchor. The
    hit's navigators, read in a thread, were sometimes mounted after that, under the page and
    below the view: the rows added under a short hit page must show."""
    _seed(chat_services.history)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        terminal = TerminalFrames(app, SIZE)
        await wait_until(pilot, lambda: replies(app) == ["Green, for the morning."])
        await workers_done(pilot)
        log = chat(app).chat_log
        await _open_hit(pilot, app, "cassowary")
        shown = lambda: terminal.text(log)  # noqa: E731
        await wait_until(pilot, lambda: "cassowary" in shown() and "‹ 1/2 ›" in shown(), timeout=120)
        await workers_done(pilot)
        await log.notice("a line under the page")  # as a navigator mounted late is
        await wait_until(pilot, lambda: "a line under the page" in shown(), timeout=60, explain=lambda: (
            shown(), log.scroll_y, log.max_scroll_y))
        assert "which birds live" in shown()
