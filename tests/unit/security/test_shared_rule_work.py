"""The generated rules' shortcuts change nothing but speed.

- `literal_led` rewrites a leading `\\b` + literal so `re` can scan for the
  literal; the rewritten regex must find exactly what the original finds.
- rules that share a pattern run it once (`find_rule_matches`): each rule
  still reports its own matches.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from agenttui.security import gitleaks_scan
from agenttui.security.gitleaks_scan import literal_led

DATA = Path(__file__).parent / "data"


def _examples() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name in ("gitleaks", "noseyparker", "kingfisher"):
        data = json.loads((DATA / f"{name}_examples.json").read_text())
        for rule_id, ex in data["rules"].items():
            out.setdefault(rule_id, []).extend(ex["tps"] + ex.get("fps", []))
    return out


def test_literal_led_rewrites_a_leading_boundary_only() -> None:
    assert literal_led(r"\bcurl\b(?:.*)") == r"curl(?<!\wcurl)\b(?:.*)"
    assert literal_led(r"(?i)\bcurl") == r"(?i)\bcurl"
    assert literal_led(r"curl") == r"curl"
    # In a leading capturing group too, unless the group has alternatives or repeats.
    assert literal_led(r"\b(ey[a-z]{12,})\b") == r"(ey(?<!\wey)[a-z]{12,})\b"
    assert literal_led(r"\b(ey[|)]x(?:a|b))") == r"(ey(?<!\wey)[|)]x(?:a|b))"
    assert literal_led(r"\b(ey[a-z]{3}|x)") == r"\b(ey[a-z]{3}|x)"
    assert literal_led(r"\b(ey)+") == r"\b(ey)+"
    assert literal_led(r"\b(?:ey)") == r"\b(?:ey)"


def test_literal_led_finds_what_the_original_finds() -> None:
    examples = _examples()
    rewritten = [r for r in gitleaks_scan.compiled().rules if literal_led(r.pattern) != r.pattern]
    assert rewritten, "no generated rule starts with \\b and a literal any more: drop the rewrite"
    for rule in rewritten:
        original = re.compile(rule.pattern, re.ASCII)
        literal = re.match(r"\\b\(?([A-Za-z0-9_]+)", rule.pattern).group(1)  # type: ignore[union-attr]
        texts = [*examples.get(rule.id, []), *(f"{p}{t}" for t in examples.get(rule.id, []) for p in ("x", " ", "_"))]
        texts += [f"{literal} {literal}", f"x{literal}", f"{literal}x", literal.upper()]
        for text in texts:
            for pos in (0, 1):
                got = [(m.span(), m.groups()) for m in rule.regex.finditer(text, pos)]
                want = [(m.span(), m.groups()) for m in original.finditer(text, pos)]
                assert got == want, (rule.id, text)


def test_rules_sharing_a_pattern_each_report_their_matches() -> None:
    c = gitleaks_scan.compiled()
    by_pattern: dict[str, list[str]] = {}
    for i in c.shared_pattern:
        by_pattern.setdefault(c.rules[i].pattern, []).append(c.rules[i].id)
    examples = _examples()
    # A pair whose rules both match one of their examples: each must be reported.
    checked = 0
    for ids in by_pattern.values():
        for text in (t for i in ids for t in examples.get(i, [])):
            found = {rule.id for _, _, rule in gitleaks_scan.find_rule_matches(text, text.lower())}
            if set(ids) <= found:
                checked += 1
                break
    assert checked >= 10
