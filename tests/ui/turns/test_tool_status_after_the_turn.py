"""A tool call's status says what happened to it, while the turn runs, after it, and when the
conversation is opened again from History.

It did not: reopened, every call showed ✓ (a denied ``rm -rf`` too, a tool that failed too); a
command approved and running still said "awaiting approval"; a command stopped by Esc while it
ran stayed "…" and history told the model it "was not run" although it had started.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.screens import approval
from agenttui.ui.screens.approval import ApprovalScreen
from agenttui.ui.widgets.tool_call_view import ToolCallView
from tests.ui.helpers import approve, chat, send, wait_until

SIZE = (120, 36)


def _statuses(app) -> list[str]:
    return [view.status for view in app.main.query(ToolCallView)]


async def _approval(pilot, app) -> ApprovalScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.focused is not None)
    return app.screen


@pytest.mark.slow
async def test_reopened_conversation_shows_each_call_as_it_ended(chat_services, fake_openai, tmp_path, monkeypatch):
    monkeypatch.setattr(approval, "APPROVE_AFTER_S", 0.05)
    ran, kept = tmp_path / "ran.txt", tmp_path / "precious"
    kept.mkdir()
    fake_openai.tool_calls(
        [
            ("run_shell", {"command": f"echo done > {ran}", "timeout_seconds": 5}),
            ("run_shell", {"command": f"rm -rf {kept}", "timeout_seconds": 5}),
            ("list_directory", {"path": "."}),  # no project folder is bound: the tool fails
        ]
    )
    fake_openai.reply("three calls")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await send(pilot, "do three things")
        await _approval(pilot, app)
        await approve(pilot, app)
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, ApprovalScreen) and _statuses(app)[1:2] == ["waiting"],
            explain=lambda: (app.screen, _statuses(app)),
        )
        await pilot.press("escape")  # Deny
        await wait_until(pilot, lambda: not pane.streaming)
        live = _statuses(app)
        assert live == ["ok", "denied", "failed"]
        cid = pane.conversation_id
        await pane.open_conversation(None)
        await pane.open_conversation(cid)
        await wait_until(pilot, lambda: len(_statuses(app)) == 3)
        assert _statuses(app) == live
    assert ran.exists() and kept.exists()


@pytest.mark.slow
async def test_a_command_stopped_while_it_runs_says_so(chat_services, fake_openai, tmp_path, monkeypatch):
    monkeypatch.setattr(approval, "APPROVE_AFTER_S", 0.05)
    started = tmp_path / "started.txt"
    fake_openai.tool_call("run_shell", {"command": f"echo yes > {started}; sleep 60", "timeout_seconds": 90})
    fake_openai.reply("not reached")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await send(pilot, "run the long one")
        await _approval(pilot, app)
        await approve(pilot, app)
        await wait_until(pilot, started.exists)
        assert _statuses(app) == ["running"]  # approved and running, no longer "awaiting approval"
        app.screen.set_focus(None)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not pane.streaming)
        assert _statuses(app) == ["stopped"]
        cid = pane.conversation_id
        await pane.open_conversation(None)
        await pane.open_conversation(cid)
        await wait_until(pilot, lambda: len(_statuses(app)) == 1)
        assert _statuses(app) == ["stopped"]
    result = [m for m in chat_services.history.messages(cid) if m.role == "tool"]
    assert len(result) == 1 and "not run" not in result[0].content
    assert "stopped" in result[0].content.lower()
