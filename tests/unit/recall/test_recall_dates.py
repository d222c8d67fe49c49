"""recall.dates.read_time: time words of English and Indonesian questions as date spans."""

from __future__ import annotations

from datetime import date

import pytest

from agenttui.core.recall.dates import TimeFilter, read_time

TODAY = date(2026, 11, 23)  # a Monday


@pytest.mark.parametrize(
    ("question", "start", "end", "rest"),
    [
        ("what did I cook yesterday?", date(2026, 11, 22), date(2026, 11, 23), "what did I cook ?"),
        ("Apa yang saya masak kemarin?", date(2026, 11, 22), date(2026, 11, 23), "Apa yang saya masak ?"),
        ("what did I buy last week", date(2026, 11, 16), date(2026, 11, 24), "what did I buy"),
        ("apa yang saya beli minggu lalu", date(2026, 11, 16), date(2026, 11, 24), "apa yang saya beli"),
        ("who did I meet last month", date(2026, 10, 1), date(2026, 11, 1), "who did I meet"),
        ("what happened in March?", date(2026, 3, 1), date(2026, 4, 1), "what happened ?"),
        ("what happened in December?", date(2025, 12, 1), date(2026, 1, 1), "what happened ?"),
        ("meeting notes from 2026-03-12", date(2026, 3, 12), date(2026, 3, 13), "meeting notes from"),
        ("what did we decide on March 3", date(2026, 3, 3), date(2026, 3, 4), "what did we decide"),
        ("dinner last friday", date(2026, 11, 20), date(2026, 11, 21), "dinner"),
        ("the book I started 3 weeks ago", date(2026, 10, 29), date(2026, 11, 7), "the book I started"),
        ("dua hari yang lalu saya ke mana", date(2026, 11, 20), date(2026, 11, 23), "saya ke mana"),
    ],
)
def test_spans(question, start, end, rest):
    found = read_time(question, TODAY)
    assert found == TimeFilter(start, end, rest)


@pytest.mark.parametrize(
    ("question", "anchor", "offset"),
    [
        ("what did I do the week before I moved to Bandung?", "I moved to Bandung", -7),
        ("where did I eat two days after the wedding", "the wedding", 2),
        ("apa yang saya lakukan seminggu sebelum pindah ke Bandung?", "pindah ke Bandung", -7),
    ],
)
def test_anchored_spans_name_an_event_and_resolve_around_its_date(question, anchor, offset):
    found = read_time(question, TODAY)
    assert (found.anchor, found.offset_days, found.start) == (anchor, offset, None)
    resolved = found.around(date(2026, 5, 10))
    if offset < 0:
        assert (resolved.start, resolved.end) == (date(2026, 5, 3), date(2026, 5, 11))
    else:
        assert (resolved.start, resolved.end) == (date(2026, 5, 10), date(2026, 5, 13))


@pytest.mark.parametrize("question", [
    "may I ask you something?", "what is the capital of France", "", "remind me about the march of progress",
])
def test_questions_without_time_words_name_no_span(question):
    assert read_time(question, TODAY) is None
