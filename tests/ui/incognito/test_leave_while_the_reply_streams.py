"""Incognito left (alt+i, Cancel) while its reply streams: nothing of it is said to be saved later.

Leaving cancels the reply and drops the incognito conversation at once; the cancelled turn then
stored its partial reply, and the dropped conversation sent the write to the saved history, which
refused it: "History not saved yet ... 1 message(s) are kept in memory and will be saved on the
next try" -- about an incognito reply, just after "Incognito is off; nothing of it was kept".
The dropped conversation now answers as a deleted one: the write is dropped, nothing said.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.screens.confirm import ConfirmScreen
from tests.ui.helpers import chat, notifications, replies, type_at_once, wait_until, workers_done

SIZE = (120, 36)


def _saved_texts(services) -> list[str]:
    history = services.history
    return [m.content or "" for c in history.list_conversations(limit=100) for m in history.messages(c.id)]


@pytest.mark.slow
async def test_leaving_incognito_while_its_reply_streams_says_nothing_is_kept_and_keeps_nothing(
    chat_services, fake_openai
):
    chat_services.settings.recall.semantic = False
    fake_openai.reply(" ".join(f"word{i}" for i in range(300)), words_per_second=60)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await wait_until(pilot, lambda: pane.prompt is not None and pane.prompt.has_focus)
        type_at_once(app, "/incognito\rmy plan for the surprise party\r")
        await wait_until(pilot, lambda: pane.incognito and replies(app) and "word3" in replies(app)[-1])
        type_at_once(app, "\x1bi")  # alt+i: leave; it asks whether to save
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("escape")  # Cancel: nothing kept
        await wait_until(pilot, lambda: not pane.incognito and not pane.streaming)
        await workers_done(pilot)
        said = notifications(app)
        unsaved = pane.border_subtitle
    assert not [n for n in said if n[1] == "History not saved yet"], said
    assert not unsaved
    assert not any("surprise party" in text or "word3" in text for text in _saved_texts(chat_services))
