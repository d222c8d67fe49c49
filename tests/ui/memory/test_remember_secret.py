"""In the app: /remember with a note that is mostly a secret is refused with
the reason, nothing is stored; with something useful left, that is kept and the removal said."""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from tests.ui.helpers import chat, send, wait_until

# OpenAI project key shape, "sk-proj-" + base64url characters (OpenAI API reference, Authentication)
KEY = "sk-proj-" + "Ab3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9"


@pytest.mark.slow
async def test_remember_refuses_a_note_that_is_mostly_a_secret(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        await send(pilot, f"/remember my openai key is {KEY}")
        await wait_until(pilot, lambda: any(t == "Not remembered" for _, t, _ in app.notices))
        reason = next(m for _, t, m in app.notices if t == "Not remembered")
        assert "mostly a secret" in reason and KEY not in reason
        assert services.memory.items() == []

        await send(pilot, f"/remember I deploy on Fridays. My openai key is {KEY}.")
        await wait_until(pilot, lambda: services.memory.items() != [])
        assert [i.text for i in services.memory.items()] == ["I deploy on Fridays."]
        assert any("Removed" in m and KEY not in m for _, _, m in app.notices)
