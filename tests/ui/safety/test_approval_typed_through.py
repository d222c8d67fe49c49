"""Keys the user was typing when the approval dialog appeared never approve anything.

A reply streams, the user types their next message, and the model asks to run a command:
the dialog opens under their fingers. "y" approves and a space presses the focused button,
so for ``APPROVE_AFTER_S`` Approve does not answer; Deny does.
"""

from __future__ import annotations

import pytest
from textual import events

from agenttui.ui.screens import approval
from agenttui.ui.widgets.tool_call_view import ToolCallView
from tests.ui.helpers import approval_asked, chat, wait_until

SIZE = (100, 30)


@pytest.mark.slow
async def test_keys_typed_as_it_opens_do_not_approve(chat_services, fake_openai, tmp_path, monkeypatch):
    monkeypatch.setattr(approval, "APPROVE_AFTER_S", 3600.0)  # every key below is "as it opens"
    marker = tmp_path / "ran.txt"
    async with approval_asked(chat_services, fake_openai, marker, "not run", SIZE) as (app, pilot):
        dialog = app.screen
        for char in "yes ":  # "yes, and …": its y, then a space on whatever has the focus
            app.post_message(events.Key("space" if char == " " else char, char))
        await pilot.pause()
        assert app.screen is dialog and dialog.query_one("#approve").disabled
        assert not marker.exists()
        await pilot.press("escape")  # the user's answer: Deny
        await wait_until(pilot, lambda: not chat(app).streaming)
        assert app.screen.query_one(ToolCallView).status == "denied"
    assert not marker.exists()


@pytest.mark.slow
async def test_y_approves_once_the_dialog_can_answer(chat_services, fake_openai, tmp_path, monkeypatch):
    monkeypatch.setattr(approval, "APPROVE_AFTER_S", 0.05)
    marker = tmp_path / "ran.txt"
    async with approval_asked(chat_services, fake_openai, marker, "it ran", SIZE) as (app, pilot):
        await wait_until(pilot, lambda: not app.screen.query_one("#approve").disabled)
        await pilot.press("y")
        await wait_until(pilot, lambda: not chat(app).streaming)
        assert app.screen.query_one(ToolCallView).status == "ok"
    assert marker.read_text().strip() == "done"
