"""The other sets' generated rules run after the context finders that outrank them, and
skip what those took: merged, the candidates give the same spans and kinds.

`redaction._collected_spans` runs gitleaks' rules, then the context finders before the
first that reads spans below CONTEXT, then Nosey Parker's and Kingfisher's rules (which
leave out a match at the start of a finder's span above OTHER_SETS, ending no later),
then the other finders; the candidates keep the order of an unstaged run.
"""

from __future__ import annotations

import pytest

from agenttui.security import gitleaks_scan
from agenttui.security.outranked import outranking_ends
from agenttui.security.redaction import (
    _context_candidates,
    _finder_stages,
    _merge,
    _provider_candidates,
    ascii_lower,
    byte_view,
)
from tests.unit.security.rule_windows import rule_set_examples


def _texts() -> list[str]:
    examples = rule_set_examples()
    # Each example after a key (`token_i = <example>`): the assignment finder reads it,
    # and the other sets' rules match many of the same values.
    return ["\n".join(f"token_{i} = {e}" for i, e in enumerate(examples)), "\n".join(examples)]


def test_staged_generated_rules_change_no_merged_span() -> None:
    split, count = _finder_stages()
    assert 0 < split < count
    skipped_some = False
    for text in _texts():
        view = byte_view(text)
        lowered = ascii_lower(view)
        provider = list(_provider_candidates(view))
        outranked = outranking_ends(provider, gitleaks_scan.GITLEAKS)
        unstaged = list(gitleaks_scan.find_gitleaks(view, lowered, outranked=outranked))
        first, other_sets = gitleaks_scan.find_gitleaks_in_stages(
            view, lowered, None, None, None, None, False, outranked
        )
        early = list(_context_candidates(text, lowered, earlier=provider + first, finders=(0, split)))
        others = other_sets(outranking_ends(early, gitleaks_scan.OTHER_SETS))
        # Without the finders' spans the stages give exactly the unstaged candidates.
        assert (
            first
            + gitleaks_scan.find_gitleaks_in_stages(view, lowered, None, None, None, None, False, outranked)[1]({})
            == unstaged
        )
        skipped_some |= len(first) + len(others) < len(unstaged)
        assert _merge(provider + first + others + early) == _merge(provider + unstaged + early)
    assert skipped_some  # the test covers the skip


def test_finders_before_the_other_sets_read_no_span_below_context() -> None:
    # The finders run before the other sets' rules do not see their candidates: each
    # must leave out only spans above OTHER_SETS (which those never are).
    from agenttui.security.redaction import _OUTRANKABLE, _gated_finders
    from agenttui.security.secret_patterns import CONTEXT

    split, _ = _finder_stages()
    for finder, _gate in _gated_finders()[:split]:
        assert _OUTRANKABLE.get(finder, CONTEXT) >= gitleaks_scan.OTHER_SETS
    assert _OUTRANKABLE[_gated_finders()[split][0]] < CONTEXT


def test_long_and_short_paths_redact_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    # A long text takes the staged path; with the threshold out of reach the same text
    # takes the unstaged one: the spans and kinds must not differ.
    from agenttui.security import redaction

    text = _texts()[0]
    assert len(text) >= redaction._STAGED_MIN
    staged = redaction.find_secrets(text)
    monkeypatch.setattr(redaction, "_STAGED_MIN", len(text) + 1)
    assert redaction.find_secrets(text) == staged
    assert len(staged) > 1000  # the text is secret-dense: the comparison covers many spans
