"""Near-duplicate detection by prefix filtering answers exactly as comparing every pair."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenttui.core.recall.dedup import NearDuplicates, similar

word_sets = st.frozensets(st.sampled_from("abcdefghijkl"), max_size=9)


@settings(max_examples=300, deadline=None)
@given(sets=st.lists(word_sets, max_size=25), threshold=st.sampled_from((0.5, 0.6, 0.75, 0.8, 0.9, 1.0)))
def test_prefix_filtering_equals_every_pair(sets, threshold):
    index, kept = NearDuplicates(threshold), []
    for words in sets:
        expected = any(similar(words, other, threshold) for other in kept)
        assert index.seen(words) == expected
        if not expected:
            index.add(words)
            kept.append(words)
    assert len(index) == len(kept)


def test_a_reworded_question_is_a_near_duplicate_and_another_topic_is_not():
    index = NearDuplicates(0.75)
    index.add(frozenset("better pay off car loan early".split()))
    assert index.seen(frozenset("better pay off car loan early btw".split()))
    assert not index.seen(frozenset("car loan interest rate".split()))


def test_the_threshold_must_be_a_similarity():
    with pytest.raises(ValueError):
        NearDuplicates(0)
