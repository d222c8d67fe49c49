"""Deterministic snapshots: the audit screen and a destructive-action dialog.

Fixed size, fixed item ids and times, a frozen "now" for ages, the default
Textual theme, and focus on a Button/DataTable (no blinking cursor).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from agenttui.bootstrap import build_services
from agenttui.core.models import MemoryItem
from agenttui.ui.screens.audit import AuditScreen
from agenttui.ui.screens.confirm import ConfirmScreen
from tests.ui.helpers import foreground_complete

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
SIZE = (120, 36)


def _item(n: int, days_old: float, **fields) -> MemoryItem:
    created = NOW - timedelta(days=days_old)
    return MemoryItem(id=f"item{n:02d}", created=created, updated=created, **fields)


def _seed(services) -> None:
    items = [
        _item(1, 2, kind="note", scope="user", text="prefer short answers in plain English",
              source="explicit", pinned=True, use_count=14, last_used=NOW - timedelta(hours=3)),
        _item(2, 1, kind="note", scope="user", text="Prefer short answers, in plain English!",
              source="correction"),
        _item(3, 30, kind="fact", scope="user", key="editor", value="vim", source="manual",
              use_count=2, last_used=NOW - timedelta(days=4)),
        _item(4, 400, kind="note", scope="user", text="old habit nobody uses any more", source="import"),
        _item(5, 5, kind="note", scope="user", text="on call this week", source="explicit",
              expires=NOW - timedelta(days=1)),
        _item(6, 3, kind="fact", scope="user", key="language", value="id", source="explicit"),
    ]
    profile_items = [
        _item(7, 3, kind="fact", scope="profile", key="language", value="en", source="model"),
        _item(8, 10, kind="note", scope="profile", text="this repo uses tabs, not spaces",
              source="explicit", use_count=5, last_used=NOW - timedelta(days=1)),
    ]
    for path, scope, group in (
        (services.paths.user_memory_file, "user", items),
        (services.paths.profile_memory_file(services.profile_name), "profile", profile_items),
    ):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"schema": 1, "scope": scope,
                                    "items": [i.to_dict() for i in group], "archive": []}))


class _AuditHost(App):
    def __init__(self, services) -> None:
        super().__init__()
        self.services = services

    def on_mount(self) -> None:
        self.push_screen(AuditScreen(self.services, now=NOW))


class _DialogHost(App):
    def compose(self) -> ComposeResult:
        yield Static("agenttui — main screen behind the dialog")

    def on_mount(self) -> None:
        self.push_screen(ConfirmScreen(
            "Delete profile 'work'?",
            "Profile 'work' will be deleted: 42 conversations, 7 profile notes, 3 facts "
            "and its project memory files. The folder is moved to the trash (/data/trash).",
            backup="/data/backups", require_word="work", confirm_label="Delete profile",
        ))


async def _settled(pilot) -> None:
    await foreground_complete(pilot.app)
    await pilot.pause()
    await foreground_complete(pilot.app)
    await pilot.pause()
    # The audit's rows arrive as a message after its worker; the table sizes its
    # auto-width columns on a later refresh. Snapped before that, the columns
    # were cut ("explic") in some runs and not in others.
    tables = pilot.app.screen.query("AuditTable")
    for _ in range(250):
        if not tables or tables.first().row_count:
            break
        await pilot.pause(0.02)
    for _ in range(3):
        await pilot.pause()


# Rerun on failure: on a loaded machine (1 run in 10-15 beside two CPU hogs, once in a
# CI run) the audit table's auto-width columns are drawn at their headers' widths in
# the snapshot, although every row was added and measured before it; the cause is in
# DataTable's idle-time sizing and is not ours to fix here. A real change of the
# screen fails every rerun.
@pytest.mark.slow
@pytest.mark.flaky(reruns=3)
def test_audit_screen(snap_compare, tmp_path):
    services = build_services(cwd=tmp_path)
    _seed(services)
    try:
        assert snap_compare(_AuditHost(services), terminal_size=SIZE, run_before=_settled)
    finally:
        services.close()


def test_confirm_dialog(snap_compare):
    assert snap_compare(_DialogHost(), terminal_size=SIZE, run_before=_settled)
