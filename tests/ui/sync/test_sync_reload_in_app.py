"""Settings a sync brings are used by the running app at once (it says so), and conflicts a
sync kept are a notice naming how many and where to look; /sync status lists them in the
chat. The other machine is a second data home in this process, syncing with the real engine
through a folder."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from agenttui.core.config.paths import Paths
from agenttui.sync import engine
from agenttui.ui.app import make_app
from agenttui.ui.screens.audit import AuditScreen
from agenttui.ui.widgets.chat_log import Notice
from agenttui.ui.widgets.sync_status import SyncStatus
from tests.ui.helpers import chat, notifications, send, wait_until

pytestmark = pytest.mark.slow

SIZE = (120, 36)
PASSPHRASE = "correct horse battery staple"


@pytest.fixture
def other_machine(paths, tmp_path, monkeypatch):
    """Machine b sent settings naming its own new theme; this app's machine (a) joined the folder
    with settings of its own, never synced: the group's win, a's are kept as a conflict."""
    monkeypatch.setenv("AGENTTUI_SYNC_PASSPHRASE", PASSPHRASE)
    folder = tmp_path / "Sync" / "agenttui"
    b = Paths(config_dir=tmp_path / "home-b" / "config", data_dir=tmp_path / "home-b" / "data")
    engine.init(b, "folder", str(folder), "b", PASSPHRASE)
    engine.init(paths, "folder", str(folder), "a", PASSPHRASE)
    b.config_file.parent.mkdir(parents=True, exist_ok=True)
    b.config_file.write_text('theme = "dusk"\n\n[history]\nwindow_messages = 44\n', encoding="utf-8")
    b.user_themes_dir.mkdir(parents=True, exist_ok=True)
    (b.user_themes_dir / "dusk.toml").write_text('name = "dusk"\ndark = true\nprimary = "#aa66cc"\n',
                                                 encoding="utf-8")
    assert engine.sync_now(b).sent >= 1
    paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text('theme = "agenttui-dark"\n', encoding="utf-8")
    return b


def _notices(app) -> list[str]:
    return [str(n.render()) for n in app.screen.query(Notice)]


async def test_settings_from_a_sync_apply_at_once_and_its_conflicts_are_a_notice(services, other_machine):
    services.reload_settings()  # the app starts on a's own file
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen.query(SyncStatus) and chat(app).prompt is not None, timeout=60)
        status = app.screen.query_one(SyncStatus)
        assert app.theme == "agenttui-dark" and services.settings.history.window_messages != 44

        await send(pilot, "/sync")
        await wait_until(pilot, lambda: status.finished == 1, timeout=120)
        await wait_until(pilot, lambda: app.theme == "dusk", timeout=30,  # the synced file, registered
                         explain=lambda: (app.theme, services.base_settings.theme, "dusk" in app.available_themes,
                                          status.finished, notifications(app)))
        assert services.settings.history.window_messages == 44  # read again, not at the next start
        said = notifications(app)
        assert any(title == "Sync" and "changed your settings and theme dusk" in text
                   for _s, title, text in said), said
        conflicts = [(s, text) for s, title, text in said if title == "Sync conflicts"]
        assert conflicts and conflicts[0][0] == "warning", said
        assert "1 conflicting edit" in conflicts[0][1] and "/sync status" in conflicts[0][1]
        assert "settings, profile, project or theme files" in conflicts[0][1]

        await send(pilot, "/sync status")
        await wait_until(pilot, lambda: any("Conflicts kept (1" in text for text in _notices(app)), timeout=60)
        shown = next(text for text in _notices(app) if "Conflicts kept" in text)
        assert "config.toml: edited on two machines" in shown and "This machine: a" in shown, shown

        # the memory audit, where memory's own conflicts are flagged, names the others' number
        await send(pilot, "/audit")
        await wait_until(pilot, lambda: isinstance(app.screen, AuditScreen)
                         and "1 sync conflict(s) on chats/files: /sync status"
                         in str(app.screen.query_one("#audit-summary", Static).render()), timeout=60)


async def test_a_sync_that_changes_no_settings_reloads_nothing_and_says_nothing(services, other_machine):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen.query(SyncStatus) and chat(app).prompt is not None, timeout=60)
        status = app.screen.query_one(SyncStatus)
        await send(pilot, "/sync")
        await wait_until(pilot, lambda: status.finished == 1, timeout=120)
        await send(pilot, "/sync")
        await wait_until(pilot, lambda: status.finished == 2, timeout=120)
        said = [text for _s, title, text in notifications(app) if title == "Sync"]
        # the first sync brought the settings and a conflict; the second brought nothing
        assert sum("changed your settings" in text for text in said) == 1, said
        assert len([title for _s, title, _t in notifications(app) if title == "Sync conflicts"]) == 1
        assert any(text.startswith("sent 0 changes, received 0") for text in said), said
