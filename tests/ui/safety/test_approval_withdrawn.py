"""An approval dialog whose turn ended without the answer closes: nothing is asked for good.

A profile switch stops the running turn, and a turn's time limit ends it; the dialog stayed on
screen, asking "Allow tool run_shell?" about a command that nothing would run any more (the
loop had given up on the answer), under the other profile's chat too.
"""

from __future__ import annotations

import pytest

from agenttui.ui.screens import approval
from agenttui.ui.screens.approval import ApprovalScreen
from agenttui.ui.screens.profiles import ProfilesScreen
from tests.ui.helpers import approval_asked, chat, wait_until

SIZE = (100, 30)


def _asking(app) -> bool:
    return any(isinstance(screen, ApprovalScreen) for screen in app.screen_stack)


@pytest.mark.slow
async def test_a_profile_switch_withdraws_the_question(chat_services, fake_openai, tmp_path, monkeypatch):
    monkeypatch.setattr(approval, "APPROVE_AFTER_S", 0.05)
    chat_services.profiles.create("work")
    marker = tmp_path / "ran.txt"
    async with approval_asked(chat_services, fake_openai, marker, "not run", SIZE) as (app, pilot):
        app.action_open_profiles()  # ctrl+p → Profiles opens over the dialog
        await wait_until(pilot, lambda: isinstance(app.screen, ProfilesScreen) and app.screen.query("#profiles-list"))
        app.screen._switch("work")
        await wait_until(pilot, lambda: chat_services.profile_name == "work" and not chat(app).streaming)
        await wait_until(pilot, lambda: not _asking(app), explain=lambda: app.screen_stack)
    assert not marker.exists()


@pytest.mark.slow
async def test_the_time_limit_withdraws_the_question(chat_services, fake_openai, tmp_path, monkeypatch):
    monkeypatch.setattr(approval, "APPROVE_AFTER_S", 0.05)
    marker = tmp_path / "ran.txt"
    async with approval_asked(chat_services, fake_openai, marker, "not run", SIZE) as (app, pilot):
        dialog = app.screen
        await wait_until(pilot, lambda: not dialog.query_one("#approve").disabled)
        dialog.request.future.cancel()  # what the loop does when the turn's time runs out unanswered
        await wait_until(pilot, lambda: not _asking(app), explain=lambda: app.screen_stack)
    assert not marker.exists()
