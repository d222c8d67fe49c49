"""An old conversation opens whole. It rendered in stages (the user messages at
once, the replies when their Markdown had been parsed in a thread, about 3 s later under load) and
once stayed blank until scrolled. The test watches every turn of the event loop while the page
opens: the log is never painted with a reply still unrendered, and once shown, the latest reply is
on screen without scrolling."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Markdown

from agenttui.core.models import Message
from agenttui.ui.app import make_app
from agenttui.ui.widgets.chat_log import ChatLog
from agenttui.ui.widgets.message_view import AssistantMessage, UserMessage
from tests.ui.data_harness import settle
from tests.ui.helpers import chat, wait_until


def _seed(services, turns: int = 9) -> str:
    conversation = services.history.create_conversation("Old one")
    for i in range(turns):
        services.history.append(conversation.id, Message(role="user", content=f"question {i}?"))
        services.history.append(conversation.id, Message(
            role="assistant", content=f"## Answer {i}\n\n- one\n- two\n\n```sh\nls -la\n```\n\nlast words {i}"))
    return conversation.id


def _unrendered(log: ChatLog) -> list[AssistantMessage]:
    def rendered(reply: AssistantMessage) -> bool:
        markdowns = reply.query(Markdown)
        return bool(markdowns) and bool(markdowns.first().children)

    return [reply for reply in log.query(AssistantMessage) if not rendered(reply)]


def _painted(widget) -> bool:
    """On screen: neither it nor the log is hidden (the log shows a page by showing its rows)."""
    return widget.display and widget.visible and widget.parent.visible


@pytest.mark.slow
async def test_an_old_conversation_shows_whole_and_at_its_end(services):
    cid = _seed(services)
    other = services.history.create_conversation("Newer, empty")  # the app opens the latest: this one
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        await settle(pilot, app)
        assert chat(app).conversation_id in (None, other.id)
        log = app.screen.query_one(ChatLog)
        opening = asyncio.ensure_future(chat(app).open_conversation(cid))
        staged = 0
        for _ in range(200_000):  # every turn of the loop until the page is in and shown
            await asyncio.sleep(0)
            users = [user for user in log.query(UserMessage) if _painted(user)]
            if users and _unrendered(log):
                staged += 1  # painted: questions without their replies
            if opening.done() and len(users) == 9 and not _unrendered(log):
                break
        await opening
        assert staged == 0
        await wait_until(pilot, lambda: all(_painted(u) for u in log.query(UserMessage)) and not _unrendered(log))
        await pilot.pause()
        region = log.region
        shown = "\n".join(strip.text[region.x:region.right]
                          for strip in app.screen._compositor.render_strips()[region.y:region.bottom])
        assert "last words 8" in shown, shown  # at the end, not blank until scrolled


@pytest.mark.slow
async def test_opening_another_conversation_meanwhile_shows_that_one(services):
    first = _seed(services)
    second = services.history.create_conversation("Second")
    services.history.append(second.id, Message(role="user", content="only in the second"))
    services.history.append(second.id, Message(role="assistant", content="second reply"))
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        await settle(pilot, app)
        log = app.screen.query_one(ChatLog)
        await chat(app).open_conversation(first)
        await asyncio.sleep(0)  # its page is being read or rendered: leave it for the second
        await chat(app).open_conversation(second.id)
        await wait_until(pilot, lambda: [u.text for u in log.query(UserMessage) if _painted(u)]
                         == ["only in the second"] and not _unrendered(log))
        await settle(pilot, app)
        assert [u.text for u in log.query(UserMessage) if _painted(u)] == ["only in the second"]
        assert [u.text for u in log.query(UserMessage)] == ["only in the second"]


@pytest.mark.slow
async def test_an_older_page_paged_in_by_scrolling_up_shows_whole(services):
    """The page above, loaded by scrolling to the top, appeared in stages too: its questions at
    once, its replies once their Markdown was parsed. Every loop turn is watched again."""
    from agenttui.ui.widgets.chat_log import PAGE

    cid = _seed(services, turns=PAGE)  # two pages of questions and answers
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(100, 30)) as pilot:
        log = app.screen.query_one(ChatLog)
        await wait_until(pilot, lambda: chat(app).conversation_id == cid
                         and len([u for u in log.query(UserMessage) if _painted(u)]) == PAGE // 2
                         and not _unrendered(log))
        await wait_until(pilot, lambda: log.max_scroll_y > 0 and log.is_vertical_scroll_end)
        log.scroll_home(animate=False)
        staged = 0
        for _ in range(400_000):
            await asyncio.sleep(0)
            older = [reply for reply in log.query(AssistantMessage) if reply.display]
            if len(older) > PAGE // 2 and _unrendered(log) and any(r in _unrendered(log) for r in older):
                staged += 1  # shown: an older question above a reply still without its text
            if len(log.query(UserMessage)) == PAGE and not _unrendered(log) and len(older) == PAGE:
                break
        assert staged == 0
        assert [u.text for u in log.query(UserMessage)][:2] == ["question 0?", "question 1?"]
        await wait_until(pilot, lambda: log.scroll_y > 0)  # still on what was being read
