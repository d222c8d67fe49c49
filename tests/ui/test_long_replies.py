"""A conversation the way a real model holds one: replies of hundreds of words.

Our tests used to send a few short replies. With Markdown replies of about 600
words (headings, lists, tables, code) streamed flat out, the Chat pane left the
screen after the 2nd-6th reply and the next query for it crashed the app: the
batching timer's append and the turn's end raced over ``MarkdownStream``
(see :mod:`agenttui.ui.widgets.message_view`). These tests fail on that code.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.widgets.chat_pane import ChatPane
from agenttui.ui.widgets.message_view import AssistantMessage
from tests.fakes.markdown_reply import markdown_reply
from tests.ui.helpers import chat, replies, send, wait_until

SIZE = (120, 40)


def _pane_present(app) -> bool:
    return bool(app.screen.query(ChatPane))


@pytest.mark.slow
async def test_long_replies_keep_the_chat_pane_and_show_every_reply(chat_services, fake_openai):
    fake_openai.default.text = markdown_reply(600)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        for turn in range(6):
            before = len(replies(app))
            await send(pilot, f"question {turn} about the project")
            await wait_until(pilot, lambda: not _pane_present(app)
                             or (not chat(app).streaming and len(replies(app)) == before + 1), 120)
            assert _pane_present(app), f"the Chat pane left the screen at turn {turn + 1}"
            last = app.screen.query(AssistantMessage).last()
            assert last.markdown.source == markdown_reply(600)  # all of it reached the widget
        cid = chat(app).conversation_id
        assert app.return_code is None  # still running
    stored = [m.content for m in chat_services.history.messages(cid) if m.role == "assistant"]
    assert stored == [markdown_reply(600)] * 6
