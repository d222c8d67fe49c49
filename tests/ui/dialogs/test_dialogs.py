"""The confirm dialog alone and in the reset-memory flow."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.widgets import Button, Input

from agenttui.ui.app import make_app
from agenttui.ui.screens.confirm import ConfirmScreen
from tests.ui.data_harness import settle
from tests.ui.helpers import wait_until


class _Host(App):
    def __init__(self, screen: ConfirmScreen) -> None:
        super().__init__()
        self.dialog = screen
        self.answers: list[bool | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.answers.append)


async def test_focus_starts_on_cancel_and_escape_cancels():
    app = _Host(ConfirmScreen("Delete?", "2 things go.", backup="/tmp/b"))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert app.focused is app.dialog.query_one("#cancel", Button)
        text = str(app.dialog.query_one("#confirm-backup").render())
        assert "A backup is made first: /tmp/b" in text
        await pilot.press("escape")
        await pilot.pause()
    assert app.answers == [False]


async def test_confirm_button_answers_true():
    app = _Host(ConfirmScreen("Delete?", "1 thing goes."))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("tab", "enter")  # Cancel -> Delete
        await pilot.pause()
    assert app.answers == [True]


@pytest.mark.slow
async def test_required_word_gates_confirm():
    app = _Host(ConfirmScreen("Delete profile?", "x", require_word="work"))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        confirm = app.dialog.query_one("#confirm", Button)
        word = app.dialog.query_one("#confirm-word", Input)
        assert confirm.disabled
        word.focus()
        await pilot.press(*"wrong", "enter")
        await pilot.pause()
        assert app.answers == [] and confirm.disabled
        word.value = "work"
        await pilot.pause()
        assert not confirm.disabled
        await pilot.click("#confirm")
        await pilot.pause()
    assert app.answers == [True]


async def _until_dialog(pilot, app) -> None:
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and app.screen.query("#cancel"))
    await pilot.pause()


@pytest.mark.slow
async def test_reset_memory_states_counts_needs_word_and_backs_up(services):
    memory = services.memory
    memory.add_note("note one")
    memory.add_note("note two is different")
    memory.set_fact("editor", "vim")
    memory.add_note("profile note", scope="profile")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        await app.run_action("reset_memory")
        await _until_dialog(pilot, app)  # not settle(): the action's worker awaits the dialog
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert "2 note(s) and 1 fact(s) of the user scope" in dialog.statement
        assert "1 note(s) and 0 fact(s) of profile" in dialog.statement
        assert dialog.require_word == "delete"
        assert app.focused is dialog.query_one("#confirm-word", Input)  # typing goes there
        await pilot.press("escape")  # Cancel
        await settle(pilot, app)
        assert len(memory.items()) == 4
        await app.run_action("reset_memory")
        await _until_dialog(pilot, app)
        dialog = app.screen
        dialog.query_one("#confirm-word", Input).focus()
        await pilot.press(*"delete", "enter")
        await settle(pilot, app)
        assert memory.items() == []
        snapshots = [p for p in services.paths.memory_backups_dir.rglob("*.json")]
        assert snapshots, "the reset must leave a backup of the memory files"
