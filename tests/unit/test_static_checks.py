"""The static checks run with the tests, so `.ci/run` (README's
test line) fails when one does: ruff, mypy and the import-linter contracts, all
configured in pyproject.toml (what each checks, and why each exception, is
written there). A failure shows the tool's own report.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=280)


def _report(done: subprocess.CompletedProcess[str]) -> str:
    return f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"


def test_ruff_finds_nothing() -> None:
    done = _run(sys.executable, "-m", "ruff", "check", "--no-cache", ".")
    assert done.returncode == 0, _report(done)


def test_mypy_finds_nothing() -> None:
    done = _run(sys.executable, "-m", "mypy")  # files, strictness per package: [tool.mypy]
    assert done.returncode == 0, _report(done)


def test_import_contracts_are_kept() -> None:
    script = Path(sys.executable).with_name("lint-imports")
    command = str(script) if script.exists() else shutil.which("lint-imports")
    if command is None:
        pytest.fail("lint-imports is not installed: pip install -e '.[test]'")
    done = _run(command, "--no-cache")
    assert done.returncode == 0, _report(done)
    assert "0 broken" in done.stdout, _report(done)
