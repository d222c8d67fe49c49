"""Declarations: every package src/agenttui imports is a declared dependency with a floor.

The floors themselves are installed and run by scripts/check_floors.py (minutes:
a fresh venv); this checks, in a second, what that script relies on.
"""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# Imported only by code that builds or checks a shipped data file, never at run time: a test extra.
BUILD_TIME_ONLY = {"lemminflect": "core/recall/english_words.py builds english_words.tsv.gz from it"}
# Imported only by an optional feature, lazily, and declared in that feature's extra.
OPTIONAL: dict[str, str] = {}  # none now: NumPy, once the local embedder's extra, is a dependency


def check_floors_module():
    spec = importlib.util.spec_from_file_location("check_floors", ROOT / "scripts" / "check_floors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def imported_top_level_modules() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "src" / "agenttui").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return {m for m in found if m not in sys.stdlib_module_names and m not in ("agenttui", "__future__")}


def test_every_runtime_dependency_has_a_floor_and_the_constraints_pin_it():
    module = check_floors_module()
    floors = module.floors(ROOT / "pyproject.toml")
    declared = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    assert set(floors) == declared
    assert floors["openai"] == "3.16.1"  # the first our tests pass on (pyproject says why)
    text = module.constraints_text(floors)
    assert "openai==3.16.1\n" in text and len(text.splitlines()) == len(declared)
    assert module.same("4.10.0", "4.10") and not module.same("4.1.0", "4.10")


def test_a_dependency_without_a_floor_is_refused(tmp_path):
    module = check_floors_module()
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\ndependencies = ["rich>=14", "textual<9"]\n', encoding="utf-8")
    try:
        module.floors(pyproject)
    except ValueError as exc:
        assert "textual" in str(exc) and "rich" not in str(exc)
    else:
        raise AssertionError("a dependency without a floor was accepted")


def test_every_imported_package_is_declared():
    runtime = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    extras = {_name(r) for group in PYPROJECT["project"]["optional-dependencies"].values() for r in group}
    distributions = importlib.metadata.packages_distributions()
    undeclared = {}
    for module in sorted(imported_top_level_modules()):
        names = {d.lower().replace("_", "-") for d in distributions.get(module, [module])}
        if names & runtime:
            continue
        if module in BUILD_TIME_ONLY and names & extras:
            continue
        optional = PYPROJECT["project"]["optional-dependencies"].get(OPTIONAL.get(module, ""), [])
        if names & {_name(r) for r in optional}:
            continue
        undeclared[module] = sorted(names)
    assert not undeclared, f"imported by src/agenttui but not in [project].dependencies: {undeclared}"
