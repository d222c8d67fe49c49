"""A restore while the app runs: semantic recall lets go of the old file too, not only the
history store (core/recall/semantic.history_replaced; the worker's side is in
tests/unit/history/test_semantic_after_restore.py)."""

from __future__ import annotations

import pytest

from agenttui.core.backup.archive import create_backup, restore_backup
from agenttui.core.recall.semantic import semantic_state
from agenttui.ui.app import make_app
from tests.ui.data.test_data_on_disk_changes import _baseline_taken
from tests.ui.helpers import chat, wait_until

SIZE = (120, 36)


@pytest.mark.slow
async def test_the_semantic_index_of_the_replaced_file_is_closed(chat_services, paths, tmp_path):
    chat_services.history.create_conversation(title="in the backup")
    archive = create_backup(paths, tmp_path / "before.tar.gz")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        await _baseline_taken(pilot, app)
        before = semantic_state(chat_services)
        before.index.pending_count()  # its connection open on the file at the path
        restore_backup(paths, archive)  # as `agenttui restore` from another shell
        await wait_until(pilot, lambda: any(n[1] == "Data changed on disk" for n in app.notices), timeout=30)
        assert before.file_replaced
        assert semantic_state(chat_services) is not before  # the next use opens the restored file
