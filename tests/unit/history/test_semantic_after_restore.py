"""Semantic recall follows the history database to the file a restore puts at its path.

Found with two agenttui apps running while ``agenttui restore`` ran in a shell: the apps'
history reopened the restored file, but semantic recall's own connection stayed on the
old one, moved to the trash (open in /proc/PID/fd): the new messages were never given a
vector, and rankings were read from the old file. The app's data watcher now hands the
swap on (``semantic.history_replaced``), as it closes the history store.
"""

from __future__ import annotations

import sqlite3
import threading
import time

from agenttui.core.backup.archive import create_backup, restore_backup
from agenttui.core.models import Message
from agenttui.core.recall.semantic import history_replaced, run_background


def _vectors_at_the_path(services) -> int:
    conn = sqlite3.connect(str(services.history.db_path))
    try:
        return int(conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0])
    finally:
        conn.close()


def _until(predicate, what: str) -> None:
    deadline = time.monotonic() + 30
    while not predicate():
        assert time.monotonic() < deadline, f"timed out: {what}"
        time.sleep(0.02)


def test_the_background_worker_indexes_the_restored_file(fake_openai, services, paths, tmp_path):
    history = services.history
    cid = history.create_conversation("seeded").id
    history.append_many(cid, [Message("user", "first old text"), Message("assistant", "second old text")])
    archive = create_backup(paths, tmp_path / "before.tar.gz")  # its history has no vectors yet
    services.settings.recall.semantic = True
    stop = threading.Event()
    worker = threading.Thread(
        target=run_background, args=(services,), kwargs={"stop": stop, "notify": lambda _: None, "idle": 0.05}
    )
    worker.start()
    try:
        _until(lambda: _vectors_at_the_path(services) == 2, "the first file indexed")
        restore_backup(paths, archive)  # as `agenttui restore` from another shell
        history.close()  # what the app's data watcher does when it sees the file swapped
        history_replaced(services)
        _until(lambda: _vectors_at_the_path(services) == 2, "the restored file indexed")
        history.append(cid, Message("user", "a text written after the restore"))
        _until(lambda: _vectors_at_the_path(services) == 3, "a new message indexed")
        assert worker.is_alive()
    finally:
        stop.set()
        worker.join(timeout=10)
    assert not worker.is_alive()
