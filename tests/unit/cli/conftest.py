"""Run ``python -m agenttui`` as a real subprocess against the test's AGENTTUI_HOME."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(isolated_home, tmp_path):
    """``cli("profile", "list", input="...", cwd=..., env={...})`` -> Result.

    stdin is a pipe (never a terminal), so destructive commands refuse unless a test passes
    ``stdin=`` itself. The repo root is on PYTHONPATH so the file keyring
    fake (tests.fakes.memory_keyring.FileKeyring) can be loaded by keyring.
    """

    def run(*args: str, input: str = "", cwd: Path | None = None,
            env: dict[str, str] | None = None, stdin=None) -> Result:
        environ = dict(os.environ)
        environ["PYTHONPATH"] = os.pathsep.join(
            [str(REPO), str(REPO / "src"), environ.get("PYTHONPATH", "")])
        environ.update(env or {})
        kwargs = {"stdin": stdin} if stdin is not None else {"input": input}
        proc = subprocess.run([sys.executable, "-m", "agenttui", *args], capture_output=True,
                              text=True, cwd=cwd or tmp_path, env=environ, timeout=60, **kwargs)
        return Result(proc.returncode, proc.stdout, proc.stderr)

    return run


@pytest.fixture
def file_keyring(tmp_path):
    """Env for a subprocess whose keyring is a JSON file the test can inspect."""
    path = tmp_path / "keyring.json"
    return path, {"PYTHON_KEYRING_BACKEND": "tests.fakes.memory_keyring.FileKeyring",
                  "AGENTTUI_TEST_KEYRING_FILE": str(path)}
