"""scripts/largest_definitions.py counts a definition's lines from def/class to its end."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "largest_definitions.py"


def load():
    spec = importlib.util.spec_from_file_location("largest_definitions", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sizes_of_nested_functions_and_classes():
    text = "class A:\n    def f(self):\n        return 1\n\n    x = 2\n\n\nasync def g():\n    pass\n"
    functions, classes = load().definitions({"src/m.py": text})
    assert classes == [(5, "m.py:A")]
    assert functions == [(2, "m.py:g"), (2, "m.py:f")]
