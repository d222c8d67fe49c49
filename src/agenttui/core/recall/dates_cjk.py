"""Time words of Chinese, Japanese and Korean questions, read as date spans (see recall.dates).

"5月2日", "2023年5月2日", "五月二号", "2023년 5월 2일", "昨天", "上周", "先週",
"지난주", "三天前", "3日前", "2주 전": the same spans the English words name,
by the same rules (:mod:`recall.date_spans`). Words are not separated by
spaces in Chinese and Japanese, so no pattern here relies on ``\\b``.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from agenttui.core.recall.date_spans import (
    Span,
    ago_span,
    day_span,
    month_span,
    past_year,
    relative_month,
    safe_day,
    week_span,
    year_span,
)

_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6,
           "七": 7, "八": 8, "九": 9}
_CN = "[〇零一二两兩三四五六七八九十]"
_NUMBER = rf"(?:\d{{1,2}}|{_CN}{{1,3}})"
# the year: written out, or "this"/"last" year ("去年5月"), or left out (the latest such date)
# The spaces after a year belong to the optional year: a bare ``\s*`` before the month let
# every position of a run of spaces start a scan to its end (quadratic on pasted text).
_YEAR_PART = r"(?:(\d{4}|[〇零一二三四五六七八九]{4})\s*[年년]\s*|(今年|올해|去年|昨年|작년)\s*)?"
_FULL_DATE = re.compile(rf"{_YEAR_PART}({_NUMBER})\s*[月월]\s*({_NUMBER})\s*[日号號일]")
_MONTH = re.compile(rf"{_YEAR_PART}({_NUMBER})\s*(?:月份|月|월)")
_LAST_YEAR_WORDS = ("去年", "昨年", "작년")
_YEAR = re.compile(r"(\d{4})\s*(?:年|년)")
_AGO = re.compile(rf"(\d{{1,3}}|{_CN}{{1,3}})\s*(?:个|個|ヶ|か|カ|ケ)?\s*(天|日|週間|周|週|星期|礼拜|禮拜|月|年)"
                  r"\s*(?:以前|之前|前)"
                  r"|(\d{1,3})\s*(일|주일|주|달|개월|년)\s*전")
_AGO_DAYS = {"天": 1, "日": 1, "일": 1, "週間": 7, "周": 7, "週": 7, "星期": 7, "礼拜": 7, "禮拜": 7,
             "주일": 7, "주": 7, "月": 30, "달": 30, "개월": 30, "年": 365, "년": 365}
_WEEKDAY = "[一二三四五六日天]"
_LAST_WEEK_DAY = re.compile(rf"(?:上周|上週|上个?星期|上個星期|上个?礼拜|上個禮拜|上禮拜)({_WEEKDAY})")
_RELATIVE: tuple[tuple[re.Pattern[str], str, int], ...] = (
    (re.compile(r"前天|一昨日|おととい|그저께|그제"), "day", -2),
    (re.compile(r"昨天|昨日|昨晚|きのう|어제"), "day", -1),
    (re.compile(r"今天|今日|今晚|今早|今朝|きょう|오늘"), "day", 0),
    (re.compile(r"上周|上週|上个?星期|上個星期|上个?礼拜|上個禮拜|上禮拜|先週|지난\s*주|저번\s*주"), "week", -1),
    (re.compile(r"这周|這週|本周|本週|这个?星期|這個?星期|今週|이번\s*주"), "week", 0),
    (re.compile(r"上个?月|上個月|先月|지난\s*달|저번\s*달"), "month", -1),
    (re.compile(r"这个?月|這個?月|本月|今月|이번\s*달"), "month", 0),
    (re.compile(r"去年|昨年|작년|지난해"), "year", -1),
    (re.compile(r"今年|올해"), "year", 0),
)


def _number(text: str) -> int:
    """"12", "五", "十二", "二十一", "三十" as a number."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, units = text.partition("十")
        return (_DIGITS.get(tens, 1) if tens else 1) * 10 + (_DIGITS.get(units, 0) if units else 0)
    return _DIGITS.get(text, 0)


def _relative(kind: str, shift: int, today: date) -> Span:
    if kind == "week":
        return week_span(today, shift)
    if kind == "month":
        return relative_month(today, shift)
    if kind == "year":
        return year_span(today.year + shift)
    return day_span(today + timedelta(days=shift))


def _year(match: re.Match[str], today: date, month: int, day: int = 1) -> int:
    if match.group(1):  # "2023" or "二〇二三"
        return int("".join(str(_DIGITS.get(c, c)) for c in match.group(1)))
    if match.group(2):
        return today.year - (match.group(2) in _LAST_YEAR_WORDS)
    return past_year(today, month, day)


def read_cjk(query: str, today: date) -> tuple[Span, re.Match[str]] | None:
    """The span a CJK time expression in ``query`` names, with the match (to cut it out)."""
    if match := _FULL_DATE.search(query):
        month, day_number = _number(match.group(3)), _number(match.group(4))
        if (day := safe_day(_year(match, today, month, day_number), month, day_number)) is not None:
            return day_span(day), match
    if match := _AGO.search(query):
        count = _number(match.group(1) or match.group(3) or "1")
        return ago_span(today, count * _AGO_DAYS[match.group(2) or match.group(4)]), match
    if match := _LAST_WEEK_DAY.search(query):
        monday = week_span(today, -1)[0]
        weekday = "一二三四五六".find(match.group(1))
        return day_span(monday + timedelta(days=weekday if weekday >= 0 else 6)), match
    if (match := _MONTH.search(query)) and 1 <= (month := _number(match.group(3))) <= 12:
        return month_span(_year(match, today, month), month), match
    for pattern, kind, shift in _RELATIVE:
        if match := pattern.search(query):
            return _relative(kind, shift, today), match
    if match := _YEAR.search(query):
        return year_span(int(match.group(1))), match
    return None
