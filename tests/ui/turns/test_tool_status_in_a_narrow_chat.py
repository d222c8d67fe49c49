"""A tool call's status is on its one-line heading however long its arguments are.

It came after the argument summary (up to 60 characters), so in an 80-column terminal a denied
``rm -rf`` on a long path, or a command stopped while it ran, showed no status at all: the
line was cut before it.
"""

from __future__ import annotations

import pytest
from textual.widgets._collapsible import CollapsibleTitle

from agenttui.ui.app import make_app
from agenttui.ui.widgets.tool_call_view import ToolCallView
from tests.ui.helpers import ask_for_approval, chat, wait_until
from tests.ui.terminal_frames import TerminalFrames

SIZE = (80, 24)


@pytest.mark.slow
async def test_the_status_of_a_refused_call_shows_in_80_columns(chat_services, fake_openai, tmp_path):
    target = tmp_path / "a_folder_with_a_rather_long_name" / "and_another_one_inside_it"
    fake_openai.tool_call("run_shell", {"command": f"rm -rf {target}", "timeout_seconds": 5})
    fake_openai.reply("not deleted")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        frames = TerminalFrames(app, SIZE)
        await ask_for_approval(pilot, app, "clean up")
        await pilot.press("escape")  # Deny
        await wait_until(pilot, lambda: not chat(app).streaming)
        view = app.main.query_one(ToolCallView)
        title = view.query_one(CollapsibleTitle)
        await wait_until(pilot, lambda: " denied " in "".join(frames.rows(title)), explain=lambda: frames.rows(title))
        assert "rm -rf" in "".join(frames.rows(title))
