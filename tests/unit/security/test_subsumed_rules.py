"""A generated rule that an earlier one subsumes is not run where taken spans are skipped.

`gitleaks_scan._subsumed`: same pattern, group, keywords, seeks, set and allowlists as
an earlier rule, and an entropy floor at least as high. Such a rule's spans are each
found by the earlier rule first and taken, or rejected by the same checks: leaving
it out must change no candidate at all.
"""

from __future__ import annotations

import dataclasses

from agenttui.security import gitleaks_scan
from agenttui.security.redaction import ascii_lower, byte_view
from tests.unit.security.rule_windows import rule_set_examples


def _rule(rule_id: str, entropy: float, **changes: object) -> gitleaks_scan._Rule:
    fields: dict[str, object] = {
        "id": rule_id,
        "kind": rule_id,
        "pattern": r"tok_([a-z0-9]{20})",
        "group": 0,
        "entropy": entropy,
        "anchored": True,
        "allow": (),
        "seeks": (),
        "gitleaks_globals": False,
        "keywords": ("tok_",),
    }
    fields.update(changes)
    return gitleaks_scan._Rule(**fields)  # type: ignore[arg-type]


def test_only_a_rule_that_accepts_no_more_than_an_earlier_twin_is_subsumed() -> None:
    assert gitleaks_scan._subsumed([_rule("np", 0.0), _rule("kf", 3.3)]) == {1}
    assert gitleaks_scan._subsumed([_rule("a", 3.3), _rule("b", 3.3)]) == {1}
    # A lower floor accepts values the earlier rule rejects: both run.
    assert gitleaks_scan._subsumed([_rule("kf", 3.3), _rule("np", 0.0)]) == set()
    # Anything else that may change what is matched, where, or what passes: both run.
    allow = (gitleaks_scan._Allow("secret", (), ("example",)),)
    for changes in (
        {"pattern": r"tok_([a-z0-9]{21})"},
        {"group": 1},
        {"anchored": False},
        {"keywords": ("tok_", "tok-")},
        {"gitleaks_globals": True},
        {"allow": allow},
        {"kind": "curl-auth-user"},
    ):
        assert gitleaks_scan._subsumed([_rule("a", 0.0), _rule("b", 3.3, **changes)]) == set(), changes


def test_the_generated_sets_have_subsumed_rules_and_each_adds_nothing() -> None:
    c = gitleaks_scan.compiled()
    assert len(c.subsumed) >= 30
    texts = ["\n".join(rule_set_examples()), "\n".join(reversed(rule_set_examples()))]
    for text in texts:
        view = byte_view(text)
        lowered = ascii_lower(view)
        # Every rule run, none skipped: a subsumed rule's spans are among its earlier twin's.
        spans: dict[str, set[tuple[int, int]]] = {}
        for s, e, rule in gitleaks_scan.find_rule_matches(view, lowered):
            spans.setdefault(rule.id, set()).add((s, e))
        twins = 0
        for i in c.subsumed:
            rule = c.rules[i]
            earlier = next(r for r in c.rules if r.pattern == rule.pattern and r.entropy <= rule.entropy)
            assert spans.get(rule.id, set()) <= spans.get(earlier.id, set()), rule.id
            twins += bool(spans.get(rule.id))
        assert twins >= 10  # the examples exercise it
        kept = list(gitleaks_scan.find_gitleaks(view, lowered))
        assert kept == list(gitleaks_scan.find_gitleaks(view, lowered, c=dataclasses.replace(c, subsumed=frozenset())))
