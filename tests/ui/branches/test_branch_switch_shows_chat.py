"""Switching to another version of an edited question (shift+tab, ↑, ←) must keep the chat on
screen: every chat row went blank while the other branch's page was read and rendered (seconds
on a busy machine, and in a user's trial it stayed blank), though the switch itself happened.
The terminal's frames are watched (tests/ui/terminal_frames.py): no frame after the key shows
the log with every row empty."""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import UserMessage
from tests.ui.helpers import chat, replies, send, wait_until, workers_done
from tests.ui.terminal_frames import TerminalFrames

SIZE = (120, 40)
LONG = "\n\n".join(f"## Part {i}\n\n" + "Words of the reply go here. " * 12 + "\n\n- one\n- two\n\n```py\nx = 1\n```"
                   for i in range(3))


@pytest.mark.slow
async def test_switching_back_to_the_old_version_of_an_edited_question_never_blanks_the_chat(
        chat_services, fake_openai):
    fake_openai.reply("first " + LONG)
    fake_openai.reply("second " + LONG)
    fake_openai.reply("edited " + LONG)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        terminal = TerminalFrames(app, SIZE)
        await send(pilot, "first question")
        await wait_until(pilot, lambda: not chat(app).streaming and len(replies(app)) == 1)
        await send(pilot, "second question")
        await wait_until(pilot, lambda: not chat(app).streaming and len(replies(app)) == 2)
        await workers_done(pilot)
        await pilot.press("shift+tab", "up", "e")
        chat(app).prompt.load_text("second question, edited")
        await pilot.press("enter")
        await wait_until(pilot, lambda: not chat(app).streaming
                         and any(r.startswith("edited") for r in replies(app)))
        await workers_done(pilot)
        log = chat(app).chat_log
        chat(app).prompt.focus()
        await pilot.press("shift+tab", "up")
        assert isinstance(log.cursor.selected, UserMessage) and log.cursor.selected.text == "second question, edited"

        blank_frames: list[str] = []
        terminal.watchers.append(lambda: blank_frames.append("blank") if not any(
            row.strip() for row in terminal.rows(log)) else None)
        await pilot.press("left")
        await wait_until(pilot, lambda: [w.text for w in log.query(UserMessage) if w.display]
                         == ["first question", "second question"])
        await workers_done(pilot)
        await wait_until(pilot, lambda: "second question" in terminal.text(log)
                         and "‹ 1/2 ›" in terminal.text(log))
        assert blank_frames == []
        assert app.focused is log and log.cursor.selected.text == "second question"
        assert [m.content for m in chat_services.history.messages(chat(app).conversation_id)][2] \
            == "second question"
