"""scripts/move_core_modules.py on a small repository in the old layout.

The script is run for real (git, ruff, the import check) on a tree holding every module of
its table as a stub, then run again: the second run must change nothing. The stubs carry
the forms that are easy to get wrong: a function named like the module it moves into
(``context.assemble``), ``from agenttui.core import x`` kept under its old local name, a
relative import inside a moved module, names inside strings (monkeypatch targets, ``-c``
code), the data files' ``importlib.resources`` anchor, and paths and module roles in docs.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "move_core_modules.py"

pytestmark = pytest.mark.slow  # git, ruff and two runs of the script: about a second


def _table():
    spec = importlib.util.spec_from_file_location("move_core_modules", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


STUBS = {
    "core/context.py": "def assemble() -> int:\n    return 1\n",
    "core/memory_file.py": "def parse() -> int:\n    return 2\n",
    "core/recall_text.py": "def words() -> str:\n    return 'w'\n",
    "core/retrieval.py": "from .recall_text import words\n\n\ndef recall() -> str:\n    return words()\n",
    "core/english_words.py": (
        "from importlib import resources\n\n\n"
        "def raw() -> bytes:\n"
        '    return resources.files("agenttui.core").joinpath("data/english_words.tsv.gz").read_bytes()\n'),
    "agent/tool_spec.py": "class ToolSpec:\n    pass\n",
    "agent/tools.py": "from agenttui.agent.tool_spec import ToolSpec\n\n\nclass ToolRegistry(ToolSpec):\n    pass\n",
}
CALLER = '''\
from agenttui.core import memory_file
from agenttui.core.context import assemble

from .helper import VALUE

TARGET = "agenttui.core.retrieval.recall"
CODE = "from agenttui.core import recall_text; print(recall_text.words())"


def run() -> tuple[object, int, int]:
    from agenttui.agent.tools import ToolRegistry

    return ToolRegistry, memory_file.parse(), assemble() + VALUE
'''
DOC = """# Architecture

The gate is `core/memory_gate.py` (:mod:`memory_gate`); the shell tool is `agent/tool_shell.py`
(:func:`shell_risk` rates commands, :func:`shell_risk.shell_risk` too);
the words come from `core/data/english_words.tsv.gz`.

Imports point down only:
"""


def _old_layout(root: Path, extra: dict[str, str] | None = None) -> None:
    table = _table()
    src = root / "src" / "agenttui"
    files = {"__init__.py": "", "core/__init__.py": "", "agent/__init__.py": ""}
    files |= {old: f'"""Stub of {old}."""\n' for old, _ in table.MOVES}
    files |= {name: f'"""Stub of {name}."""\n' for name in table.STAY}
    files |= STUBS | (extra or {})
    for name, text in files.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text, encoding="utf-8")
    for old, _ in table.DATA_MOVES:
        (src / old).parent.mkdir(parents=True, exist_ok=True)
        (src / old).write_bytes(b"gz")
    (root / "tests").mkdir()
    (root / "tests" / "caller.py").write_text(CALLER, encoding="utf-8")
    (root / "tests" / "__init__.py").write_text("", encoding="utf-8")
    (root / "tests" / "helper.py").write_text("VALUE = 2\n", encoding="utf-8")  # a relative import, not ours
    (root / "docs").mkdir()
    (root / "docs" / "architecture.md").write_text(DOC, encoding="utf-8")
    for folder in ("bench", "scripts"):
        (root / folder).mkdir()
        (root / folder / "keep.py").write_text('"""Nothing."""\n', encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.importlinter]\nforbidden_modules = ["agenttui.core.memory_file"]\n', encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)


def _move(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True,
                          timeout=120)


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and ".git" not in p.parts and "__pycache__" not in p.parts}


def test_the_move_rewrites_every_form_and_a_second_run_changes_nothing(tmp_path):
    _old_layout(tmp_path)
    first = _move(tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    src = tmp_path / "src" / "agenttui"
    assert not (src / "core" / "context.py").exists()
    assert (src / "core" / "recall" / "data" / "english_words.tsv.gz").read_bytes() == b"gz"
    init = (src / "core" / "context" / "__init__.py").read_text()
    assert init.startswith('"""') and "import" not in init  # no import in a package: lazy stays lazy

    caller = (tmp_path / "tests" / "caller.py").read_text()
    assert "from agenttui.core.memory import file as memory_file" in caller
    assert "from agenttui.core.context.assemble import assemble" in caller  # the function, not the module
    assert '"agenttui.core.recall.retrieval.recall"' in caller
    assert "from agenttui.core.recall import text as recall_text; print(recall_text.words())" in caller
    assert "from agenttui.agent.tools.registry import ToolRegistry" in caller
    assert "from .helper import VALUE" in caller
    assert "from agenttui.core.recall.text import words" in (src / "core/recall/retrieval.py").read_text()
    assert 'resources.files("agenttui.core.recall")' in (src / "core/recall/english_words.py").read_text()
    doc = (tmp_path / "docs" / "architecture.md").read_text()
    for new in ("`core/memory/gate.py`", ":mod:`memory.gate`", "`agent/tools/shell.py`",
                "`core/recall/data/english_words.tsv.gz`", "| `core/context/` |",
                ":func:`shell_risk` rates", ":func:`tools.shell_risk.shell_risk` too"):
        assert new in doc, new
    assert '"agenttui.core.memory.file"' in (tmp_path / "pyproject.toml").read_text()

    # The rewritten code runs: every import resolves, each name is the one it was.
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "src") + os.pathsep + str(tmp_path)}
    ran = subprocess.run([sys.executable, "-c", "from tests.caller import run, CODE; print(run()[1:]); exec(CODE)"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert ran.stdout.split() == ["(2,", "3)", "w"], ran.stderr

    staged = subprocess.run(["git", "diff", "--name-only"], cwd=tmp_path, capture_output=True, text=True)
    assert staged.stdout == ""  # everything it changed is staged, nothing is left unstaged
    before = _snapshot(tmp_path)
    second = _move(tmp_path)
    assert second.returncode == 0, second.stderr
    assert "moved 0 files, rewrote 0 files" in second.stdout
    assert _snapshot(tmp_path) == before


def test_a_module_the_tables_do_not_place_stops_it_before_anything_moves(tmp_path):
    _old_layout(tmp_path, {"core/surprise.py": '"""New on main."""\n'})
    done = _move(tmp_path)
    assert done.returncode == 1
    assert "core/surprise.py" in done.stderr
    assert (tmp_path / "src/agenttui/core/context.py").exists()


def test_an_import_that_does_not_resolve_fails_loudly(tmp_path):
    _old_layout(tmp_path, {"core/tokens.py": "from agenttui.core.context import no_such_name\n"})
    done = _move(tmp_path)
    assert done.returncode == 1
    assert "agenttui.core.context.assemble has no no_such_name" in done.stderr
