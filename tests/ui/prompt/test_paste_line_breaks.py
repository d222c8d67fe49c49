"""A paste's line breaks reach the model and history as newlines, however the terminal sent them.

xterm, VTE terminals and ``tmux paste-buffer`` send a pasted line break as a carriage
return, Windows' clipboard as CR LF. ``TextArea`` makes them newlines, but a long paste
the prompt keeps aside was sent as it came: found in tmux, a 100 KB paste went to history
as one line with ``\\x0d`` where its line breaks were (ui/typed_text.py).
"""

from __future__ import annotations

import pytest
from textual import events

from agenttui.ui.app import make_app
from agenttui.ui.startup import EarlyPrompt
from agenttui.ui.typed_text import paste_newlines
from agenttui.ui.widgets.prompt_input import PASTE_INLINE_MAX
from tests.ui.helpers import chat, focused_prompt, wait_until
from tests.ui.prompt.test_type_ahead import GatedApp, until_filling

SIZE = (120, 36)
LINES = ["def f():", "    return 1", "x" * PASTE_INLINE_MAX, "print(f())"]


@pytest.mark.slow
@pytest.mark.parametrize("line_break", ["\r", "\r\n"])
async def test_a_long_paste_is_sent_with_newlines(chat_services, fake_openai, line_break):
    fake_openai.reply("Noted.")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        prompt = await focused_prompt(pilot, app)
        app.post_message(events.Paste(line_break.join(LINES)))  # as the driver does: the app forwards it
        await wait_until(pilot, lambda: prompt.pastes, explain=lambda: prompt.text[:80])
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(fake_openai.chat_requests))
        assert fake_openai.last_messages()[-1]["content"] == "\n".join(LINES)
        await wait_until(pilot, lambda: not chat(app).streaming)
    conversation = chat_services.history.list_conversations()[0]
    stored = [m.content for m in chat_services.history.messages(conversation.id) if m.role == "user"]
    assert stored == ["\n".join(LINES)]


@pytest.mark.slow
async def test_a_paste_into_the_first_frame_prompt_is_sent_with_newlines(chat_services, fake_openai):
    """Carried into the real prompt with ``load_text``, a text of lone CRs made CR that
    document's newline: the message was sent with them."""
    fake_openai.reply("Noted.")
    app = GatedApp(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        early = screen.query_one(EarlyPrompt)
        await wait_until(pilot, lambda: app.focused is early)
        app.post_message(events.Paste("one\rtwo\rthree"))
        await wait_until(pilot, lambda: early.text, explain=lambda: repr(early.text))
        screen.first_frame_shown()
        await until_filling(screen)
        screen.gate.set()
        prompt = await focused_prompt(pilot, app)
        await wait_until(pilot, lambda: prompt.text, explain=lambda: repr(prompt.text))
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(fake_openai.chat_requests))
        assert fake_openai.last_messages()[-1]["content"] == "one\ntwo\nthree"


def test_paste_newlines_makes_every_kind_of_line_break_a_newline():
    assert paste_newlines("a\rb\r\nc\nd\r\r\ne") == "a\nb\nc\nd\n\ne"
    assert paste_newlines("no breaks") == "no breaks"
