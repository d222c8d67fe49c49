"""Skipping spans already taken changes nothing redacted.

`find_gitleaks` runs gitleaks' rules first and leaves out a span that a rule
of the same or a higher priority already took; merged, its candidates must
give the same spans and kinds as every accepted match of every rule.
"""

from __future__ import annotations

from agenttui.security import gitleaks_scan
from agenttui.security.redaction import _merge, ascii_lower, byte_view
from tests.unit.security.rule_windows import rule_set_examples


def test_skipped_spans_change_no_merged_span() -> None:
    examples = rule_set_examples()
    for text in ("\n".join(examples), "\n".join(reversed(examples))):
        view = byte_view(text)
        lowered = ascii_lower(view)
        every = [
            (s, e, rule.kind, gitleaks_scan.GITLEAKS if rule.gitleaks_globals else gitleaks_scan.OTHER_SETS)
            for s, e, rule in gitleaks_scan.find_rule_matches(view, lowered)
        ]
        taken = list(gitleaks_scan.find_gitleaks(view, lowered))
        assert len(taken) < len(every)  # some were skipped: the test covers the skip
        assert _merge(taken) == _merge(every)
