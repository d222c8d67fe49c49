"""A windowed rule tries only where a match can start, and finds the same matches.

`keyword_reach` bounds how far into a match its keyword starts; `_windowed`
then skips the positions of a window no match can start at. These tests hold
it to a plain `finditer` over every window, on every generated rule it applies
to, over the rules' own examples (where they match) in two orders.
"""

from __future__ import annotations

import re

from agenttui.security import gitleaks_scan
from agenttui.security.keyword_reach import keyword_reach, repeat_led
from agenttui.security.redaction import ascii_lower
from tests.unit.security.rule_windows import every_window, rule_set_examples


def test_reach_of_shapes() -> None:
    assert keyword_reach(r"(?i)(?:.{0,24}[=:]\s{0,8})?(xapp-[0-9]{1,3}-[0-9a-z]{10,15})", re.ASCII,
                         [f"xapp-{d}" for d in range(10)]) == 33
    assert keyword_reach(r"(?i)[a-z0-9]{14}\.(?-i:atlasv1)\.[a-z0-9]{60}", re.ASCII, ["atlasv1"]) == 15
    assert keyword_reach(r"curl(?<!\wcurl)\b.*-u", re.ASCII, ["curl"]) == 0
    # The keyword behind an unbounded part, or only in an optional one: no bound.
    assert keyword_reach(r"\b(ey[a-z0-9_-]{12,}\.ey[a-z0-9_-]{12,})", re.ASCII, [".ey"]) is None
    assert keyword_reach(r"(?:key-)?[a-z0-9]{32}", re.ASCII, ["key-"]) is None
    assert repeat_led(r"(?i)(?:.{0,24}[=:])?(xapp-)", re.ASCII)
    assert not repeat_led(r"\b(ey[a-z]{3})", re.ASCII)


def test_windows_find_what_every_window_finds() -> None:
    c = gitleaks_scan.compiled()
    examples = rule_set_examples()
    rules = [r for r in c.rules if not r.anchored and r.reach is not None]
    assert {"kingfisher.slack.1", "hashicorp-tf-api-token", "curl-auth-user"} <= {r.id for r in rules}
    assert any(r.repeat_led for r in rules) and any(not r.repeat_led for r in rules)
    found = 0
    for text in ("\n".join(examples), " = ".join(reversed(examples))):
        lowered = ascii_lower(text)
        for rule in rules:
            starts = sorted({m.start() for k in rule.keywords for m in re.finditer(re.escape(k), lowered)})
            got = [m.span() for m in gitleaks_scan._windowed(rule, text, starts, lowered)]
            assert got == [m.span() for m in every_window(rule, text, starts)], rule.id
            found += len(got)
    assert found > 100
