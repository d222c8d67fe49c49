"""A reply cut off by leaving its conversation (/new while it streams) says nothing in the one opened.

Leaving cancels the turn; its end came after the new conversation was shown, and the new, empty chat
said "Cancelled. ctrl+r asks again." and offered ctrl+r -- which had nothing there to ask again.
Esc (the user's own stop) still says it and still offers the retry.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import Notice
from tests.ui.helpers import chat, type_at_once, wait_until, while_streaming, workers_done

SIZE = (120, 36)


def _notices(app) -> list[str]:
    return [str(notice.render()) for notice in chat(app).chat_log.query(Notice)]


@pytest.mark.slow
async def test_new_while_a_reply_streams_shows_no_cancel_notice_in_the_new_conversation(chat_services, fake_openai):
    chat_services.settings.recall.semantic = False
    fake_openai.reply(" ".join(f"word{i}" for i in range(300)), words_per_second=60)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await wait_until(pilot, lambda: pane.prompt is not None and pane.prompt.has_focus)
        await while_streaming(pilot, app)
        type_at_once(app, "/new\r")
        await wait_until(pilot, lambda: not pane.streaming and pane.turns.command is None)
        await workers_done(pilot)
        notices, can_retry = _notices(app), pane.can_retry
    assert not [text for text in notices if "asks again" in text], notices
    assert not can_retry
