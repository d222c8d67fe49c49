"""Leaving out candidates that an earlier, higher-priority span outranks changes nothing redacted.

The generated rules skip matches at the start of a provider rule's span, and the
assignment, token-line and quoted-base64 finders skip values at the start of a provider or
generated rule's span (`outranked.outranking_ends`): merged with the candidates
found before them, what they still yield must give the same spans and kinds as
everything they would have yielded.
"""

from __future__ import annotations

from agenttui.security import gitleaks_scan
from agenttui.security.context_rules import find_assignments
from agenttui.security.outranked import outranking_ends
from agenttui.security.redaction import _merge, _provider_candidates, ascii_lower, byte_view
from agenttui.security.secret_patterns import CONTEXT, GENERIC
from agenttui.security.source_derived_rules import find_quoted_base64
from agenttui.security.token_lines import find_token_lines
from tests.unit.security.rule_windows import rule_set_examples


def test_outranking_ends_keeps_the_furthest_end_above_the_priority() -> None:
    candidates = [(0, 5, "a", 30), (0, 9, "b", 29), (0, 20, "c", 20), (4, 4, "empty", 30), (7, 8, "d", 19)]
    assert outranking_ends(candidates, 20) == {0: 9}
    assert outranking_ends(candidates, 10) == {0: 20, 7: 8}


def _texts() -> list[str]:
    examples = rule_set_examples()
    # Each example on its line, and the same after a key (`name = <example>`), which the
    # assignment finder reads.
    return ["\n".join(examples), "\n".join(f"token_{i} = {e}" for i, e in enumerate(examples))]


def test_skipped_candidates_change_no_merged_span() -> None:
    for text in _texts():
        view = byte_view(text)
        lowered = ascii_lower(view)
        provider = list(_provider_candidates(view))
        generated_all = list(gitleaks_scan.find_gitleaks(view, lowered))
        generated = list(gitleaks_scan.find_gitleaks(
            view, lowered, outranked=outranking_ends(provider, gitleaks_scan.GITLEAKS)))
        assert len(generated) < len(generated_all)  # some were skipped: the test covers the skip
        assert _merge(provider + generated) == _merge(provider + generated_all)

        earlier = provider + generated
        for finder, top in ((find_assignments, CONTEXT), (find_token_lines, GENERIC), (find_quoted_base64, GENERIC)):
            every = list(finder(text, lowered))
            kept = list(finder(text, lowered, outranked=outranking_ends(earlier, top)))
            assert len(kept) < len(every), finder.__name__
            assert _merge(earlier + kept) == _merge(earlier + every), finder.__name__
