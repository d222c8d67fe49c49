"""End to end: the installed ``agenttui`` command in a real pseudo-terminal.

A user's session, watched on a pyte screen: the three panes appear, a message
goes to the fake server and its reply shows, ``/remember`` saves a note,
ctrl+q quits; then history and memory are checked on disk.
"""

from __future__ import annotations

import json
import os
import sys
import termios
import time
from pathlib import Path

import pytest

from agenttui.core.config.paths import Paths
from agenttui.core.history.store import HistoryStore
from tests.e2e.pty_terminal import PtyTerminal

AGENTTUI = Path(sys.executable).parent / "agenttui"


def agent_env(home: Path, base_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AGENTTUI_"))}
    env.update(
        AGENTTUI_HOME=str(home), OPENAI_BASE_URL=base_url, OPENAI_API_KEY="sk-test-fake",
        TERM="xterm-256color", COLUMNS="120", LINES="36",
        PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",  # never the real keyring
    )
    return env


@pytest.mark.slow
def test_chat_remember_quit_then_check_disk(fake_openai, isolated_home, tmp_path):
    assert AGENTTUI.exists(), f"install the package first: {AGENTTUI}"
    fake_openai.reply("Hi from the fake server")
    env = agent_env(isolated_home, fake_openai.base_url)
    with PtyTerminal([str(AGENTTUI)], env=env, size=(120, 36), cwd=str(tmp_path)) as term:
        term.wait_for(lambda s: all(f"─ {t} ─" in s for t in ("Memory", "Chat", "History")), timeout=20)
        # At once, in one write with its Enter (a fast typist, a paste, tmux send-keys): the
        # panes may still be slots or being swapped in; nothing typed may be lost.
        term.send("hello agent\r")
        term.wait_for("Hi from the fake server", timeout=20)
        # One write with its Enter, as a paste or a fast typist delivers it: the
        # Enter must not overtake the characters queued before it.
        term.send("/remember I like short answers\r")
        term.wait_for("Remembered", timeout=10)
        term.press("ctrl+q")
        assert term.wait_exit(10) == 0

    paths = Paths.from_env({"AGENTTUI_HOME": str(isolated_home)})
    memory = json.loads(paths.user_memory_file.read_text())
    assert [item["text"] for item in memory["items"]] == ["I like short answers"]
    with HistoryStore(paths.history_db("default")) as history:
        conversation = history.latest_conversation()
        stored = [(m.role, m.content) for m in history.messages(conversation.id)]
    assert stored == [("user", "hello agent"), ("assistant", "Hi from the fake server")]
    assert fake_openai.last_messages()[-1] == {"role": "user", "content": "hello agent"}


def early_mode(attrs: list) -> bool:
    """The terminal as ``cli.early_keys`` sets it: CR kept, not yet Textual's raw mode (ISIG still on)."""
    return not attrs[0] & termios.ICRNL and bool(attrs[3] & termios.ISIG)


def raw_mode(attrs: list) -> bool:
    """Textual's raw mode: signals off too."""
    return not attrs[3] & termios.ISIG


@pytest.mark.slow
def test_an_enter_typed_while_the_app_starts_sends_the_message(fake_openai, isolated_home, tmp_path):
    """Keys typed after launch and before Textual's raw mode: the Enter used to arrive as ctrl+j
    (the terminal's ICRNL), a new line in the prompt; the message was never sent.

    The window is a few hundred ms; a busy machine may keep this test from looking in it, so
    a run that first sees Textual's raw mode is tried again (three runs)."""
    fake_openai.reply("Hi early bird")
    env = agent_env(isolated_home, fake_openai.base_url)
    for _attempt in range(3):
        with PtyTerminal([str(AGENTTUI)], env=env, size=(120, 36), cwd=str(tmp_path)) as term:
            before = termios.tcgetattr(term.fd)
            assert before[0] & termios.ICRNL  # a fresh pty is cooked, as a shell leaves it
            deadline = time.monotonic() + 30
            attrs = before
            while not early_mode(attrs) and not raw_mode(attrs) and time.monotonic() < deadline:
                time.sleep(0.001)
                attrs = termios.tcgetattr(term.fd)
            if not early_mode(attrs):
                continue  # raw mode came first (or nothing did): this run missed the window
            term.send("hello agent\r")  # Textual has not read the terminal yet
            term.wait_for("Hi early bird", timeout=30)
            term.press("ctrl+q")
            assert term.wait_exit(10) == 0
            after = termios.tcgetattr(term.fd)
            break
    else:
        pytest.fail("the terminal never left cooked mode before Textual's raw mode, in three runs")
    assert fake_openai.last_messages()[-1] == {"role": "user", "content": "hello agent"}
    assert after[:6] == before[:6], "the terminal is left as it was found"
