"""Memory files: two processes never lose updates; SIGKILL never corrupts or loses an ack'd note.

Real child processes (``sys.executable -c``) against the same AGENTTUI_HOME
(inherited from the autouse fixture's environment).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from agenttui.core.config.settings import MemorySettings
from agenttui.core.memory.store import MemoryStore

WRITER = textwrap.dedent("""
    import sys
    from agenttui.core.memory.store import MemoryStore
    from agenttui.core.config.paths import Paths
    from agenttui.core.config.settings import MemorySettings

    tag, count, profile, scope = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    store = MemoryStore(Paths.from_env(), profile, MemorySettings(max_notes=100_000))
    print("ready", flush=True)
    for i in range(count):
        result = store.add_note(f"writer {tag} remembers item {i}", scope=scope)
        assert result.status == "added", result
        print(f"ack {i}", flush=True)
""")


def _spawn(tag: str, count: int, profile: str = "default", scope: str = "user") -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, tag, str(count), profile, scope],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ),
    )


#: Notes per writer: each add rewrites the whole file, so the cost grows with the square of the
#: total; two hundred each interleave thousands of read-modify-write steps, which is what can lose one.
PER_WRITER = 200


@pytest.mark.slow
def test_two_processes_adding_notes_at_once_lose_none(paths):
    children = [_spawn("a", PER_WRITER), _spawn("b", PER_WRITER)]
    for child in children:
        out, err = child.communicate(timeout=300)
        assert child.returncode == 0, err
        assert out.count("ack ") == PER_WRITER
    store = MemoryStore(paths, "default", MemorySettings(max_notes=100_000))
    texts = [i.text for i in store.items("user")]
    assert len(texts) == 2 * PER_WRITER
    expected = {f"writer {tag} remembers item {i}" for tag in "ab" for i in range(PER_WRITER)}
    assert set(texts) == expected
    assert store.problems == []


@pytest.mark.slow
def test_sigkill_at_random_moments_never_corrupts_or_loses_acked_notes(paths):
    rng = random.Random(20261121)
    trials = 40
    killed_mid_write = 0
    for trial in range(trials):
        profile = f"kill{trial}"
        child = _spawn(str(trial), 10_000, profile=profile, scope="profile")
        assert child.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.12))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate(timeout=30)
        acked = [int(line.split()[1]) for line in out.splitlines() if line.startswith("ack ")]
        path = paths.profile_memory_file(profile)
        if not path.exists():
            assert acked == []
            continue
        json.loads(path.read_text(encoding="utf-8"))  # parses: never torn
        store = MemoryStore(paths, profile, MemorySettings(max_notes=100_000))
        present = {i.text for i in store.items("profile")}
        assert store.problems == []
        missing = [n for n in acked if f"writer {trial} remembers item {n}" not in present]
        assert missing == [], (trial, missing)
        # at most one add can have completed without its ack being read
        assert len(present) - len(acked) in (0, 1)
        killed_mid_write += len(present) - len(acked)
        leftovers = [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")]
        assert all(name.startswith(".memory.json.") for name in leftovers)
    assert trials == 40
