"""A profile whose history is open in a running agenttui is not moved to the trash from under it.

The app kept writing into the moved database (nothing lost, but its new messages went to the
trash and connections opened later by path found no file). A history store with its database
open holds a claim (``core/config/profile_claims.py``); a deletion is refused while one is held.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from agenttui.core.config.paths import Paths
from agenttui.core.config.profile_claims import CLAIMS_DIR, STALE_AFTER_S, holders
from agenttui.core.config.profiles import ProfileInUse, ProfileStore
from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message


@pytest.fixture
def store(tmp_path) -> ProfileStore:
    profiles = ProfileStore(Paths(config_dir=tmp_path / "config", data_dir=tmp_path / "data"))
    profiles.create("work")
    return profiles


def _open_history(store: ProfileStore) -> HistoryStore:
    history = HistoryStore(store.paths.history_db("work"))
    conversation = history.create_conversation("kept")
    history.append(conversation.id, Message(role="user", content="hello"))
    return history


def test_a_profile_open_in_this_process_is_not_deleted_until_its_history_closes(store):
    history = _open_history(store)
    folder = store.paths.profile_dir("work")
    with pytest.raises(ProfileInUse, match="open in this agenttui"):
        store.delete("work")
    assert folder.is_dir() and store.paths.history_db("work").exists()

    history.close()
    trashed = store.delete("work")
    assert not folder.exists() and (trashed / "history.sqlite3").exists()


def test_a_profile_open_in_another_process_names_it_and_moves_nothing(store, tmp_path):
    db = store.paths.history_db("work")
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys
            from agenttui.core.history.store import HistoryStore
            store = HistoryStore({str(db)!r})
            store.create_conversation("held")
            print("open", flush=True)
            sys.stdin.readline()
            store.close()
            print("closed", flush=True)
        """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdin is not None
        assert child.stdout.readline().strip() == "open"
        with pytest.raises(ProfileInUse, match=rf"process {child.pid}\b"):
            store.delete("work")
        assert store.paths.profile_dir("work").is_dir()
        child.stdin.write("\n")
        child.stdin.flush()
        assert child.stdout.readline().strip() == "closed"
    finally:
        child.kill() if child.poll() is None else None
        child.wait(timeout=30)
    store.delete("work")
    assert "work" not in store.names()


def test_a_claim_dropped_in_another_thread_than_it_was_taken_in_is_gone(store):
    history = _open_history(store)
    folder = store.paths.profile_dir("work")
    assert holders(folder) == [os.getpid()]
    closer = threading.Thread(target=history.close)
    closer.start()
    closer.join(timeout=30)
    assert holders(folder) == []
    assert list((folder / CLAIMS_DIR).glob("*.lock")) == []


def test_the_claim_of_a_killed_process_does_not_block_and_is_cleaned_up_when_old(store):
    folder = store.paths.profile_dir("work")
    claims = folder / CLAIMS_DIR
    claims.mkdir(parents=True, exist_ok=True)
    stale, young = claims / "999999-dead.lock", claims / "999998-taking.lock"
    stale.write_bytes(b"")
    young.write_bytes(b"")
    old = time.time() - STALE_AFTER_S - 5
    os.utime(stale, (old, old))
    assert holders(folder) == []  # an unlocked file is nobody's claim
    assert not stale.exists()  # its process is gone: removed
    assert young.exists()  # maybe a claim being taken: left for the next look
    store.delete("work")
    assert "work" not in store.names()


def test_a_claim_still_held_at_exit_leaves_no_file_and_a_new_claim_sweeps_old_ones(store):
    """A store used again after its close claims anew and is never closed a second time."""
    folder = store.paths.profile_dir("work")
    db = store.paths.history_db("work")
    subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        from agenttui.core.history.store import HistoryStore
        store = HistoryStore({str(db)!r})
        store.create_conversation("one")
        store.close()
        store.list_conversations(limit=1)  # reopened, never closed again
    """)], check=True, timeout=120)
    assert list((folder / CLAIMS_DIR).glob("*.lock")) == []

    killed = folder / CLAIMS_DIR / "999999-killed.lock"
    killed.write_bytes(b"")
    old = time.time() - STALE_AFTER_S - 5
    os.utime(killed, (old, old))
    history = _open_history(store)
    assert not killed.exists()
    history.close()
