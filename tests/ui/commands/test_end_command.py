"""/end: the agent updates context.md, then the session is archived into project memory --
only when that turn ran to its end (Esc or leaving the conversation stops /end whole)."""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from tests.ui.helpers import chat, foreground_complete, replies, send, send_and_wait, wait_until

SIZE = (120, 36)


def sessions(services) -> str:
    folder = services.project.files()["sessions"]
    return "".join(p.read_text() for p in sorted(folder.glob("*.md"))) if folder.exists() else ""


@pytest.mark.slow
async def test_end_archives_the_session_once_the_agent_has_answered(chat_services, fake_openai):
    fake_openai.reply("Deploys go out on Fridays.")
    fake_openai.reply("Context updated.\nWe talked about deploys.")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        assert await send_and_wait(pilot, "when do deploys go out?") == ["Deploys go out on Fridays."]
        await send(pilot, "/end")
        await wait_until(pilot, lambda: "when do deploys go out?" in sessions(chat_services))
        await wait_until(pilot, lambda: any(n[1] == "Session archived" for n in app.notices))
    assert "We talked about deploys." in sessions(chat_services)


@pytest.mark.slow
async def test_end_stopped_with_escape_archives_nothing(chat_services, fake_openai):
    fake_openai.reply("Deploys go out on Fridays.")
    fake_openai.reply(" ".join(f"word{i}" for i in range(400)), words_per_second=40)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        assert await send_and_wait(pilot, "when do deploys go out?") == ["Deploys go out on Fridays."]
        await send(pilot, "/end")
        await wait_until(pilot, lambda: len(replies(app)) == 2 and "word3" in replies(app)[1])
        await pilot.press("escape")
        await wait_until(pilot, lambda: not chat(app).streaming)
        await pilot.pause()
        await foreground_complete(app)
    assert sessions(chat_services) == ""
    assert not any(n[1] == "Session archived" for n in app.notices)
