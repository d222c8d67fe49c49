"""Honest context in the app: the meter, "older turns not sent", /compact.

Real services and SQLite, the real openai client against the fake server
(the summary request too), Textual Pilot.
"""

from __future__ import annotations

import pytest

from agenttui.core.context.compaction import SUMMARY_INTRO
from agenttui.core.models import Message
from agenttui.ui.app import make_app
from agenttui.ui.screens.compact import CompactScreen
from agenttui.ui.widgets.chat_context import NotSentMarker, SummaryView
from tests.ui.helpers import chat, replies, send, wait_until

SIZE = (120, 40)


def seed(services, turns: int) -> tuple[str, list[Message]]:
    cid = services.history.create_conversation("Kraken").id
    stored = []
    for k in range(turns):
        stored.append(services.history.append(cid, Message(role="user", content=f"kraken step {k}?")))
        stored.append(services.history.append(cid, Message(role="assistant", content=f"Do step {k}.")))
    return cid, stored


def marker_position(app) -> tuple[int, object]:
    log = chat(app).chat_log
    children = list(log.children)
    marker = app.screen.query_one(NotSentMarker)
    index = children.index(marker)
    return index, children[index + 1]


@pytest.mark.slow
async def test_meter_marker_and_compact(chat_services, fake_openai):
    chat_services.settings.history.window_messages = 4
    chat_services.memory.add_note("I deploy on Fridays")
    cid, stored = seed(chat_services, 5)
    fake_openai.reply("Step 5 is the last one.")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await wait_until(pilot, lambda: pane.conversation_id == cid and "context " in app.sub_title)
        # opening: the prompt now would hold the last 4 messages: 6 older are not sent
        await wait_until(pilot, lambda: app.screen.query(NotSentMarker))
        _, below = marker_position(app)
        assert "older turns not sent: 6" in str(app.screen.query_one(NotSentMarker).render())
        assert getattr(below, "message_id", None) == stored[6].id
        await send(pilot, "and step 5?")
        await wait_until(pilot, lambda: not pane.streaming and "Step 5 is the last one." in replies(app))
        # the turn's own request: the 4 newest before the question were sent, 6 older were not
        await wait_until(pilot, lambda: pane.meter.figures is not None and pane.meter.figures.tokens
                         > 0 and fake_openai.chat_requests and pane.meter.figures.first_sent_id == stored[6].id)
        assert len(app.screen.query(NotSentMarker)) == 1
        assert "older turns not sent: 6" in str(app.screen.query_one(NotSentMarker).render())
        _, below = marker_position(app)
        assert getattr(below, "message_id", None) == stored[6].id
        sent = [m["content"] for m in fake_openai.chat_requests[-1]["messages"] if m["role"] != "system"]
        assert sent == [m.content for m in stored[6:]] + ["and step 5?"]
        tokens = pane.meter.figures.tokens
        assert f"context {tokens}/" in app.sub_title or "k/" in app.sub_title

        fake_openai.reply("The user walked through kraken steps 0 to 3.")
        await send(pilot, "/compact")
        await wait_until(pilot, lambda: isinstance(app.screen, CompactScreen))
        summary_request = fake_openai.chat_requests[-1]
        assert summary_request["stream"] is False and "tools" not in summary_request
        assert "kraken step 0?" in summary_request["messages"][1]["content"]
        editor = app.screen.query_one("#compact-editor")
        assert editor.text == "The user walked through kraken steps 0 to 3."
        editor.load_text("Steps 0-3 are done; the user deploys on Fridays.")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.screen.query(SummaryView))
        await wait_until(pilot, lambda: not app.screen.query(NotSentMarker))  # all covered now

        fake_openai.reply("Then you are done.")
        await send(pilot, "anything else?")
        await wait_until(pilot, lambda: not pane.streaming and "Then you are done." in replies(app))
    sent = fake_openai.chat_requests[-1]["messages"]
    summaries = [m["content"] for m in sent if m["role"] == "system" and m["content"].startswith(SUMMARY_INTRO)]
    assert summaries and "Steps 0-3 are done; the user deploys on Fridays." in summaries[0]
    assert "I deploy on Fridays" in sent[0]["content"]  # memory is never dropped
    texts = [m["content"] for m in sent if m["role"] != "system"]
    assert "kraken step 0?" not in texts and texts[-1] == "anything else?"
    stored_now = [m.content for m in chat_services.history.messages(cid)]
    assert stored_now[:2] == ["kraken step 0?", "Do step 0."]  # the originals stay
    assert "Steps 0-3 are done; the user deploys on Fridays." in stored_now


@pytest.mark.slow
async def test_compact_cancelled_stores_nothing(chat_services, fake_openai):
    cid, _ = seed(chat_services, 4)
    fake_openai.reply("a summary")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await wait_until(pilot, lambda: pane.conversation_id == cid)
        await send(pilot, "/compact")
        await wait_until(pilot, lambda: isinstance(app.screen, CompactScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, CompactScreen))
    assert chat_services.history.count_messages(cid) == 8


@pytest.mark.slow
async def test_compact_failure_is_a_notice(chat_services, fake_openai):
    chat_services.settings.agent.max_retries = 0
    cid, _ = seed(chat_services, 4)
    fake_openai.status(500)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: chat(app).conversation_id == cid)
        await send(pilot, "/compact")
        await wait_until(pilot, lambda: any(n[1] == "/compact failed" for n in app.notices))
    assert chat_services.history.count_messages(cid) == 8
