"""No MCP server outlives agenttui: quit, SIGTERM, and agenttui killed outright.
The real ``agenttui`` command in a pseudo-terminal,
one hostile server configured; the server's argv carries a marker so the test
finds it among the machine's processes."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from tests.e2e.pty_terminal import PtyTerminal
from tests.mcp.conftest import HOSTILE, processes_with, wait_until

AGENTTUI = Path(sys.executable).parent / "agenttui"


@pytest.mark.slow
@pytest.mark.parametrize("how", ["quit", "sigterm", "sigkill"])
def test_no_server_left_after_the_app_ends(how, isolated_home, tmp_path):
    from agenttui.core.config.paths import Paths
    from agenttui.mcp.config import servers_table, update

    assert AGENTTUI.exists(), f"install the package first: {AGENTTUI}"
    marker = f"mcp-orphan-check-{how}-{os.getpid()}"
    paths = Paths.from_env({"AGENTTUI_HOME": str(isolated_home)})
    update(paths, lambda mcp: servers_table(mcp, "user", "default").__setitem__(
        "bad", {"command": sys.executable, "args": [HOSTILE, marker]}))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AGENTTUI_"))}
    env.update(AGENTTUI_HOME=str(isolated_home), TERM="xterm-256color",
               OPENAI_BASE_URL="http://127.0.0.1:9/v1", OPENAI_API_KEY="sk-test-fake",
               PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
    with PtyTerminal([str(AGENTTUI)], env=env, size=(120, 36), cwd=str(tmp_path)) as term:
        term.wait_for(lambda s: "Chat" in s, timeout=30)
        assert wait_until(lambda: bool(processes_with(marker)), 30), "the server did not start"
        if how == "quit":
            term.press("ctrl+q")
        else:
            os.kill(term.pid, signal.SIGTERM if how == "sigterm" else signal.SIGKILL)
        status = term.wait_exit(20)
    # quit and SIGTERM end the app normally (it stops the servers itself); SIGKILL cannot be
    # caught: the server sees end-of-file on its stdin and exits on its own
    assert status == (-signal.SIGKILL if how == "sigkill" else 0), status
    assert wait_until(lambda: not processes_with(marker), 20), f"the MCP server outlived the app ({how})"
