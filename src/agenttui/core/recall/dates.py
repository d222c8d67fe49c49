"""Time words in a question, read as a date range (English, Indonesian; CJK in recall.dates_cjk).

"What did I cook yesterday?", "who did I meet last week", "apa yang saya
beli bulan lalu", "in March", "3 weeks ago", "on 2026-03-12": each names a
span of days. :func:`read_time` returns it as a :class:`TimeFilter` (start
inclusive, end exclusive, in the user's local dates) together with the
question minus those words, so the retrieval module can rank the messages of
that span first and still search the rest by their words.

"The week before I moved to Bandung" names no date but an event: the filter
then carries an ``anchor`` ("moved to Bandung") and an offset in days; the
retrieval module finds the anchor's best match and takes the span from its
date. That is the multi-hop of temporal questions: two look-ups, one answer.

Loose on purpose: "last week" also covers the days of this week so far, and
"3 weeks ago" is ±4 days around that day (±1 for days, ±10 for months). A wider span costs a few extra
candidates; a narrower one loses the answer.

A written date keeps its year in every common form: "16 June, 2023", "16 Jun
2023", "June 16, 2023", "2023-06-16", "16/06/2023" (day first, as written
outside the US, unless the day cannot be a month: "06/16/2023"), "June 2023",
"in 2023", "16 Juni 2023". A date without a year is the latest such day up to
today. "Our first conversation" and "the first time we talked" name the
start of the history: the filter carries ``first`` and the retrieval module
takes the day of the oldest message.

Every "today" here is a parameter: recall passes the moment it was asked for
(``agenttui ask --dry-run --now``), never the clock's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from agenttui.core.recall.date_spans import (
    ago_span,
    day_span,
    full_year,
    month_span,
    past_year,
    relative_month,
    safe_day,
    week_span,
    year_span,
)
from agenttui.core.recall.dates_cjk import read_cjk

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan", "januari"), ("february", "feb", "februari", "pebruari"),
            ("march", "mar", "maret"), ("april", "apr"), ("may", "mei"),
            ("june", "jun", "juni"), ("july", "jul", "juli"), ("august", "aug", "agustus", "agu"),
            ("september", "sep", "sept"), ("october", "oct", "oktober", "okt"),
            ("november", "nov", "nopember"), ("december", "dec", "desember", "des"),
        ),
        start=1,
    )
    for name in names
}
_WEEKDAYS = {
    name: number
    for number, names in enumerate(
        (("monday", "senin"), ("tuesday", "selasa"), ("wednesday", "rabu"),
         ("thursday", "kamis"), ("friday", "jumat", "jum'at"), ("saturday", "sabtu"),
         ("sunday", "minggu"))
    )
    for name in names
}
_UNITS = {"day": 1, "days": 1, "hari": 1, "week": 7, "weeks": 7, "minggu": 7, "pekan": 7,
          "month": 30, "months": 30, "bulan": 30, "year": 365, "years": 365, "tahun": 365}
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                 "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "se": 1, "satu": 1,
                 "dua": 2, "tiga": 3, "empat": 4, "lima": 5, "enam": 6}
#: Month and day names stay search words too: "the book club's pick for January"
#: is about January as much as it is in it.
NAMED_TIMES = frozenset(_MONTHS) | frozenset(_WEEKDAYS)
_MONTH_NAMES = "|".join(sorted(_MONTHS, key=len, reverse=True))
_WEEKDAY_NAMES = "|".join(sorted((w for w in _WEEKDAYS if w != "minggu"), key=len, reverse=True))
_NUM = r"(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|satu|dua|tiga|empat|lima|enam)"

# "the week before I moved", "two days after the wedding", "seminggu sebelum pindah".
_ANCHOR_EN = re.compile(
    rf"\b(?:(?:the|in the)\s+)?(?:(?P<count>{_NUM[1:-1]})\s+)?(?P<unit>days?|weeks?|weekend|months?)\s+"
    r"(?P<dir>before|after|prior to)\s+(?P<event>.+?)\s*[?.!]*$",
    re.IGNORECASE,
)
_ANCHOR_ID = re.compile(
    rf"\b(?:(?P<se>se)|(?P<count>{_NUM[1:-1]})\s+)?(?P<unit>hari|minggu|pekan|bulan)\s+"
    r"(?P<dir>sebelum|sesudah|setelah)\s+(?P<event>.+?)\s*[?.!]*$",
    re.IGNORECASE,
)
_AGO = re.compile(
    rf"\b{_NUM}\s+(days?|weeks?|months?|years?)\s+ago\b"
    rf"|\b(?:(se)|{_NUM}\s+)(hari|minggu|pekan|bulan|tahun)\s+(?:yang\s+)?(?:lalu|kemarin)\b",
    re.IGNORECASE,
)
_ISO_DAY = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
# ", 2023" / " 2023" / " '23"-less: a year follows a written date after an optional comma
_YEAR_AFTER = r"(?:,?\s+(\d{4})\b)?"
_DAY_MONTH = re.compile(rf"\b(?:on\s+|tanggal\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_NAMES})\b\.?{_YEAR_AFTER}",  # noqa: E501 -- one regex or table row per line
                        re.IGNORECASE)
_MONTH_DAY = re.compile(rf"\b(?:on\s+)?({_MONTH_NAMES})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b{_YEAR_AFTER}",
                        re.IGNORECASE)
_MONTH = re.compile(rf"\b(?:in\s+|during\s+|pada\s+|di\s+bulan\s+|bulan\s+)?({_MONTH_NAMES})\b\.?{_YEAR_AFTER}",
                    re.IGNORECASE)
# "16/06/2023", "16.06.2023", "16-06-23", "2023/06/16"
# a two-digit year only after "/": "1.2.33" is a version number, not 1 February 2033
_NUMERIC_DAY = re.compile(r"\b(?:on\s+|tanggal\s+)?(\d{1,2})([/.-])(\d{1,2})\2(\d{4}\b|(?<=/)\d{2}\b)",
                          re.IGNORECASE)
_YEAR_FIRST_DAY = re.compile(r"\b(\d{4})([/.])(\d{1,2})\2(\d{1,2})\b")
_YEAR = re.compile(r"\b(?:in|during|since|pada|tahun|di\s+tahun)\s+((?:19|20)\d{2})\b", re.IGNORECASE)
# the start of the history: "our first conversation", "when we first talked", "percakapan pertama kita"
_FIRST = re.compile(
    r"\b(?:(?:in\s+|during\s+)?(?:our|the)\s+(?:very\s+)?first\s+(?:conversation|chat|talk|session|exchange)s?"
    r"|(?:the\s+)?first\s+time\s+(?:we\s+(?:talked|spoke|chatted|met)|i\s+(?:talked|spoke|chatted)\s+(?:to|with)\s+you)"
    r"|when\s+we\s+first\s+(?:talked|spoke|chatted|met)"
    r"|(?:di\s+)?(?:percakapan|obrolan)\s+pertama(?:\s+kita)?|pertama\s+kali\s+kita\s+(?:ngobrol|bicara|berbicara))\b"
    r"|我们第一次(?:聊天|聊|谈话|对话|說話|说话)|第一次(?:聊天|对话|對話)|最初の会話|初めて話した|첫\s*대화|처음\s*(?:이야기|대화)",
    re.IGNORECASE)
_LAST_WEEKDAY = re.compile(rf"\b(?:last|on|hari)\s+({_WEEKDAY_NAMES})\b(?:\s+(?:lalu|kemarin))?", re.IGNORECASE)
_SIMPLE = (
    (re.compile(r"\b(?:the\s+)?day\s+before\s+yesterday\b|\bkemarin\s+lusa\b", re.I), (-2, -1)),
    (re.compile(r"\byesterday\b|\bkemarin\b", re.I), (-1, 0)),
    (re.compile(r"\btoday\b|\bthis\s+(?:morning|afternoon|evening)\b|\btonight\b|\bhari\s+ini\b|\btadi\b", re.I), (0, 1)),  # noqa: E501 -- one regex or table row per line
    (re.compile(r"\bthis\s+week\b|\bminggu\s+ini\b|\bpekan\s+ini\b", re.I), ("week", 0)),
    (re.compile(r"\blast\s+week(?:end)?\b|\bthe\s+past\s+week\b|\bminggu\s+(?:lalu|kemarin)\b|\bpekan\s+lalu\b", re.I), ("week", -1)),  # noqa: E501 -- one regex or table row per line
    (re.compile(r"\bthis\s+month\b|\bbulan\s+ini\b", re.I), ("month", 0)),
    (re.compile(r"\blast\s+month\b|\bthe\s+past\s+month\b|\bbulan\s+(?:lalu|kemarin)\b", re.I), ("month", -1)),
    (re.compile(r"\blast\s+year\b|\btahun\s+lalu\b", re.I), ("year", -1)),
    (re.compile(r"\bthis\s+year\b|\btahun\s+ini\b", re.I), ("year", 0)),
)


@dataclass(frozen=True)
class TimeFilter:
    """A span of local dates named by a question (``end`` exclusive)."""

    start: date | None = None
    end: date | None = None
    rest: str = ""  # the question without its time words
    anchor: str = ""  # "the week before <anchor>": an event to look up first
    offset_days: int = 0  # from the anchor's date: -7 = the week before, 7 = after
    first: bool = False  # "our first conversation": the day of the oldest message

    def around(self, anchor_day: date) -> TimeFilter:
        """The span an anchored filter names once its event's date is known."""
        if self.offset_days < 0:
            start, end = anchor_day + timedelta(days=self.offset_days), anchor_day + timedelta(days=1)
        else:
            start, end = anchor_day, anchor_day + timedelta(days=self.offset_days + 1)
        return TimeFilter(start=start, end=end, rest=self.rest)


def _number(text: str | None) -> int:
    if not text:
        return 1
    text = text.casefold()
    return int(text) if text.isdigit() else _NUMBER_WORDS.get(text, 1)


def _strip(text: str, match: re.Match[str]) -> str:
    return " ".join((text[: match.start()] + " " + text[match.end():]).split())


def _anchored(query: str) -> TimeFilter | None:
    for pattern in (_ANCHOR_EN, _ANCHOR_ID):
        if match := pattern.search(query):
            unit = match.group("unit").casefold()
            count = 1 if match.groupdict().get("se") else _number(match.group("count"))
            days = 2 if unit == "weekend" else count * _UNITS.get(unit, 7)
            before = match.group("dir").casefold() in ("before", "prior to", "sebelum")
            return TimeFilter(rest=_strip(query, match), anchor=match.group("event").strip(),
                              offset_days=-days if before else days)
    return None


def _numeric_day(query: str) -> tuple[date, re.Match[str]] | None:
    """ "2023-06-16", "2023/06/16", "16/06/2023", "06/16/2023" (the day is the part over 12)."""
    for pattern in (_ISO_DAY, _YEAR_FIRST_DAY):
        if match := pattern.search(query):
            groups = [g for g in match.groups() if g and g.isdigit()]
            if day := safe_day(int(groups[0]), int(groups[1]), int(groups[2])):
                return day, match
    if match := _NUMERIC_DAY.search(query):
        first, second, year = int(match.group(1)), int(match.group(3)), full_year(int(match.group(4)))
        day_first = first > 12 or second <= 12
        if day := safe_day(year, second, first) if day_first else safe_day(year, first, second):
            return day, match
    return None


def _ago(query: str, today: date) -> TimeFilter | None:
    if match := _AGO.search(query):
        unit = (match.group(2) or match.group(5) or "").casefold()
        count = 1 if match.group(3) else _number(match.group(1) or match.group(4))
        days = count * _UNITS.get(unit.rstrip("s") if unit.endswith("s") and unit != "days" else unit,
                                  _UNITS.get(unit, 1))
        start, end = ago_span(today, days)
        return TimeFilter(start, end, _strip(query, match))
    return None


def _simple(query: str, today: date) -> TimeFilter | None:
    for pattern, span in _SIMPLE:
        if match := pattern.search(query):
            rest = _strip(query, match)
            kind, shift = span
            assert isinstance(shift, int)
            if kind == "week":
                return TimeFilter(*week_span(today, shift), rest)
            if kind == "month":
                return TimeFilter(*relative_month(today, shift), rest)
            if kind == "year":
                return TimeFilter(*year_span(today.year + shift), rest)
            assert isinstance(kind, int)  # the named spans returned above
            return TimeFilter(today + timedelta(days=kind), today + timedelta(days=shift), rest)
    return None


def _written_day(query: str, today: date) -> TimeFilter | None:
    """ "16 June, 2023", "the 3rd of May", "June 16, 2023", "Jun. 16": the year kept when written."""
    for pattern, order in ((_DAY_MONTH, "dm"), (_MONTH_DAY, "md")):
        for match in pattern.finditer(query):
            day_text, month_text = ((match.group(1), match.group(2)) if order == "dm"
                                    else (match.group(2), match.group(1)))
            month, day_number = _MONTHS[month_text.casefold()], int(day_text)
            year = int(match.group(3)) if match.group(3) else past_year(today, month, day_number)
            if (day := safe_day(year, month, day_number)) is not None:
                return TimeFilter(*day_span(day), _strip(query, match))
    return None


def _named_month(query: str, today: date) -> TimeFilter | None:
    for match in _MONTH.finditer(query):
        word = match.group(1)
        introduced = match.start(1) > match.start()  # "in March", "bulan Maret"
        # "march", "may", "mar": verbs and nouns too; a bare month must be capitalised
        # and not be "May"/"Mar" at the start, or come with "in"/"bulan" or a year.
        capitalised = word[:1].isupper() and word.casefold() not in ("may", "mar", "mei", "des", "jan", "jun")
        if not (introduced or match.group(2) or capitalised):
            continue
        month = _MONTHS[word.casefold()]
        year = int(match.group(2)) if match.group(2) else past_year(today, month)
        return TimeFilter(*month_span(year, month), _strip(query, match))
    return None


def read_time(query: str | None, today: date) -> TimeFilter | None:
    """The span ``query`` names (see the module doc), or None when it names none.

    ``today`` is the asker's local date: the caller's "now", never the clock's.
    """
    if not query:
        return None
    if match := _FIRST.search(query):
        return TimeFilter(rest=_strip(query, match), first=True)
    if found := _anchored(query):
        return found
    if numeric := _numeric_day(query):
        day, match = numeric
        return TimeFilter(*day_span(day), _strip(query, match))
    if found := _ago(query, today) or _simple(query, today):
        return found
    if cjk := read_cjk(query, today):
        (start, end), match = cjk
        return TimeFilter(start, end, _strip(query, match))
    if found := _written_day(query, today):
        return found
    if match := _LAST_WEEKDAY.search(query):
        weekday = _WEEKDAYS[match.group(1).casefold()]
        back = (today.weekday() - weekday) % 7 or 7
        return TimeFilter(*day_span(today - timedelta(days=back)), _strip(query, match))
    if found := _named_month(query, today):
        return found
    if match := _YEAR.search(query):
        return TimeFilter(*year_span(int(match.group(1))), _strip(query, match))
    return None
