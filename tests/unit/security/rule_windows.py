"""What the generated-rule scan tests compare with: the rule sets' own examples, and every
window of a windowed rule searched with plain ``finditer`` (no skipping)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agenttui.security import gitleaks_scan

DATA = Path(__file__).parent / "data"


def rule_set_examples() -> list[str]:
    """Every true-positive example of the three generated rule sets, in file order."""
    parts: list[str] = []
    for name in ("gitleaks", "noseyparker", "kingfisher"):
        data = json.loads((DATA / f"{name}_examples.json").read_text())
        parts += [tp for ex in data["rules"].values() for tp in ex["tps"]]
    return parts


def every_window(rule: Any, text: str, starts: list[int]) -> Iterator[Any]:
    """The matches ``_windowed`` finds when it searches every window around ``starts``."""
    n, covered = len(text), -1
    for p in starts:
        if p < covered:
            continue
        lo, hi = max(0, p - gitleaks_scan.BEFORE), min(n, p + gitleaks_scan.AFTER)
        covered = p + gitleaks_scan.STRIDE
        for m in rule.regex.finditer(text, lo, hi):
            if m.end() >= hi and hi < n:
                m = rule.regex.search(text, m.start(), min(n, m.start() + gitleaks_scan.LONG)) or m
            yield m
