"""The compound regex of ``query_terms`` gives the old results in linear time.

The old ``[^\\W_]+(?:-[^\\W_]+)+`` was retried from every letter of a long run
(quadratic: a pasted base64 blob froze the app); the new one starts only where
a word starts. These tests compare both, and ``query_terms`` with a copy of
the old function, on ordinary text and on random short texts (the old one is
only slow on long runs). Linear time on adversarial input is checked in
tests/unit/recall/test_recall_regex_linear.py.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenttui.core.recall.text import _COMPOUND, _WORD, MAX_TERMS, STOP_WORDS, query_terms

OLD_COMPOUND = re.compile(r"[^\W_]+(?:-[^\W_]+)+")


def old_query_terms(text: str | None) -> tuple[str, ...]:
    """``query_terms`` as it was before the fix (whole-text ``findall``, the old regex)."""
    if not text:
        return ()
    seen: dict[str, None] = {}
    for compound in OLD_COMPOUND.findall(text.casefold()):
        seen[" ".join(_WORD.findall(compound))] = None
    for word in _WORD.findall(text.casefold()):
        if (len(word) > 1 or word.isdigit()) and word not in STOP_WORDS and word not in seen:
            seen[word] = None
            if len(seen) >= MAX_TERMS:
                break
    return tuple(seen)


ORDINARY = [
    "when did I sign the lease for the flat?",
    "my check-up is on 2024-03-05, remind me about the follow-up",
    "gue lagi cari resep sehari-hari yang gampang",
    "state-of-the-art re-ranking for long-term memory",
    "a_b-c d-e_f --x y-- -z- w--v",
    "Ünïcode-wörter und straße-weg; naïve-café",
    "sk-proj-abc123 is not a compound of words? x-1-y-2",
    "what does this blob mean: QUJDRGVm-Z2hp_ams0NTY3OA+/ thanks",
    "",
    "-",
    "tab\tseparated-words\nand new-lines",
    " ".join(f"word{i}-part{i}" for i in range(40)),
]


def test_ordinary_sentences_give_the_old_terms():
    for text in ORDINARY:
        assert _COMPOUND.findall(text) == OLD_COMPOUND.findall(text), text
        query_terms.cache_clear()
        assert query_terms(text) == old_query_terms(text), text


def test_compound_still_comes_first_as_a_phrase():
    assert query_terms("booked the check-up again")[0] == "check up"


_TEXT = st.text(alphabet=st.sampled_from(list("ab1é_- \t.-Ж")), max_size=60)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(_TEXT)
def test_random_short_texts_match_the_old_regex(text):
    assert _COMPOUND.findall(text) == OLD_COMPOUND.findall(text)
    assert query_terms.__wrapped__(text) == old_query_terms(text)
