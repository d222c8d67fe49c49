"""No model-controlled string can act on the terminal through the CLI.

A scripted hostile model (real ``openai`` client in a real ``agenttui ask``
subprocess, against the loopback fake server) puts an OSC 52 clipboard write
and a title change into everything it controls: a tool name, tool arguments, a
shell command, a note, its reply; the endpoint puts one into an error message.
Then the listings that print what the model wrote (history list/show/search,
memory list, ask --dry-run, their --json forms) are read back. Nothing in any output may be a
raw ESC, BEL, C1 control or bidi control; the payload must still be visible.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"  # sets the clipboard to "rm -rf ~"
TITLE = "\x1b]0;owned\x1b\\"
C1_CSI = "\x9b2J"  # 8-bit CSI: clear screen
BIDI = "\u202e"
ACTING = ["\x1b", "\x07", "\x9b", "\x9c", "\x9d", "\x90", "\u202e", "\u2066", "\r"]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "agenttui", *args], capture_output=True,
                          env=dict(os.environ), timeout=60, cwd=cwd)
    out, err = proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")
    for stream in (out, err):
        assert not [c for c in ACTING if c in stream], (args, stream)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.mark.slow
def test_hostile_strings_reach_no_output_raw(fake_openai, tmp_path):
    hostile = f"{OSC52}{TITLE}{C1_CSI}{BIDI}"
    fake_openai.tool_calls([
        (f"evil{OSC52}", {"x": 1}),
        ("run_shell", {"command": f"echo hi {TITLE}; echo {OSC52}"}),
        ("remember", {"text": f"The user likes tea {hostile}"}),
    ])
    fake_openai.reply(f"Here you go {hostile} done.\r\n")
    proc = run("ask", "help me", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Here you go \\x1b]52;c;cm0gLXJmIH4=\\x07" in proc.stdout  # visible, inert
    assert "evil\\x1b]52;c;cm0gLXJmIH4=\\x07" in proc.stderr  # the tool name
    assert "echo hi \\x1b]0;owned\\x1b\\; echo \\x1b]52" in proc.stderr  # the exact command
    assert "The user likes tea" in proc.stderr  # the gate's refusal quotes the note, inert

    conversations = json.loads(run("history", "list", "--json", cwd=tmp_path).stdout)
    shown = run("history", "show", conversations[0]["id"], cwd=tmp_path)
    assert shown.returncode == 0 and "\\x1b]52;c;cm0gLXJmIH4=\\x07" in shown.stdout
    for args in (["history", "list"], ["history", "search", "tea"], ["history", "search", "tea", "--json"],
                 ["memory", "list"], ["memory", "list", "--json"], ["memory", "audit", "--all"],
                 ["ask", "--dry-run", "next"], ["ask", "--dry-run", "--json", "next"]):
        listing = run(*args, cwd=tmp_path)
        assert listing.returncode == 0, (args, listing.stderr)
        if "--json" in args:
            json.loads(listing.stdout)  # still valid JSON: the same values, escaped
    fake_openai.status(400, message=f"bad request {OSC52}{TITLE}")
    failed = run("ask", "again", cwd=tmp_path)
    assert failed.returncode == 1 and "\\x1b]52" in failed.stderr
