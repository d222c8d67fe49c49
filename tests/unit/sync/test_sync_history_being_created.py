"""A sync that runs while the app is creating a profile's history (the file there, its tables not
yet) sends nothing of it and goes on; it failed as "no such table: conversations. The file is
damaged" (seen in the in-app sync test on a loaded machine)."""

from __future__ import annotations

from agenttui.core.config.paths import Paths
from agenttui.core.files import ensure_dir
from agenttui.core.history.store import HistoryStore
from agenttui.sync import engine

PASSPHRASE = "correct horse battery staple"


def test_a_history_file_without_its_tables_yet_is_skipped(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTTUI_SYNC_PASSPHRASE", PASSPHRASE)
    folder = tmp_path / "Sync"
    a = Paths(config_dir=tmp_path / "a" / "config", data_dir=tmp_path / "a" / "data")
    b = Paths(config_dir=tmp_path / "b" / "config", data_dir=tmp_path / "b" / "data")
    engine.init(b, "folder", str(folder), "b", PASSPHRASE)
    engine.init(a, "folder", str(folder), "a", PASSPHRASE)
    ensure_dir(b.profile_dir("default"))
    with HistoryStore(b.history_db("default")) as store:
        store.create_conversation(title="Planned on machine b")
    engine.sync_now(b)

    ensure_dir(a.profile_dir("default"))
    a.history_db("default").touch()  # the store's first step: an empty private file

    outcome = engine.sync_now(a)
    assert outcome.received >= 1
    with HistoryStore(a.history_db("default")) as store:
        assert [c.title for c in store.list_conversations()] == ["Planned on machine b"]
