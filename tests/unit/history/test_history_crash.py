"""Crash safety: SIGKILL at random instants loses no acked message.

A child process appends messages in a loop and prints an ack line after each
``append`` returned. The parent kills it with SIGKILL at a seeded random
moment, then checks ``PRAGMA integrity_check`` (and the FTS index) and that
every acked message is in the database. The next trial appends to the same
file, so recovery from each crash is exercised by the following one.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from agenttui.core.history.store import HistoryStore

TRIALS = 30

_CHILD = textwrap.dedent("""
    import sys
    from pathlib import Path
    from agenttui.core.history.store import HistoryStore
    from agenttui.core.models import Message, ToolCall

    db, cid, trial = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    store = HistoryStore(db)
    print("ready", flush=True)
    i = 0
    while True:
        if i % 7 == 0:  # a bulk write now and then: a larger transaction to interrupt
            batch = [Message("assistant", f"t{trial}-m{i + k} " + "filler words " * 40,
                             tool_calls=[ToolCall(f"c{i}", "shell", '{"cmd": "ls"}')])
                     for k in range(5)]
            store.append_many(cid, batch)
            i += 5
        else:
            store.append(cid, Message("user", f"t{trial}-m{i} hello"))
            i += 1
        print(i, flush=True)  # every message below i is stored: append returned
""")


def _run_trial(db_path, cid, trial, script, rng) -> int:
    child = subprocess.Popen([sys.executable, str(script), str(db_path), cid, str(trial)],
                             stdout=subprocess.PIPE, text=True, env={**os.environ})
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(child.stdout), daemon=True)
    reader.start()
    deadline = time.monotonic() + 30
    while "ready\n" not in lines:
        assert child.poll() is None and time.monotonic() < deadline, "child did not start"
        time.sleep(0.005)
    time.sleep(rng.uniform(0.0, 0.25))
    child.send_signal(signal.SIGKILL)
    child.wait()
    reader.join(timeout=10)
    acked = [int(line) for line in lines if line.endswith("\n") and line.strip().isdigit()]
    return max(acked, default=0)


@pytest.mark.slow
def test_sigkill_never_loses_an_acked_message_nor_corrupts(db_path, tmp_path):
    script = tmp_path / "append_forever.py"
    script.write_text(_CHILD)
    setup = HistoryStore(db_path)
    cid = setup.create_conversation(title="crash trials").id
    setup.close()
    total_acked = 0
    for trial in range(TRIALS):
        rng = random.Random(trial)
        acked = _run_trial(db_path, cid, trial, script, rng)
        total_acked += acked
        conn = sqlite3.connect(str(db_path), isolation_level=None)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok", f"trial {trial}"
        conn.execute("INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)")
        stored = {row[0].split()[0] for row in conn.execute(
            "SELECT content FROM messages WHERE content LIKE ?", (f"t{trial}-m%",))}
        conn.close()
        missing = [i for i in range(acked) if f"t{trial}-m{i}" not in stored]
        assert not missing, f"trial {trial}: acked but lost {missing[:5]}"
    assert total_acked > TRIALS  # the kills really landed mid-loop, after some appends

    store = HistoryStore(db_path)  # and the store still opens and counts consistently
    assert store.get_conversation(cid).message_count == store.count_messages(cid)
    store.close()
