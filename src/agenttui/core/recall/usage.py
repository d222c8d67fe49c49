"""What a reply used: the memory and recalled material of its turn's first request.

The agent loop keeps one :class:`RecallUsage` per turn (``Trace.used``), taken
from :class:`~agenttui.core.context.assemble.AssembledPrompt` of the turn's *first*
request: later steps of a turn (after tool calls) re-assemble for the same
question, and the first one is what shaped the answer.

:func:`used_line` turns it into the compact line under a reply::

    used: 3 notes · 4 past messages (12 Mar – 2 Apr)
    used 3 notes · 4 msgs (12 Mar–2 Apr)        # the same, fitted to 40 columns
    used 3 mem · 4 msgs                         # notes and facts as one count: 20 columns

Counting: notes (facts) = the items of that kind injected into the system
prompt plus the recalled ones (archived items quoted by recall), each id once;
past messages = distinct recalled message ids (a matched message and the
neighbouring turn quoted with it count two); project entries when any. The
dates are :func:`recall.retrieval.day_span` of the recalled snippets; the year is
shown when the span crosses years or is not this year. Nothing used gives
no line (``""``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date

from agenttui.core.models import MemoryItem
from agenttui.core.recall.retrieval import Snippet, day_span

__all__ = ["RecallUsage", "UsageCounts", "count_usage", "format_span", "used_line", "used_variants"]


@dataclass(frozen=True)
class RecallUsage:
    """The memory items injected and the snippets recalled for one turn's first request."""

    memory_items: tuple[MemoryItem, ...] = ()  # in the system prompt, in prompt order
    recalled: tuple[Snippet, ...] = ()  # quoted by recall, best first
    turn_id: str = ""
    recall_tokens: int = 0
    budget: int = 0

    @classmethod
    def of(cls, memory_items: Sequence[MemoryItem], recalled: Sequence[Snippet], *, turn_id: str = "",
           recall_tokens: int = 0, budget: int = 0) -> RecallUsage:
        return cls(tuple(memory_items), tuple(recalled), turn_id, recall_tokens, budget)

    @property
    def empty(self) -> bool:
        return not self.memory_items and not self.recalled


@dataclass(frozen=True)
class UsageCounts:
    notes: int = 0
    facts: int = 0
    messages: int = 0
    project: int = 0
    span: tuple[date, date] | None = None

    @property
    def empty(self) -> bool:
        return not (self.notes or self.facts or self.messages or self.project)


def count_usage(usage: RecallUsage) -> UsageCounts:
    """Counts for the line (see module doc)."""
    kinds: dict[str, str] = {item.id: item.kind for item in usage.memory_items}
    message_ids: set[int] = set()
    project = 0
    for snippet in usage.recalled:
        if snippet.source in ("note", "fact") and snippet.item_id:
            kinds.setdefault(snippet.item_id, snippet.source)
        elif snippet.source == "message":
            message_ids.update(snippet.message_ids or ((snippet.message_id,) if snippet.message_id else ()))
        elif snippet.source == "project":
            project += 1
    notes = sum(kind == "note" for kind in kinds.values())
    return UsageCounts(notes=notes, facts=len(kinds) - notes, messages=len(message_ids),
                       project=project, span=day_span(usage.recalled))


def _day(day: date, year: bool) -> str:
    return f"{day.day} {day:%b}" + (f" {day.year}" if year else "")


def format_span(span: tuple[date, date], today: date, *, compact: bool = False) -> str:
    """"12 Mar – 2 Apr"; with years when it crosses years or is not this year."""
    first, last = span
    dash = "–" if compact else " – "
    if first == last:
        return _day(first, first.year != today.year)
    if first.year != last.year:
        return f"{_day(first, True)}{dash}{_day(last, True)}"
    year = f" {last.year}" if last.year != today.year else ""
    return f"{_day(first, False)}{dash}{_day(last, False)}{year}"


def _months(span: tuple[date, date], today: date) -> str:
    """The shortest date form: "Mar–Apr", "Mar", "Nov 24–Jan 25"."""
    first, last = span
    if first.year != last.year:
        return f"{first:%b %y}–{last:%b %y}"
    year = f" {last.year}" if last.year != today.year else ""
    months = f"{first:%b}" if (first.month == last.month) else f"{first:%b}–{last:%b}"
    return months + year


def _plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def _parts(counts: UsageCounts, short: bool) -> list[str]:
    parts: list[str] = []
    if counts.notes:
        parts.append(_plural(counts.notes, "note"))
    if counts.facts:
        parts.append(_plural(counts.facts, "fact"))
    if counts.messages:
        parts.append(_plural(counts.messages, "msg") if short
                     else _plural(counts.messages, "past message"))
    if counts.project:
        parts.append(f"{counts.project} proj" if short
                     else _plural(counts.project, "project entry", "project entries"))
    return parts


def used_variants(counts: UsageCounts, today: date | None = None) -> list[str]:
    """Every form of the line, longest (most readable) first; [] when nothing was used."""
    if counts.empty:
        return []
    today = today or date.today()
    long_counts = "used: " + " · ".join(_parts(counts, short=False))
    short_counts = "used " + " · ".join(_parts(counts, short=True))
    memory = counts.notes + counts.facts  # the narrowest form: notes and facts as one count
    tiny = "used " + " · ".join(
        ([f"{memory} mem"] if memory else []) + _parts(replace(counts, notes=0, facts=0), short=True))
    if counts.span is None:
        return [long_counts, short_counts, tiny]
    full = format_span(counts.span, today)
    compact = format_span(counts.span, today, compact=True)
    months = _months(counts.span, today)
    return [
        f"{long_counts} ({full})",
        f"{short_counts} ({full})",
        f"{short_counts} ({compact})",
        f"{short_counts} ({months})",
        short_counts,
        tiny,
    ]


def used_line(usage: RecallUsage | UsageCounts, width: int | None = None, today: date | None = None) -> str:
    """The longest form that fits ``width`` cells (cut with "…" if none does); "" if nothing was used."""
    counts = usage if isinstance(usage, UsageCounts) else count_usage(usage)
    variants = used_variants(counts, today)
    if not variants:
        return ""
    if width is None:
        return variants[0]
    for variant in variants:
        if len(variant) <= width:
            return variant
    shortest = variants[-1]
    return shortest[: max(0, width - 1)] + "…" if width > 0 else ""
