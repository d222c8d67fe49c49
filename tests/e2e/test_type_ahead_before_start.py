"""A message typed ahead at launch is sent when its text and Enter come in one write.

``agenttui`` followed at once by a paste, ``tmux send-keys "text" Enter`` (one write) or a fast
typist over ssh: the bytes reach the terminal while it is still in the shell's cooked mode, whose
line discipline turns the Enter into a line feed on arrival (ICRNL). The app used to read that as
ctrl+j: the text landed in the prompt with a new line and was never sent. The installed command
in a real pty, the write made while the terminal is still cooked (checked after the write)."""

from __future__ import annotations

import termios

import pytest

from tests.e2e.pty_terminal import PtyTerminal
from tests.e2e.test_tui_in_pty import AGENTTUI, agent_env


@pytest.mark.slow
def test_text_and_enter_in_one_write_before_the_app_reads_the_terminal_are_sent(
        fake_openai, isolated_home, tmp_path):
    fake_openai.reply("Hi early bird")
    env = agent_env(isolated_home, fake_openai.base_url)
    for _attempt in range(3):
        with PtyTerminal([str(AGENTTUI)], env=env, size=(120, 36), cwd=str(tmp_path)) as term:
            term.send("hello typed ahead\r")  # text and Enter: one write
            if not termios.tcgetattr(term.fd)[0] & termios.ICRNL:
                continue  # the app had left cooked mode already: not the case under test
            term.wait_for("Hi early bird", timeout=40)
            term.press("ctrl+q")
            assert term.wait_exit(10) == 0
            break
    else:
        pytest.fail("the app left cooked mode before the write, in three runs")
    assert fake_openai.last_messages()[-1] == {"role": "user", "content": "hello typed ahead"}
