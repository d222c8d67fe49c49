"""Retries show one toast (the latest attempt's), not one per attempt."""

from __future__ import annotations

import pytest
from textual.widgets._toast import Toast

from agenttui.ui.app import make_app
from tests.ui.helpers import replies, send, wait_until

TITLE = "Model call failed"


@pytest.mark.slow
async def test_three_retries_leave_one_toast(chat_services, fake_openai):
    for _ in range(3):  # Retry-After keeps the waits short; the policy honours it
        fake_openai.status(429, retry_after=0.3)
    fake_openai.reply("finally")
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await send(pilot, "hello")
        await wait_until(pilot, lambda: len([n for n in app.notices if n[1] == TITLE]) == 3, timeout=30)
        # every attempt was told ...

        def shown():
            return [t for t in app.screen.query(Toast) if t._notification.title == TITLE]

        # toasts live 5 s: look as soon as the last one is up, before earlier ones expire
        await wait_until(pilot, lambda: any("attempt 3" in t._notification.message for t in shown()))
        assert len(shown()) == 1  # ... in one place (3 before the fix)
        await wait_until(pilot, lambda: "finally" in replies(app), timeout=30)
