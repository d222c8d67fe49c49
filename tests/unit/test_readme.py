"""README's two set-up lines are the contract with a new user and with CI."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _setup_lines() -> list[str]:
    text = (ROOT / "README.md").read_text()
    head = text.split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", head)


def test_readme_has_exactly_two_setup_lines():
    lines = _setup_lines()
    assert len(lines) == 2, lines
    assert "agenttui" in lines[0] and "pytest" not in lines[0]
    assert "pytest" in lines[1]


def test_ci_runs_the_readme_test_line_verbatim():
    ci = (ROOT / ".ci" / "run").read_text()
    assert _setup_lines()[1] in ci.splitlines()
