"""`agenttui ask` (a real subprocess) on unfinished replies and reasoning models."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from . import formats


def ask(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "agenttui", "ask", *args], capture_output=True,
                          text=True, env=dict(os.environ), timeout=60, cwd=cwd)


@pytest.mark.slow
def test_a_cut_reply_exits_1_and_says_why_then_the_next_ask_works(fake_openai, tmp_path):
    fake_openai.raw(formats.openai_text(["Half", " of it"], finish="length"))
    proc = ask("tell me", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.strip() == "Half of it"
    assert "output token limit" in proc.stderr and "kept in history" in proc.stderr
    fake_openai.validator = formats.openai_checks
    fake_openai.raw(formats.openai_text(["Fine."]))
    again = ask("go on", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == "Fine."


@pytest.mark.slow
def test_reasoning_shows_thinking_on_stderr_not_stdout(fake_openai, tmp_path):
    fake_openai.raw(formats.groq_reasoning_reply(["secret", " musings"], ["Four."]))
    proc = ask("2+2?", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "Four."
    assert proc.stderr.count("thinking…") == 1 and "musings" not in proc.stderr + proc.stdout
