"""Work skipped in the generated rules' scan changes nothing found.

- a window without any of a rule's window needles is not searched;
- gitleaks' `^`-led global allow regexes are checked as one.
"""

from __future__ import annotations

import random
import re

from agenttui.security import gitleaks_rules, gitleaks_scan
from agenttui.security.redaction import ascii_lower
from tests.unit.security.rule_windows import every_window, rule_set_examples


def _spans(matches) -> list[tuple[int, int]]:
    return [m.span() for m in matches]


def test_windows_without_needles_hold_no_match() -> None:
    c = gitleaks_scan.compiled()
    text = "\n".join(rule_set_examples())
    lowered = ascii_lower(text)
    rules = [r for r in c.rules if not r.anchored and r.window_needles]
    assert any(r.id == "curl-auth-user" for r in rules)
    skipped = 0
    for rule in rules:
        starts = sorted({m.start() for k in rule.keywords for m in re.finditer(re.escape(k), lowered)})
        for p in starts:
            lo, hi = max(0, p - gitleaks_scan.BEFORE), min(len(text), p + gitleaks_scan.AFTER)
            skipped += not any(x in lowered[lo:hi] for x in rule.window_needles)
        assert _spans(gitleaks_scan._windowed(rule, text, starts, lowered)) == _spans(
            every_window(rule, text, starts)), rule.id
    assert skipped, "some windows lack the needles: the test covers the skip"


def test_grouped_global_allow_is_the_same_test() -> None:
    c = gitleaks_scan.compiled()
    assert len(c.global_allow) < len(gitleaks_rules.GLOBAL_ALLOW_REGEXES)
    each = [re.compile(x, re.ASCII) for x in gitleaks_rules.GLOBAL_ALLOW_REGEXES]
    rng = random.Random(3)
    alphabet = "aA$%{}@/._-*01 tfn"
    samples = ["true", "False", "null", "xnull", "aaaa", "***", "$1", "${12}", "$FOO", "${FOO}", "{{ x }}",
               "${{ env.FOO }}", "%FOO%", "%s", "{1}", "@FOO@", "/Users/bob/x", "/usr/bin/x", "abc", "%+x"]
    samples += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(5000)]
    verdicts = [any(rx.search(s) for rx in each) for s in samples]
    assert any(verdicts) and not all(verdicts)
    assert [any(rx.search(s) for rx in c.global_allow) for s in samples] == verdicts


def test_global_allow_gates_decide_as_the_searches() -> None:
    c = gitleaks_scan.compiled()
    assert ("false", "null", "true") in c.global_allow_gates  # (?i)^true|false|null$ is gated
    rule = next(r for r in c.rules if r.gitleaks_globals and not r.allow)
    rng = random.Random(4)
    alphabet = "aA$%{}@/._-*01 tfnrueulsTFNRUELS\n"
    samples = ["true", "TRUE", "xTrue", "false", "xFALSEx", "null", "xnull", "xnull\n", "nullx", "NuLl", "abc"]
    samples += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 14))) for _ in range(5000)]
    m = re.match("x", "x")
    assert m is not None
    got = [gitleaks_scan._allowed(c, rule, "", m, s) for s in samples]
    want = [any(rx.search(s) for rx in c.global_allow) or any(w in s.lower() for w in c.global_stop) for s in samples]
    assert any(got) and not all(got)
    assert got == want
