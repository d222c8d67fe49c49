"""A conversation the way a real model holds one: replies of hundreds of words.

Our tests used to send a few short replies. With Markdown replies of about 600
words (headings, lists, tables, code) streamed flat out, the Chat pane left the
screen after the 2nd-6th reply and the next query for it crashed the app: the
batching timer's append and the turn's end raced over ``MarkdownStream``
(see :mod:`agenttui.ui.widgets.message_view`). These tests fail on that code.
"""

from __future__ import annotations

import threading

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.widgets.chat_pane import ChatPane
from agenttui.ui.widgets.message_view import AssistantMessage
from tests.fakes.markdown_reply import markdown_reply
from tests.ui.helpers import chat, send, wait_until

SIZE = (120, 40)


def _pane_present(app) -> bool:
    return bool(app.screen.query(ChatPane))


async def _turn(pilot, text: str, timeout: float = 120) -> AssistantMessage | None:
    """Send ``text``; wait for its reply to end (or the pane to go). Replies are not counted:
    older ones leave the DOM as the conversation grows (ChatLog.trim_above)."""
    app = pilot.app
    shown = {id(view) for view in app.screen.query(AssistantMessage)}
    await send(pilot, text)

    def new_reply() -> AssistantMessage | None:
        views = [v for v in app.screen.query(AssistantMessage) if id(v) not in shown]
        return views[-1] if views else None

    await wait_until(pilot, lambda: not _pane_present(app) or (new_reply() is not None and not chat(app).streaming),
                     timeout)
    return new_reply()


@pytest.mark.slow
async def test_long_replies_keep_the_chat_pane_and_show_every_reply(chat_services, fake_openai):
    fake_openai.default.text = markdown_reply(600)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        for turn in range(6):
            last = await _turn(pilot, f"question {turn} about the project")
            assert _pane_present(app), f"the Chat pane left the screen at turn {turn + 1}"
            assert last is not None and last.markdown.source == markdown_reply(600)  # all of it reached it
        cid = chat(app).conversation_id
        assert app.return_code is None  # still running
    stored = [m.content for m in chat_services.history.messages(cid) if m.role == "assistant"]
    assert stored == [markdown_reply(600)] * 6


@pytest.mark.slow
async def test_a_long_conversation_keeps_only_its_latest_messages_mounted(chat_services, fake_openai,
                                                                         monkeypatch):
    """Older messages leave the DOM while the user follows the end, and scrolling up brings
    them back from history, in order, while the later ones leave: the mounted tree does not
    grow with the conversation, whichever way it is scrolled."""
    from agenttui.ui.widgets import chat_log
    from agenttui.ui.widgets.message_view import UserMessage

    monkeypatch.setattr(chat_log, "KEEP_MOUNTED", 6)
    monkeypatch.setattr(chat_log, "PAGE", 4)
    fake_openai.default.text = markdown_reply(120)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        for turn in range(8):
            await _turn(pilot, f"question {turn}")
        log = chat(app).chat_log
        assert len(log.cursor.message_widgets()) <= 6 + 2  # trimmed as the last turn began, plus that turn
        assert [m.text for m in app.screen.query(UserMessage)][-1] == "question 7"
        assert log.has_older
        seen = {m.text for m in app.screen.query(UserMessage)}
        for _ in range(10):  # scrolling to the top pages the older turns back in, a page at a time
            if not log.has_older:
                break
            oldest = log.oldest_id
            log.scroll_home(animate=False, immediate=True)
            await wait_until(pilot, lambda oldest=oldest: log.oldest_id != oldest or not log.has_older)
            await pilot.pause()
            # ... and what is far below leaves (it pages back in by scrolling down): bounded both ways
            assert len(log.cursor.message_widgets()) <= 6
            questions = [m.text for m in app.screen.query(UserMessage)]
            assert questions == sorted(questions, key=lambda q: int(q.split()[1]))  # in order
            seen |= set(questions)
            log.scroll_to(y=1, animate=False, immediate=True)  # off the top, so the next scroll_home pages
            await pilot.pause()
        assert seen == {f"question {n}" for n in range(8)}
        assert [m.text for m in app.screen.query(UserMessage)][0] == "question 0"


@pytest.mark.slow
async def test_a_new_conversation_before_every_long_reply_keeps_the_chat_pane(chat_services, fake_openai):
    """ctrl+n before each turn (and once while a reply streams): the other way users lost the pane."""
    fake_openai.default.text = markdown_reply(300)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        for turn in range(5):
            await pilot.press("ctrl+n")
            last = await _turn(pilot, f"fresh question {turn}")
            assert _pane_present(app), f"the Chat pane left the screen at turn {turn + 1}"
            assert last is not None and last.markdown.source == markdown_reply(300)
        # the rest of the reply waits until ctrl+n is pressed, however slow the machine
        midway = threading.Event()
        fake_openai.reply(markdown_reply(300), words_per_second=400, gate=midway, gate_at=40)
        await send(pilot, "one more, left while it streams")
        await wait_until(pilot, lambda: chat(app).streaming)
        await pilot.press("ctrl+n")
        midway.set()
        await wait_until(pilot, lambda: not _pane_present(app) or not chat(app).streaming)
        assert _pane_present(app) and app.is_running
    assert len(chat_services.history.list_conversations(limit=20)) == 5  # the last question joined the 5th


def test_a_page_of_long_messages_stops_at_its_size_and_keeps_a_question_with_its_reply():
    from agenttui.core.models import Message
    from agenttui.ui.widgets.chat_log import by_size

    page = [Message(role="user" if n % 2 == 0 else "assistant", content="x" * 3_000, id=n + 1) for n in range(10)]
    kept, cut = by_size(page, 7_000)
    assert [m.id for m in kept] == [9, 10] and cut  # 6,000 chars fit, a third message would not
    kept, cut = by_size(page, 1_000)
    assert [m.id for m in kept] == [9, 10] and cut  # at least the last two, whatever their size
    kept, cut = by_size(page, 100_000)
    assert kept == page and not cut
