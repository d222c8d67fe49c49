"""core.data_watch: what a poll reports, with real files and real SQLite."""

from __future__ import annotations

from agenttui.core.data_watch import DataWatch
from agenttui.core.files import atomic_write_text
from agenttui.core.history.store import HistoryStore


def _poll(watch, memory, store):
    return watch.poll([memory], store.db_path, lambda: store.epoch[1] if store.db_path.exists() else None)


def test_baseline_then_memory_then_another_connection_then_replacement(tmp_path):
    memory = tmp_path / "user.json"
    store = HistoryStore(tmp_path / "history.db")
    watch = DataWatch()
    assert not _poll(watch, memory, store)  # the baseline: nothing to report
    store.create_conversation(title="mine")  # the database appears (created by this store)
    assert _poll(watch, memory, store).history
    store.create_conversation(title="mine again")  # our own commit: data_version does not move
    assert not _poll(watch, memory, store)
    atomic_write_text(memory, '{"items": []}')
    assert _poll(watch, memory, store).memory
    with HistoryStore(store.db_path) as other:  # another process's commit
        other.create_conversation(title="theirs")
    changes = _poll(watch, memory, store)
    assert changes.history and not changes.replaced
    moved = store.db_path.with_name("moved.db")
    store.db_path.rename(moved)  # a restore moves the old file away and puts another there
    with HistoryStore(store.db_path) as fresh:
        fresh.create_conversation(title="restored")
    changes = _poll(watch, memory, store)
    assert changes.replaced and changes.history
    store.close()
