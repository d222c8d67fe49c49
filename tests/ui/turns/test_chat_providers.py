"""The chat pane with real provider streams: thinking shown live, unfinished replies say why."""

from __future__ import annotations

import threading

import pytest
from textual.widgets import Static

from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import AssistantMessage, Notice
from agenttui.ui.widgets.thinking_block import ThinkingBlock
from tests.ui.helpers import chat, replies, send, wait_until
from tests.unit.providers import formats

SIZE = (120, 36)


@pytest.mark.slow
async def test_thinking_streams_into_a_collapsed_block_above_the_reply(chat_services, fake_openai):
    thinking = [f" step{i}" for i in range(30)]
    frames = formats.groq_reasoning_reply(thinking, ["The", " answer."])
    fake_openai.raw(frames)
    thought_a_while = threading.Event()  # the server holds the rest until the test saw "thinking…"
    fake_openai._script[-1].gate, fake_openai._script[-1].gate_at = thought_a_while, len(frames) // 3
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "think hard")
        await wait_until(pilot, lambda: app.screen.query(ThinkingBlock))
        block = app.screen.query_one(ThinkingBlock)
        assert block.collapsed  # out of the way by default
        await wait_until(pilot, lambda: "thinking…" in block.title and "word" in block.title)
        thought_a_while.set()
        await wait_until(pilot, lambda: not chat(app).streaming and replies(app))
        assert replies(app) == ["The answer."]
        assert block.done and block.title == "thought (30 words)" and block.text == "".join(thinking)
        children = list(chat(app).chat_log.children)
        assert children.index(block) < children.index(app.screen.query_one(AssistantMessage))
        block.collapsed = False  # expandable: the whole thinking is there
        await pilot.pause()
        assert "step29" in str(block.body.render())


@pytest.mark.slow
async def test_a_cut_reply_says_why_on_the_message_and_again_after_reopening(chat_services, fake_openai):
    fake_openai.raw(formats.azure_content_filtered(["Here", " is"], category="violence"))
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "tell me")
        await wait_until(pilot, lambda: not chat(app).streaming and chat(app).can_retry)
        view = app.screen.query_one(AssistantMessage)
        status = str(view.query_one(".status", Static).render())
        assert view.has_class("-incomplete") and "content filter" in status and "violence" in status
        errors = [n for n in app.screen.query(Notice) if n.has_class("-error")]
        assert "content filter" in str(errors[-1].render())
        cid = chat(app).conversation_id
    app = make_app(chat_services)  # the reason is stored with the message
    async with app.run_test(size=SIZE) as pilot:
        await chat(app).open_conversation(cid)
        await wait_until(pilot, lambda: app.screen.query(AssistantMessage))
        status = str(app.screen.query_one(AssistantMessage).query_one(".status", Static).render())
        assert "violence" in status
