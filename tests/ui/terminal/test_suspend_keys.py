"""Which key suspends where: ctrl+z is the prompt's undo and suspends elsewhere (the History
list here); ctrl+\\ suspends from the prompt too. The suspend itself is Textual's
``App.action_suspend_process`` (run for real in test_suspend.py's pseudo-terminal)."""

from __future__ import annotations

from agenttui.ui.app import make_app
from tests.ui.helpers import chat, wait_until


async def test_ctrl_z_undoes_in_the_prompt_and_suspends_on_a_list(services):
    app = make_app(services, check_api_key=False)
    suspended: list[str] = []
    app.action_suspend_process = lambda: suspended.append(type(app.focused).__name__)  # type: ignore[method-assign]
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        prompt = chat(app).prompt
        prompt.focus()
        await pilot.press(*"zebra")
        await wait_until(pilot, lambda: prompt.text == "zebra")
        await pilot.press("ctrl+z")
        await wait_until(pilot, lambda: prompt.text == "")  # undo, as before
        assert suspended == []
        await pilot.press("ctrl+backslash")
        await wait_until(pilot, lambda: suspended == ["PromptInput"])
        await pilot.press("f3")
        pane = app.screen.query_one("#history-pane")
        await wait_until(pilot, lambda: pane.conversation_list.has_focus)
        await pilot.press("ctrl+z")
        await wait_until(pilot, lambda: suspended == ["PromptInput", "ConversationList"])
