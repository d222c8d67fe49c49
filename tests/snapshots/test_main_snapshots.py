"""Deterministic snapshots of the main screen (fixed size, fixed data, no blink).

Regenerate after an intended visual change with
``pytest tests/snapshots --snapshot-update``.
"""

from __future__ import annotations

import sqlite3

import pytest

from agenttui.core.models import Message
from agenttui.ui.app import make_app
from tests.ui.helpers import foreground_complete


@pytest.fixture
def snapshot_services(make_services):
    services = make_services()
    conversation = services.history.create_conversation("Snapshot chat")
    services.history.append(conversation.id, Message(role="user", content="How do I list files?"))
    services.history.append(conversation.id, Message(
        role="assistant", content="Use `ls`:\n\n```sh\nls -la\n```\n"))
    # Freeze the conversation's dates so the history pane renders the same every day.
    fixed = "2024-01-02T03:04:05.000000+00:00"
    with sqlite3.connect(services.paths.history_db(services.profile_name)) as db:
        db.execute("UPDATE conversations SET created = ?, updated = ?", (fixed, fixed))
    return services


async def _settle(pilot) -> None:
    from agenttui.ui.widgets.prompt_input import PromptInput

    await foreground_complete(pilot.app)
    await pilot.pause()
    pilot.app.screen.query_one(PromptInput).cursor_blink = False
    await pilot.pause()


def _app(services, theme: str):
    app = make_app(services, check_api_key=False)
    app.services.settings.theme = theme
    return app


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["agenttui-dark", "agenttui-light"])
def test_main_screen(snap_compare, snapshot_services, theme):
    assert snap_compare(_app(snapshot_services, theme), terminal_size=(120, 36), run_before=_settle)


@pytest.mark.slow
def test_main_screen_narrow(snap_compare, snapshot_services):
    assert snap_compare(_app(snapshot_services, "agenttui-dark"), terminal_size=(80, 24), run_before=_settle)
