"""Home in a long conversation, pressed with the focus on a reply's "used: …" line.

That line can take the focus (tab reaches it, a click focuses it). Home then replaces
the mounted window with the conversation's first page; that line goes with the window.
These tests fail if the focus leaves the log then (the next home/end/escape would go
elsewhere, and the view followed the focus), or if Home mounts more than the view needs
before the first question shows (a page of four long replies took seconds to mount
beside the window it replaced, in the soak bench).
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import UserMessage
from agenttui.ui.widgets.used_line import UsedLine
from tests.fakes.markdown_reply import markdown_reply
from tests.ui.chat_log.test_long_replies import _turn
from tests.ui.helpers import chat, wait_until

SIZE = (120, 40)
TURNS = 6


def _state(app, log) -> object:
    """What the log holds and shows, for a failure's message."""
    return (log.scroll_y, log.max_scroll_y, log.has_older, log.has_newer, type(app.focused).__name__, log.region,
            [m.region for m in log.children[:2]], type(app.screen).__name__,
            [(type(row).__name__, getattr(row, "text", "")[:12], row.display) for row in log.children])


def _first_question_in_view(app, log) -> bool:
    for message in app.screen.query(UserMessage):
        if message.text == "question 0" and message.display:
            region = message.region
            return region.height > 0 and region.y < log.region.bottom and region.bottom > log.region.y
    return False


@pytest.mark.slow
async def test_home_from_the_used_line_shows_the_start_and_keeps_the_focus_in_the_log(
        chat_services, fake_openai, monkeypatch):
    from agenttui.ui.widgets import chat_log

    monkeypatch.setattr(chat_log, "KEEP_MOUNTED", 6)  # older turns leave the DOM after three
    chat_services.memory.add_note("I keep budgets in a spreadsheet")  # every reply says it used it
    fake_openai.default.text = markdown_reply(500)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        for turn in range(TURNS):
            await _turn(pilot, f"question {turn}")
        log = chat(app).chat_log
        await wait_until(pilot, lambda: log.has_older and log.last_reply().used_line is not None)
        log.last_reply().used_line.focus()  # as tab, or a click on it, does
        await wait_until(pilot, lambda: isinstance(app.focused, UsedLine))

        await pilot.press("home")
        await wait_until(pilot, lambda: _first_question_in_view(app, log), timeout=120,
                         explain=lambda: _state(app, log))
        # the first page is what fills the view: the first exchange (and the next question)
        assert len(log.cursor.message_widgets()) <= 3
        await wait_until(pilot, lambda: app.focused is log, timeout=60)
        # the page's first message is the one selected: a message of the window that went
        # (or none) left the log to select its last and scroll the view down to it
        await wait_until(pilot, lambda: log.cursor.selected is not None and log.cursor.selected.text == "question 0")
        await wait_until(pilot, lambda: log.scroll_y == 0 and not log.has_older, explain=lambda: _state(app, log))
        assert _first_question_in_view(app, log)

        # the keys still act on the log: end shows the latest turn, escape goes to the prompt
        await pilot.press("end")
        await wait_until(pilot, lambda: not log.has_newer and any(
            m.text == f"question {TURNS - 1}" for m in app.screen.query(UserMessage)), timeout=120)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.focused is chat(app).prompt)


async def _short_turns(pilot, turns: int):
    """``turns`` exchanges; the log once the first of them has left the DOM."""
    for turn in range(turns):
        await _turn(pilot, f"question {turn}")
    log = chat(pilot.app).chat_log
    await wait_until(pilot, lambda: log.has_older)
    return log


@pytest.mark.slow
async def test_a_short_first_page_is_followed_by_the_next_one(chat_services, fake_openai, monkeypatch):
    """Home's page stops at a few thousand characters; when that does not fill the view (short
    replies), the page after it comes in at once, so the view is never left part empty."""
    from agenttui.ui.widgets import chat_log

    monkeypatch.setattr(chat_log, "KEEP_MOUNTED", 6)
    monkeypatch.setattr(chat_log, "START_CHARS", 10)  # the first exchange only
    fake_openai.default.text = "A short reply."
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        log = await _short_turns(pilot, 10)
        log.focus()
        await pilot.press("home")
        await wait_until(pilot, lambda: _first_question_in_view(app, log), timeout=60)
        # more than the first exchange comes in, down to the view's height or the end
        await wait_until(pilot, lambda: len(log.cursor.message_widgets()) > 2
                         and (log.max_scroll_y > 0 or not log.has_newer),
                         timeout=60)
        await wait_until(pilot, lambda: _first_question_in_view(app, log))  # still at the start


@pytest.mark.slow
async def test_home_in_the_focused_log_selects_the_first_message(chat_services, fake_openai, monkeypatch):
    """With a message selected, Home selects the conversation's first, as in any list: the
    selected message went with the window, and ↑ then jumped from nothing to the last message
    mounted, a screen down."""
    from agenttui.ui.widgets import chat_log

    monkeypatch.setattr(chat_log, "KEEP_MOUNTED", 6)
    fake_openai.default.text = "A short reply."
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        log = await _short_turns(pilot, 10)
        await pilot.press("shift+tab")  # the log, its newest message selected
        await wait_until(pilot, lambda: log.has_focus and log.cursor.selected is not None)
        await pilot.press("home")
        await wait_until(pilot, lambda: not log.has_older and _first_question_in_view(app, log), timeout=60,
                         explain=lambda: _state(app, log))
        await wait_until(pilot, lambda: log.cursor.selected is not None and log.cursor.selected.text == "question 0",
                         explain=lambda: _state(app, log))
        assert log.cursor.selected.has_class("-selected")  # marked, not only remembered
        await pilot.press("up")  # nothing above the first: it stays, and so does the view
        await pilot.press("down")
        cursor = log.cursor
        await wait_until(pilot, lambda: cursor.selected is not None and cursor.selected.text == "A short reply.",
                         explain=lambda: (cursor.selected and cursor.selected.text, cursor.selected_id, app.focused))
        assert _first_question_in_view(app, log)
