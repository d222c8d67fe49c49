"""Lock timeouts: another process holds a file lock or the database.

The holder is a real second process (``multiprocessing`` would fork pytest;
a plain ``python -c`` is simpler and is what another agenttui would be).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from agenttui.cli import main
from agenttui.core import files

HOLD_FILELOCK = textwrap.dedent("""
    import sys, time
    from filelock import FileLock
    with FileLock(sys.argv[1]):
        print("held", flush=True)
        sys.stdin.read()  # until the test closes our stdin
""")

HOLD_DATABASE = textwrap.dedent("""
    import sqlite3, sys
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    conn.execute("BEGIN EXCLUSIVE")
    print("held", flush=True)
    sys.stdin.read()
""")


def hold(script: str, target: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", script, target], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def release(proc: subprocess.Popen) -> None:
    assert proc.stdin is not None
    proc.stdin.close()
    proc.wait(timeout=30)


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["memory", "add", "a note while locked"],
                                  ["memory", "set", "timezone", "UTC"]])
def test_a_memory_lock_held_elsewhere_is_a_clear_failure(argv, services, monkeypatch, capsys):
    path = services.paths.user_memory_file
    services.memory.add_note("already here", source="explicit")
    monkeypatch.setattr(files, "LOCK_TIMEOUT_S", 0.2)
    holder = hold(HOLD_FILELOCK, str(path.with_name(path.name + ".lock")))
    try:
        code = main(argv)
    finally:
        release(holder)
    err = capsys.readouterr().err
    assert code == 1
    assert "timed out waiting for the lock" in err and str(path) in err, err
    assert "Another agenttui process is using it" in err and "Traceback" not in err
    assert main(argv) == 0  # once released, the same command works
    assert "already here" in {i.display for i in services.memory.items("all")}


def test_a_database_locked_by_another_process_fails_clearly(services, monkeypatch, capsys):
    from agenttui.core.history.store import HistoryError, HistoryStore

    db = services.paths.history_db("default")
    with HistoryStore(db) as store:
        store.create_conversation(title="first")
    holder = hold(HOLD_DATABASE, str(db))
    try:
        store = HistoryStore(db, busy_timeout=0.2)
        with pytest.raises(HistoryError) as caught:
            store.rename(store.list_conversations()[0].id, "renamed")
        store.close()
    finally:
        release(holder)
    from agenttui.core.errors import explain

    message = explain(caught.value)
    assert message and "locked" in message and str(db) in message
    assert "Another agenttui process is using it" in message
