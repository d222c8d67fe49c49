"""Typing a message while the approval dialog is up never approves: a "y" inside a word does not.

The dialog answers "y" (approve) once it has been up ``APPROVE_AFTER_S``; a user writing their
next message with their eyes on the prompt typed " my" into it and the command ran. Text typed
into the dialog now holds Approve back again for ``APPROVE_AFTER_S`` after each key, so only a
"y" pressed on its own approves.
"""

from __future__ import annotations

import pytest
from textual import events

from agenttui.ui.screens import approval
from agenttui.ui.screens.approval import ApprovalScreen
from agenttui.ui.widgets.tool_call_view import ToolCallView
from tests.ui.helpers import approval_asked, chat, wait_until, workers_done

SIZE = (100, 30)


def _key(char: str) -> events.Key:
    return events.Key("space" if char == " " else char, char)


@pytest.mark.slow
async def test_a_y_inside_typed_words_does_not_approve(chat_services, fake_openai, tmp_path, monkeypatch):
    monkeypatch.setattr(approval, "APPROVE_AFTER_S", 3600.0)  # no key below comes after the hold
    marker = tmp_path / "ran.txt"
    async with approval_asked(chat_services, fake_openai, marker, "not run", SIZE) as (app, pilot):
        dialog = app.screen
        dialog._allow_approval()  # the dialog has been up long enough: "y" alone would approve now
        assert not dialog.query_one("#approve").disabled
        for char in "it is my turn":  # ... but this "y" comes right behind "m"
            app.post_message(_key(char))
            await pilot.pause()
        await workers_done(pilot)
        assert not marker.exists()
        if isinstance(app.screen, ApprovalScreen):  # the "n" of "turn" may have denied it already
            await pilot.press("escape")
        await wait_until(pilot, lambda: not chat(app).streaming)
        assert app.main.query_one(ToolCallView).status == "denied"
    assert not marker.exists()


@pytest.mark.slow
async def test_y_on_its_own_still_approves(chat_services, fake_openai, tmp_path, monkeypatch):
    monkeypatch.setattr(approval, "APPROVE_AFTER_S", 3600.0)
    marker = tmp_path / "ran.txt"
    async with approval_asked(chat_services, fake_openai, marker, "it ran", SIZE) as (app, pilot):
        app.screen._allow_approval()
        await pilot.press("y")
        await wait_until(pilot, lambda: not chat(app).streaming)
        assert app.main.query_one(ToolCallView).status == "ok"
    assert marker.read_text().strip() == "done"
