"""The Memory and History panes follow changes made on disk while the app
runs -- another process's memory write, another process's conversation, a restore."""

from __future__ import annotations

import pytest

from agenttui.core.backup.archive import create_backup, restore_backup
from agenttui.core.history.store import HistoryStore
from agenttui.core.memory.store import MemoryStore
from agenttui.ui.app import make_app
from agenttui.ui.widgets.conversation_list import ConversationList
from agenttui.ui.widgets.memory_pane import MemoryPane
from tests.ui.helpers import chat, wait_until

SIZE = (120, 36)


async def _baseline_taken(pilot, app) -> None:
    """The watcher's first poll (a baseline, reporting nothing) has run: changes from now count."""
    from agenttui.ui.widgets.data_watcher import DataWatcher

    await wait_until(pilot, lambda: app.screen.query(DataWatcher)
                     and app.screen.query_one(DataWatcher).polls >= 1, timeout=30)


def _shown_memory(app) -> list[str]:
    return [item.display for item in app.screen.query_one(MemoryPane).items.values()]


def _titles(app) -> list[str]:
    listing = app.screen.query_one(ConversationList)
    return [c.title for c in listing.conversations.values()]


@pytest.mark.slow
async def test_memory_written_by_another_process_appears(services, paths):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen.query(MemoryPane) and chat(app).prompt is not None)
        await _baseline_taken(pilot, app)
        other = MemoryStore(paths, services.profile_name)  # as `agenttui memory add` in another shell
        assert other.add_note("prefers metric units in answers").status == "added"
        await wait_until(pilot, lambda: "prefers metric units in answers" in _shown_memory(app), timeout=30)


@pytest.mark.slow
async def test_a_conversation_from_another_process_appears(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen.query(ConversationList) and chat(app).prompt is not None)
        await _baseline_taken(pilot, app)
        with HistoryStore(services.history.db_path) as other:  # as `agenttui ask` in another terminal
            other.create_conversation(title="asked from another terminal")
        await wait_until(pilot, lambda: "asked from another terminal" in _titles(app), timeout=30)


@pytest.mark.slow
async def test_restore_while_running_is_noticed(services, paths, tmp_path):
    from agenttui.core.config.file import save_settings

    services.base_settings.model = "model-in-the-backup"
    save_settings(paths, services.base_settings)
    services.memory.add_note("the note that the backup holds")
    services.history.create_conversation(title="in the backup")
    archive = create_backup(paths, tmp_path / "before.tar.gz")
    services.memory.add_note("a note written after the backup")
    services.history.create_conversation(title="after the backup")
    services.base_settings.model = "model-after-the-backup"
    save_settings(paths, services.base_settings)
    services.reload_settings()
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: "after the backup" in _titles(app), timeout=30)
        await _baseline_taken(pilot, app)
        restore_backup(paths, archive)  # as `agenttui restore` from another shell
        await wait_until(pilot, lambda: any(n[1] == "Data changed on disk" for n in app.notices), timeout=30)
        await wait_until(pilot, lambda: _titles(app) == ["in the backup"], timeout=30)
        await wait_until(pilot, lambda: _shown_memory(app) == ["the note that the backup holds"], timeout=30)
        assert services.settings.model == "model-in-the-backup"  # the restored config.toml
        await wait_until(pilot, lambda: "model-in-the-backup" in app.sub_title)
        # the app now writes to the restored database, not to the one moved to the trash
        services.history.create_conversation(title="after the restore")
    with HistoryStore(services.history.db_path) as check:
        titles = {c.title for c in check.list_conversations(limit=10)}
    assert titles == {"in the backup", "after the restore"}


@pytest.mark.slow
async def test_the_open_profile_moved_to_the_trash_is_said_and_nothing_is_lost(services, paths):
    from agenttui.core.backup.archive import move_to_trash
    from agenttui.core.config.profiles import ProfileInUse, ProfileStore

    services.history.create_conversation(title="before the delete")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: "before the delete" in _titles(app), timeout=30)
        await _baseline_taken(pilot, app)
        folder = services.history.db_path.parent
        with pytest.raises(ProfileInUse):  # `profile delete` refuses while the app has it open
            ProfileStore(paths).delete(folder.name)
        # moved anyway (by hand, or by an agenttui from before claims): the app says so, loses nothing
        trashed = move_to_trash(paths, folder)
        await wait_until(pilot, lambda: any(n[1] == "Profile moved to the trash" for n in app.notices),
                         timeout=30, explain=lambda: [n[1] for n in app.notices])
        await wait_until(pilot, lambda: _titles(app) == [], timeout=30)
        services.history.create_conversation(title="after the delete")
    with HistoryStore(trashed / "history.sqlite3") as kept:
        assert [c.title for c in kept.list_conversations(limit=10)] == ["before the delete"]
    with HistoryStore(services.history.db_path) as now:
        assert [c.title for c in now.list_conversations(limit=10)] == ["after the delete"]
