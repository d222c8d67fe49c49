"""Counting and wording of a reply's "used: …" line (core/recall/usage.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from agenttui.core.models import MemoryItem
from agenttui.core.recall.retrieval import Snippet, Turn
from agenttui.core.recall.usage import RecallUsage, UsageCounts, count_usage, format_span, used_line, used_variants

TODAY = date(2026, 4, 10)


def _at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC).astimezone()


def _message(first: date, last: date, ids: tuple[int, int]) -> Snippet:
    turns = (Turn(ids[0], "user", _at(first), "q", matched=True), Turn(ids[1], "assistant", _at(last), "a"))
    return Snippet(source="message", score=1.0, date=_at(first), text="q", conversation_id="c",
                   message_id=ids[0], turns=turns)


def test_counts_notes_facts_distinct_messages_and_project_entries():
    note = MemoryItem(kind="note", scope="user", text="likes tea")
    fact = MemoryItem(kind="fact", scope="profile", key="editor", value="vim")
    archived = Snippet(source="note", score=1.0, date=_at(date(2026, 3, 1)), text="old", item_id="old-note")
    twice = Snippet(source="note", score=1.0, date=_at(date(2026, 3, 1)), text="likes tea", item_id=note.id)
    project = Snippet(source="project", score=1.0, date=datetime.min.replace(tzinfo=UTC), text="x",
                      where="decisions.md#1")
    usage = RecallUsage.of(
        [note, fact],
        [_message(date(2026, 3, 12), date(2026, 3, 12), (4, 5)),
         _message(date(2026, 4, 2), date(2026, 4, 2), (5, 6)),  # overlaps the first in message 5
         archived, twice, project],
    )
    counts = count_usage(usage)
    assert (counts.notes, counts.facts, counts.messages, counts.project) == (2, 1, 3, 1)
    assert counts.span == (date(2026, 3, 1), date(2026, 4, 2))  # the archived note's date is recalled too


def test_line_wording_and_fitting():
    counts = UsageCounts(notes=3, messages=4, span=(date(2026, 3, 12), date(2026, 4, 2)))
    assert used_line(counts, today=TODAY) == "used: 3 notes · 4 past messages (12 Mar – 2 Apr)"
    assert used_line(counts, 40, TODAY) == "used 3 notes · 4 msgs (12 Mar – 2 Apr)"
    assert used_line(counts, 36, TODAY) == "used 3 notes · 4 msgs (12 Mar–2 Apr)"
    assert used_line(counts, 31, TODAY) == "used 3 notes · 4 msgs (Mar–Apr)"
    assert used_line(counts, 22, TODAY) == "used 3 notes · 4 msgs"
    assert used_line(counts, 20, TODAY) == "used 3 mem · 4 msgs"
    assert used_line(counts, 12, TODAY) == "used 3 mem …"  # nothing fits: the shortest, cut
    for width in range(8, 60):
        assert len(used_line(counts, width, TODAY)) <= width


def test_singular_facts_and_project_entries():
    counts = UsageCounts(notes=1, facts=1, messages=1, project=2)
    assert used_line(counts, today=TODAY) == "used: 1 note · 1 fact · 1 past message · 2 project entries"
    assert used_variants(counts, TODAY)[-1] == "used 2 mem · 1 msg · 2 proj"


def test_nothing_used_gives_no_line():
    assert used_line(RecallUsage()) == ""
    assert used_line(UsageCounts(), 40) == ""
    assert RecallUsage().empty


def test_years_are_shown_when_the_span_crosses_years_or_is_not_this_year():
    assert format_span((date(2026, 3, 12), date(2026, 3, 12)), TODAY) == "12 Mar"
    assert format_span((date(2025, 3, 12), date(2025, 4, 2)), TODAY) == "12 Mar – 2 Apr 2025"
    assert format_span((date(2025, 12, 30), date(2026, 1, 2)), TODAY, compact=True) == "30 Dec 2025–2 Jan 2026"
    assert format_span((date(2024, 5, 1), date(2024, 5, 1)), TODAY) == "1 May 2024"
