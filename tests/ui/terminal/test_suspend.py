"""Suspend and resume like other Textual apps: a stopped agenttui leaves the terminal as it
found it (cooked, echoing), and ``fg`` redraws the whole screen, not just the prompt."""

from __future__ import annotations

import os
import signal
import termios
from pathlib import Path

import pytest

from tests.ui.terminal.pty_app import PtyApp

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")


def _stopped(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] == "T"


def _env() -> dict[str, str]:
    # a key, so the chat comes up without the first-run dialog; no turn is sent
    return dict(os.environ, TERM="xterm-256color", OPENAI_API_KEY="sk-test-not-used",
                OPENAI_BASE_URL="http://127.0.0.1:9/v1")


def _panes_drawn(app: PtyApp) -> bool:
    text = app.text()
    return "History" in text and "Memory" in text


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a process state from /proc")
def test_sigtstp_gives_the_terminal_back_and_sigcont_redraws_everything(isolated_home):
    app = PtyApp(_env(), (100, 30))
    try:
        app.wait_for(lambda: _panes_drawn(app))
        os.kill(app.proc.pid, signal.SIGTSTP)  # as the shell's job control sends it
        app.wait_for(lambda: _stopped(app.proc.pid))
        modes = app.local_modes()
        assert modes & termios.ICANON and modes & termios.ECHO  # not left raw while stopped
        app.pump(0.3)
        app.screen.reset()  # the shell drew over it meanwhile
        os.kill(app.proc.pid, signal.SIGCONT)  # fg
        app.wait_for(lambda: not _stopped(app.proc.pid))
        app.wait_for(lambda: _panes_drawn(app))  # the whole screen, not only the prompt
        modes = app.local_modes()
        assert not modes & termios.ICANON  # the app has its keys again
    finally:
        app.close()



@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a process state from /proc")
def test_ctrl_backslash_suspends_from_the_prompt_and_fg_gives_the_keys_back(isolated_home):
    app = PtyApp(_env(), (100, 30))
    try:
        app.wait_for(lambda: _panes_drawn(app))
        app.write(b"\x1c")  # ctrl+\\ (the prompt keeps ctrl+z for undo)
        app.wait_for(lambda: _stopped(app.proc.pid))
        modes = app.local_modes()
        assert modes & termios.ICANON and modes & termios.ECHO
        os.kill(app.proc.pid, signal.SIGCONT)
        app.wait_for(lambda: not _stopped(app.proc.pid))
        app.write(b"back again")
        app.wait_for(lambda: "back again" in app.text())
    finally:
        app.close()
