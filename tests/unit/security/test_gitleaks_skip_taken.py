"""Skipping spans already taken changes nothing redacted.

`find_gitleaks` runs gitleaks' rules first and leaves out a span that a rule
of the same or a higher priority already took; merged, its candidates must
give the same spans and kinds as every accepted match of every rule.
"""

from __future__ import annotations

import json
from pathlib import Path

from agenttui.security import gitleaks_scan
from agenttui.security.redaction import _merge, ascii_lower, byte_view

_DATA = Path(__file__).parent / "data"


def _examples() -> list[str]:
    parts = []
    for name in ("gitleaks", "noseyparker", "kingfisher"):
        data = json.loads((_DATA / f"{name}_examples.json").read_text())
        parts += [tp for ex in data["rules"].values() for tp in ex["tps"]]
    return parts


def test_skipped_spans_change_no_merged_span() -> None:
    examples = _examples()
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
