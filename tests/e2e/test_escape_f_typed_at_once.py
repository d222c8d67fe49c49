"""Esc then "follow up" typed at once, in the installed command in a real pty.

The bytes ESC f are Option+Right in Textual's table (iTerm2): read with the typing after them,
Esc was lost and so was the "f" -- the Memory pane's add box kept "ollow up" as a note. Alone,
ESC f still moves the prompt's cursor a word (ui/escape_or_option_arrow.py). The pty's
cursor follows the prompt's (Textual places it there for input methods).
"""

from __future__ import annotations

import json

import pytest

from agenttui.core.config.paths import Paths
from tests.e2e.pty_terminal import PtyTerminal
from tests.e2e.test_tui_in_pty import AGENTTUI, agent_env

MEMORY_PANE_RIGHT = 27  # columns 0-26 at 120 columns


def panes_up(screen: str) -> bool:
    """The real panes, not the first frame's empty slots (whose early prompt reads keys otherwise)."""
    return "+ note / key=value" in screen and "search history" in screen


@pytest.mark.slow
def test_esc_and_a_message_in_one_write_leave_the_add_box_and_send_it(fake_openai, isolated_home, tmp_path):
    fake_openai.reply("Following up")
    env = agent_env(isolated_home, fake_openai.base_url)
    with PtyTerminal([str(AGENTTUI)], env=env, size=(120, 36), cwd=str(tmp_path)) as term:
        term.wait_for(panes_up, timeout=30)
        term.press("f2")
        term.wait_for(
            lambda screen: "+ note / key=value" in screen and term.screen.cursor.x < MEMORY_PANE_RIGHT, timeout=15
        )  # the cursor in the add box
        term.send("\x1bfollow up\r")  # Esc, the message and Enter: one write
        term.wait_for("Following up", timeout=20)
        term.press("ctrl+q")
        assert term.wait_exit(10) == 0
    assert fake_openai.last_messages()[-1] == {"role": "user", "content": "follow up"}
    memory_file = Paths.from_env({"AGENTTUI_HOME": str(isolated_home)}).user_memory_file
    assert not memory_file.exists() or json.loads(memory_file.read_text())["items"] == []


@pytest.mark.slow
def test_esc_f_alone_moves_the_prompt_cursor_a_word_and_types_nothing(fake_openai, isolated_home, tmp_path):
    env = agent_env(isolated_home, fake_openai.base_url)
    with PtyTerminal([str(AGENTTUI)], env=env, size=(120, 36), cwd=str(tmp_path)) as term:
        term.wait_for(panes_up, timeout=30)
        term.send("one two")
        term.wait_for("one two", timeout=15)
        row = next(y for y, line in enumerate(term.screen.display) if "one two" in line)
        start = term.screen.display[row].index("one two")
        term.press("\x1b[H")  # Home
        term.wait_for(lambda _: (term.screen.cursor.y, term.screen.cursor.x) == (row, start), timeout=15)
        term.send("\x1bf")  # Option+Right in iTerm2: the two bytes alone
        term.wait_for(lambda _: term.screen.cursor.x == start + len("one"), timeout=15)
        term.send("X")
        term.wait_for("oneX two", timeout=15)
        term.press("ctrl+q")
        assert term.wait_exit(10) == 0
