"""Fixtures for the MCP tests: real servers from PyPI (mcp-server-time,
mcp-server-git, installed by the test extra) and tests/mcp/hostile_server.py."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.unit.cli.conftest import cli, file_keyring  # noqa: F401 -- shared fixtures

HERE = Path(__file__).resolve().parent
HOSTILE = str(HERE / "hostile_server.py")
BIN = Path(sys.executable).parent


def server_bin(name: str) -> str:
    path = BIN / name
    if not path.exists():
        pytest.skip(f"{name} is not installed (pip install -e '.[test]' installs it)")
    return str(path)


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as gone: it has exited)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def processes_with(marker: str) -> list[int]:
    """Pids of live processes whose command line contains ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if marker.encode() in f.read() and alive(int(entry)):
                        found.append(int(entry))
            except OSError:
                continue
    return found


def wait_until(predicate, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@pytest.fixture
def http_server():
    """The hostile server over streamable HTTP on a free loopback port: yields its URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, HOSTILE, "--http", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def up() -> bool:
            with socket.socket() as c:
                return c.connect_ex(("127.0.0.1", port)) == 0
        assert wait_until(up, 30), "the HTTP test server did not start"
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
