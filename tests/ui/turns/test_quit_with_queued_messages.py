"""Quitting while messages typed during a reply are queued asks first.

Those messages are in no store yet (they reach history when sent, after the reply):
ctrl+q dropped them without a word. Now a dialog asks; Esc keeps the app open with
the queue as it was, and ctrl+q pressed again quits.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.screens.quit_confirm import QuitConfirm
from tests.ui.helpers import chat, type_at_once, wait_until, while_streaming

SIZE = (120, 36)
QUEUED = "and then book the train for Friday"


def _app_with_a_long_reply(chat_services, fake_openai):
    chat_services.settings.recall.semantic = False
    fake_openai.reply(" ".join(f"word{i}" for i in range(400)), words_per_second=40)
    return make_app(chat_services)


@pytest.mark.slow
async def test_ctrl_q_with_a_queued_message_asks_and_esc_keeps_it(chat_services, fake_openai):
    app = _app_with_a_long_reply(chat_services, fake_openai)
    async with app.run_test(size=SIZE) as pilot:
        await while_streaming(pilot, app)
        type_at_once(app, QUEUED + "\r")
        await wait_until(pilot, lambda: chat(app).turns.queued == [QUEUED])

        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: isinstance(app.screen, QuitConfirm))
        assert app.is_running and QUEUED[:20] in app.screen.statement
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.main)
        assert app.is_running and chat(app).turns.queued == [QUEUED]

        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: isinstance(app.screen, QuitConfirm))
        await pilot.press("ctrl+q")  # again: quit anyway
        await wait_until(pilot, lambda: not app.is_running)


@pytest.mark.slow
async def test_ctrl_q_with_nothing_queued_quits_at_once(chat_services, fake_openai):
    app = _app_with_a_long_reply(chat_services, fake_openai)
    async with app.run_test(size=SIZE) as pilot:
        await while_streaming(pilot, app)
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: not app.is_running)
