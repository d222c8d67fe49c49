"""Calendar arithmetic shared by the date readers (recall.dates, recall.dates_cjk).

Every span is ``(start, end)`` of local dates, ``end`` exclusive.
"""

from __future__ import annotations

from datetime import date, timedelta

Span = tuple[date, date]


def day_span(day: date) -> Span:
    return day, day + timedelta(days=1)


def month_span(year: int, month: int) -> Span:
    start = date(year, month, 1)
    end = date(year + (month == 12), month % 12 + 1, 1)
    return start, end


def year_span(year: int) -> Span:
    return date(year, 1, 1), date(year + 1, 1, 1)


def week_span(today: date, shift: int) -> Span:
    """This week (``shift`` 0) or an earlier one. Loose on purpose: "last week" runs up to
    today, since people say it of the last seven days as much as of the calendar week."""
    monday = today - timedelta(days=today.weekday()) + timedelta(weeks=shift)
    end = today + timedelta(days=1) if shift < 0 else monday + timedelta(days=7)
    return monday, end


def relative_month(today: date, shift: int) -> Span:
    year, month = today.year, today.month + shift
    while month < 1:
        year, month = year - 1, month + 12
    return month_span(year, month)


def ago_span(today: date, days: int) -> Span:
    """Around the day ``days`` back: ±1 day for days, ±4 for weeks, ±10 for months, ±45 for years."""
    slack = 1 if days < 7 else 4 if days < 30 else 10 if days < 365 else 45
    center = today - timedelta(days=days)
    return center - timedelta(days=slack), center + timedelta(days=slack + 1)


def past_year(today: date, month: int, day: int = 1) -> int:
    """The year of the latest ``month``/``day`` not after today (a date written without its year)."""
    try:
        return today.year if date(today.year, month, day) <= today else today.year - 1
    except ValueError:  # 31 February and friends: the month decides
        return today.year if month <= today.month else today.year - 1


def safe_day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def full_year(year: int) -> int:
    """A two-digit year as written in "16/06/23": this century."""
    return year + 2000 if year < 100 else year
