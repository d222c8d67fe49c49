"""Daily memory backups with rotation, snapshots before destructive actions."""

from __future__ import annotations

import json
import stat
from datetime import date, timedelta

from agenttui.core.config.settings import MemorySettings
from agenttui.core.memory import file as memory_file
from agenttui.core.memory.backup import backup_memory_daily, daily_backups, snapshot_memory
from agenttui.core.memory.file import ScopeData
from agenttui.core.memory.store import MemoryStore
from agenttui.core.models import MemoryItem

GITHUB_TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"


def _seed(paths):
    store = MemoryStore(paths, "work", MemorySettings())
    store.add_note("user note")
    store.add_note("profile note", scope="profile")
    return store


def test_daily_backup_copies_every_memory_file_once_a_day(paths):
    _seed(paths)
    day = date(2026, 3, 1)
    made = backup_memory_daily(paths, keep=7, today=day)
    assert made == paths.memory_backups_dir / "2026-03-01"
    assert json.loads((made / "user.json").read_text())["items"][0]["text"] == "user note"
    profile = json.loads((made / "profiles/work/memory.json").read_text())
    assert profile["items"][0]["text"] == "profile note"
    assert stat.S_IMODE(made.stat().st_mode) == 0o700
    assert stat.S_IMODE((made / "user.json").stat().st_mode) == 0o600
    assert backup_memory_daily(paths, keep=7, today=day) is None  # no-op the same day
    assert not [p for p in made.parent.iterdir() if p.name.startswith(".")]  # no temp dirs left


def test_rotation_keeps_the_newest_n(paths):
    _seed(paths)
    start = date(2026, 1, 1)
    for n in range(10):
        backup_memory_daily(paths, keep=3, today=start + timedelta(days=n))
    assert [p.name for p in daily_backups(paths)] == ["2026-01-08", "2026-01-09", "2026-01-10"]


def test_no_memory_no_backup(paths):
    assert backup_memory_daily(paths, today=date(2026, 1, 1)) is None
    assert daily_backups(paths) == []


def test_backups_hold_redacted_text_even_after_a_hand_edit(paths):
    # A hand edit can put a secret into the file behind the gate's back.
    data = ScopeData("user", [MemoryItem(kind="note", scope="user", text=f"token {GITHUB_TOKEN}")])
    memory_file.write(paths.user_memory_file, data)
    made = backup_memory_daily(paths, today=date(2026, 1, 1))
    text = (made / "user.json").read_text()
    assert GITHUB_TOKEN not in text and "REDACTED" in text
    json.loads(text)
    paths.user_memory_file.write_text(f"corrupt {{ {GITHUB_TOKEN}")  # not JSON: still redacted
    snap = snapshot_memory(paths, "test")
    raw = (snap / "user.json").read_text()
    assert GITHUB_TOKEN not in raw and raw.startswith("corrupt")


def test_snapshots_are_separate_from_daily_rotation(paths):
    store = _seed(paths)
    first = store.reset("profile")
    second = snapshot_memory(paths, "remove")
    assert first != second and first.parent == second.parent == paths.memory_backups_dir / "snapshots"
    assert "reset-profile" in first.name
    assert json.loads((first / "profiles/work/memory.json").read_text())["items"][0]["text"] == "profile note"
    assert all(p.parent.name != "snapshots" for p in daily_backups(paths))
    assert store.items("profile") == [] and len(store.items("user")) == 1
