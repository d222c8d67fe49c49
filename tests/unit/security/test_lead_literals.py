"""Rules whose search cannot scan for their first literal are tried only where it occurs.

A case-insensitive or `\\b`-led generated rule makes `re` attempt a match at every
position of the window it searches; with a bounded reach from its start to a keyword
hit (`_Rule.reach`) and literals every match starts with (`_Rule.lead_literals`), the
possible starts are where the lowered text holds one of them before a hit. The
matches must be those of `finditer` over every window.
"""

from __future__ import annotations

import re

from agenttui.security import gitleaks_scan
from agenttui.security.redaction import ascii_lower
from tests.unit.security.rule_windows import every_window, rule_set_examples


def _rule(rule_id: str) -> gitleaks_scan._Rule:
    return next(r for r in gitleaks_scan.compiled().rules if r.id == rule_id)


def test_lead_literals_only_where_re_cannot_scan_for_them() -> None:
    assert _rule("kingfisher.documo.1").lead_literals == ("ey",)  # (?i)\b(ey…
    assert _rule("np.mailgun.1").lead_literals == ("mailgun", "mg")  # (?i)(?:mailgun|mg)…
    assert _rule("curl-auth-user").lead_literals is None  # led by a case-sensitive literal: re scans for it


def test_tried_at_lead_literals_finds_what_every_window_finds() -> None:
    examples = rule_set_examples()
    # Upper- and mixed-case copies too: the literals are looked for in the lowered text.
    text = "\n".join([*examples, *(e.upper() for e in examples), *(e.title() for e in examples)])
    lowered = ascii_lower(text)
    rules = [r for r in gitleaks_scan.compiled().rules
             if not r.anchored and r.reach is not None and r.lead_literals is not None]
    assert len(rules) >= 5
    found = 0
    for rule in rules:
        starts = sorted({m.start() for k in rule.keywords for m in re.finditer(re.escape(k), lowered)})
        got = [(m.span(), m.groups()) for m in gitleaks_scan._windowed(rule, text, starts, lowered)]
        want = [(m.span(), m.groups()) for m in every_window(rule, text, starts)]
        assert got == want, rule.id
        found += len(got)
    assert found  # the rules match in the text: the comparison is not of empty lists
