"""Every pane has a key that reaches the app in tmux and common terminals
(F-keys and Esc; alt+1 types "¡" in a macOS Terminal and may never arrive), shown in the
footer; Tab in the prompt moves the focus unless it completes a slash command. The keys are
sent as a terminal sends them (tests/e2e/pty_terminal.py's table) where Pilot allows."""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from tests.ui.helpers import chat, wait_until


def _in(app, pane_id: str) -> bool:
    return app.screen.query_one(f"#{pane_id}").has_focus_within


def _footer_keys(app) -> str:
    from textual.widgets import Footer

    footer = app.screen.query_one(Footer)
    return " ".join(f"{k.key} {k.description}" for k in footer.query("FooterKey"))


@pytest.mark.slow
async def test_f2_and_f3_go_to_their_pane_and_back(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        chat(app).prompt.focus()
        await pilot.press("f2")  # Memory is visible at 120 columns: F2 focuses it (used to hide it)
        await wait_until(pilot, lambda: _in(app, "memory-pane"))
        assert app.screen.query_one("#memory-pane").display
        await pilot.press("escape")  # back to the chat, Memory stays open
        await wait_until(pilot, lambda: chat(app).prompt.has_focus)
        assert app.screen.query_one("#memory-pane").display
        await pilot.press("f3")
        await wait_until(pilot, lambda: _in(app, "history-pane"))
        await pilot.press("f2")  # from History straight to Memory (F2 used to rename there)
        await wait_until(pilot, lambda: _in(app, "memory-pane"))
        await pilot.press("f2")  # again inside Memory: it hides, the chat has the focus
        await wait_until(pilot, lambda: chat(app).prompt.has_focus)
        assert not app.screen.query_one("#memory-pane").display


@pytest.mark.slow
async def test_history_escape_clears_the_search_first_then_returns_to_the_chat(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        await pilot.press("f3")
        await wait_until(pilot, lambda: _in(app, "history-pane"))
        search = app.screen.query_one("#history-search")
        search.focus()
        await pilot.press(*"deploy")
        await pilot.press("escape")
        await wait_until(pilot, lambda: search.value == "")
        assert _in(app, "history-pane")
        await pilot.press("escape")
        await wait_until(pilot, lambda: chat(app).prompt.has_focus)


@pytest.mark.slow
async def test_the_keys_are_shown(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        await wait_until(pilot, lambda: "f2 Memory" in _footer_keys(app) and "f3 History" in _footer_keys(app))
        await pilot.press("f2")
        await wait_until(pilot, lambda: "Chat" in _footer_keys(app))  # the way back, in the pane


@pytest.mark.slow
async def test_tab_moves_the_focus_out_of_the_prompt_unless_completing(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        prompt = chat(app).prompt
        prompt.focus()
        await pilot.press(*"hello", "tab")
        await wait_until(pilot, lambda: not prompt.has_focus)
        assert prompt.text == "hello"
        prompt.focus()
        prompt.clear()
        await pilot.press("/", "f", "o", "tab")
        assert prompt.text == "/forget " and prompt.has_focus
