"""ctrl+q twice while /remember waits on another process's memory lock, in the installed command.

The first ctrl+q waits for the note and says so; the second quits at once. The note's write
runs in a thread the quit cannot stop, so the process lives on until it is done: the terminal
was left blank meanwhile (up to the lock's 30 s), like a hang. Now a line says what it waits for,
and the note is kept.
"""

from __future__ import annotations

import json

import pytest

from agenttui.core.config.paths import Paths
from tests.e2e.pty_terminal import PtyTerminal
from tests.e2e.test_escape_f_typed_at_once import panes_up
from tests.e2e.test_tui_in_pty import AGENTTUI, agent_env
from tests.ui.commands.memory_lock import lock_held_elsewhere, release


@pytest.mark.slow
def test_a_second_ctrl_q_says_what_the_process_still_waits_for(fake_openai, isolated_home, tmp_path):
    env = agent_env(isolated_home, fake_openai.base_url)
    memory_file = Paths.from_env({"AGENTTUI_HOME": str(isolated_home)}).user_memory_file
    with lock_held_elsewhere(memory_file) as holder, \
            PtyTerminal([str(AGENTTUI)], env=env, size=(120, 36), cwd=str(tmp_path)) as term:
        term.wait_for(panes_up, timeout=30)
        term.type("/remember I drink jasmine tea")
        term.wait_for("jasmine tea", timeout=15)
        term.press("enter")
        term.wait_for(lambda screen: "jasmine" not in screen, timeout=15)  # sent: it waits on the lock
        term.press("ctrl+q")
        term.wait_for("agenttui quits when /remember ends", timeout=15)
        term.press("ctrl+q")
        term.wait_for("/remember was still working when you quit", timeout=15)
        assert term.wait_exit(0.5) is None  # still alive: the write waits on the lock
        release(holder)
        assert term.wait_exit(30) == 0
    notes = [item["text"] for item in json.loads(memory_file.read_text())["items"]]
    assert notes == ["I drink jasmine tea"]
