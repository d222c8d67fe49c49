"""The chat pane against the fake OpenAI server: stream, persist, cancel, retry, tools."""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.screens.approval import ApprovalScreen
from agenttui.ui.widgets.message_view import AssistantMessage, Notice, UserMessage
from agenttui.ui.widgets.tool_call_view import ToolCallView
from tests.ui.helpers import (
    approval_asked,
    approve,
    chat,
    replies,
    send,
    wait_until,
    while_streaming,
)

SIZE = (120, 36)


@pytest.mark.slow
async def test_reply_is_streamed_shown_and_persisted(chat_services, fake_openai):
    fake_openai.reply("Hello **there**, here is code:\n\n```python\nprint('hi')\n```\n", words_per_second=200)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "hi there")
        await wait_until(pilot, lambda: not chat(app).streaming and replies(app))
        assert replies(app) == ["Hello **there**, here is code:\n\n```python\nprint('hi')\n```\n"]
        view = app.screen.query_one(AssistantMessage)
        assert "print('hi')" in view.markdown.source
        assert [m.text for m in app.screen.query(UserMessage)] == ["hi there"]
        cid = chat(app).conversation_id
    stored = chat_services.history.messages(cid)
    assert [(m.role, m.content) for m in stored][:1] == [("user", "hi there")]
    assert stored[-1].role == "assistant" and "print('hi')" in stored[-1].content
    assert fake_openai.last_messages()[-1]["content"] == "hi there"


@pytest.mark.slow
async def test_escape_cancels_a_streaming_reply(chat_services, fake_openai):
    fake_openai.reply(" ".join(f"word{i}" for i in range(400)), words_per_second=40)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await while_streaming(pilot, app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not chat(app).streaming)
        shown = replies(app)[0]
        assert "word399" not in shown
        view = app.screen.query(AssistantMessage).last()  # one marker, on the reply
        assert view.has_class("-incomplete") and "cancelled" in str(view.query_one(".status").render())
        cid = chat(app).conversation_id
    last = chat_services.history.messages(cid)[-1]
    assert last.role == "assistant" and last.incomplete


@pytest.mark.slow
async def test_retry_after_a_server_error_does_not_duplicate_the_user_message(chat_services, fake_openai):
    chat_services.settings.agent.max_retries = 0  # fail at once instead of retrying quietly
    fake_openai.status(500)
    fake_openai.reply("second time lucky")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "please answer")
        await wait_until(pilot, lambda: chat(app).can_retry)
        errors = [n for n in app.screen.query(Notice) if n.has_class("-error")]
        assert errors and "retry" in str(errors[-1].render())
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: "second time lucky" in replies(app))
        await wait_until(pilot, lambda: not chat(app).streaming)
        cid = chat(app).conversation_id
        assert len(app.screen.query(UserMessage)) == 1
    users = [m for m in chat_services.history.messages(cid) if m.role == "user"]
    assert [m.content for m in users] == ["please answer"]
    assert len(fake_openai.chat_requests) == 2
    assert fake_openai.chat_requests[1]["messages"][-1]["content"] == "please answer"


@pytest.mark.slow
async def test_high_risk_command_asks_with_deny_focused_and_deny_blocks_it(chat_services, fake_openai, tmp_path):
    target = tmp_path / "precious"
    target.mkdir()
    fake_openai.tool_call("run_shell", {"command": f"rm -rf {target}", "timeout_seconds": 5})
    fake_openai.reply("ok, I did not delete it")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "clean up")
        await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.focused is not None)
        screen = app.screen
        assert screen.has_class("-high")
        assert app.focused.id == "deny"
        command = str(screen.query_one("#approval-command").render())
        assert f"rm -rf {target}" in command
        await pilot.press("enter")  # Enter on the focused Deny
        await wait_until(pilot, lambda: not chat(app).streaming)
        view = app.screen.query_one(ToolCallView)
        assert view.status == "denied"
    assert target.exists()


@pytest.mark.slow
async def test_approving_runs_the_command_once(chat_services, fake_openai, tmp_path):
    marker = tmp_path / "ran.txt"
    async with approval_asked(chat_services, fake_openai, marker, "it ran", SIZE) as (app, pilot):
        await wait_until(pilot, lambda: app.focused is not None and app.focused.id == "approve")
        # not high risk: approve is the default, once it can answer
        await approve(pilot, app)
        await wait_until(pilot, lambda: not chat(app).streaming)
        assert app.screen.query_one(ToolCallView).status == "ok"
        assert "it ran" in replies(app)
    assert marker.read_text().strip() == "done"
