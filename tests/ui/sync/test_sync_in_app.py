"""Sync inside the app, through a folder target: /sync syncs in the background and says what
moved; ``[sync] auto`` syncs at start-up; what arrives appears in the panes while the app
runs; a failure is a notice and a red label, never a crash. The other machine is a second
data home in this process, syncing with the real engine."""

from __future__ import annotations

import pytest

from agenttui.core.config.paths import Paths
from agenttui.core.files import ensure_dir
from agenttui.core.history.store import HistoryStore
from agenttui.core.memory.store import MemoryStore
from agenttui.sync import engine
from agenttui.ui.app import make_app
from agenttui.ui.widgets.conversation_list import ConversationList
from agenttui.ui.widgets.memory_pane import MemoryPane
from agenttui.ui.widgets.sync_status import SyncStatus
from tests.ui.helpers import chat, notifications, send, wait_until

pytestmark = pytest.mark.slow

SIZE = (120, 36)
PASSPHRASE = "correct horse battery staple"


@pytest.fixture
def other_machine(paths, tmp_path, monkeypatch):
    """Machine b, with a note and a conversation already sent to the folder; this app's
    machine (a) has joined the same folder."""
    monkeypatch.setenv("AGENTTUI_SYNC_PASSPHRASE", PASSPHRASE)
    folder = tmp_path / "Sync" / "agenttui"
    b = Paths(config_dir=tmp_path / "home-b" / "config", data_dir=tmp_path / "home-b" / "data")
    engine.init(b, "folder", str(folder), "b", PASSPHRASE)
    engine.init(paths, "folder", str(folder), "a", PASSPHRASE)
    assert MemoryStore(b, "default").add_note("uses a standing desk").status == "added"
    ensure_dir(b.profile_dir("default"))
    with HistoryStore(b.history_db("default")) as store:
        store.create_conversation(title="Planned on machine b")
    assert engine.sync_now(b).sent >= 2
    return b


def _status(app) -> SyncStatus | None:
    found = app.screen.query(SyncStatus)
    return found.first() if found else None


def _memory(app) -> list[str]:
    return [item.display for item in app.screen.query_one(MemoryPane).items.values()]


def _titles(app) -> list[str]:
    return [c.title for c in app.screen.query_one(ConversationList).conversations.values()]


async def test_slash_sync_brings_the_other_machines_changes_into_the_panes(services, other_machine):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: _status(app) is not None and chat(app).prompt is not None, timeout=60)
        status = _status(app)
        assert status.display and status.finished == 0  # auto is off: nothing ran on its own
        assert "uses a standing desk" not in _memory(app)

        await send(pilot, "/sync")
        await wait_until(pilot, lambda: status.finished == 1, timeout=120)
        await wait_until(pilot, lambda: any(text.startswith("sent 0 changes, received 2 from 1 device")
                                            for _s, title, text in notifications(app) if title == "Sync"),
                         timeout=60, explain=lambda: (status.finished, status.running, notifications(app)))
        await wait_until(pilot, lambda: "uses a standing desk" in _memory(app)
                         and "Planned on machine b" in _titles(app), timeout=60,
                         explain=lambda: (_memory(app), _titles(app)))
        assert str(status.render()).startswith("⇅ ") and "failed" not in str(status.render())
        # in the header's free right corner: the top line, flush right, over nothing the header shows
        assert status.region.y == 0 and status.region.right == SIZE[0] and status.region.width <= 10, status.region

        # a note written here goes the other way on the next /sync
        MemoryStore(services.paths, "default").add_note("written on machine a")
        await send(pilot, "/sync")
        await wait_until(pilot, lambda: status.finished == 2, timeout=120)
    engine.sync_now(other_machine)
    assert "written on machine a" in [i.display for i in MemoryStore(other_machine, "default").items()]


async def test_auto_syncs_at_start_up_without_being_asked(services, other_machine):
    services.settings.sync.auto = True
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: _status(app) is not None, timeout=60)
        await wait_until(pilot, lambda: "uses a standing desk" in _memory(app)
                         and "Planned on machine b" in _titles(app), timeout=120,
                         explain=lambda: (_memory(app), _titles(app), notifications(app)))
        # the data watcher's poll may show what the sync wrote before the sync's own message
        # is handled: wait for that message, then check that it was one sync and a quiet one
        await wait_until(pilot, lambda: _status(app).finished >= 1 and not _status(app).running, timeout=120,
                         explain=lambda: (_status(app).finished, _status(app).running, notifications(app)))
        assert _status(app).finished == 1
        assert not [n for n in notifications(app) if n[1] == "Sync"]  # a background sync is quiet


async def test_a_failed_sync_is_a_notice_and_a_red_label(services, other_machine, monkeypatch):
    monkeypatch.setenv("AGENTTUI_SYNC_PASSPHRASE", "not the passphrase")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: _status(app) is not None and chat(app).prompt is not None, timeout=60)
        await send(pilot, "/sync")
        status = _status(app)
        await wait_until(pilot, lambda: status.finished == 1, timeout=120)
        failed = [n for n in notifications(app) if n[1] == "Sync failed"]
        assert failed and failed[0][0] == "error" and "passphrase is wrong" in failed[0][2], failed
        assert status.has_class("-failed") and str(status.render()) == "⇅ failed"
        assert "uses a standing desk" not in _memory(app)  # nothing was applied


async def test_auto_turned_on_while_running_syncs_at_the_next_tick(services, other_machine):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: _status(app) is not None, timeout=60)
        status = _status(app)
        status._tick()  # the minute's tick, called now instead of waited for
        await pilot.pause()
        assert status.finished == 0 and not status.running  # auto is off: the tick does nothing
        services.settings.sync.auto = True  # as Settings' save reloads them
        status._tick()
        await wait_until(pilot, lambda: status.finished == 1, timeout=120)
        await wait_until(pilot, lambda: "uses a standing desk" in _memory(app), timeout=60)
        status._tick()  # the interval (15 minutes) has not passed: no second sync
        await pilot.pause()
        assert not status.running and status.finished == 1
