"""recall.dates.read_time: every common written date form, in every language recall reads.

One row per form and language: the question, the span it must name, and the
words left for searching. "Today" is a parameter (the asker's date), so these
hold on any day the tests run.
"""

from __future__ import annotations

from datetime import date

import pytest

from agenttui.core.recall.dates import read_time

TODAY = date(2026, 11, 23)  # a Monday
JUNE_16_2023 = (date(2023, 6, 16), date(2023, 6, 17))
JUNE_2023 = (date(2023, 6, 1), date(2023, 7, 1))

WRITTEN_DATES = [
    # English: the year is kept in every form
    ("what did we plan on 16 June, 2023?", JUNE_16_2023),
    ("what did we plan on 16 June 2023?", JUNE_16_2023),
    ("what did we plan on 16 Jun 2023?", JUNE_16_2023),
    ("what did we plan on the 16th of June, 2023?", JUNE_16_2023),
    ("what did we plan on June 16, 2023?", JUNE_16_2023),
    ("what did we plan on June 16 2023?", JUNE_16_2023),
    ("what did we plan on Jun. 16th, 2023?", JUNE_16_2023),
    ("what did we plan on Friday, 16 June 2023?", JUNE_16_2023),
    ("what did we plan on 2023-06-16?", JUNE_16_2023),
    ("what did we plan on 2023/06/16?", JUNE_16_2023),
    ("what did we plan on 16/06/2023?", JUNE_16_2023),
    ("what did we plan on 16.06.2023?", JUNE_16_2023),
    ("what did we plan on 16-06-2023?", JUNE_16_2023),
    ("what did we plan on 06/16/2023?", JUNE_16_2023),  # US order: 16 cannot be a month
    ("what did we plan on 16/06/23?", JUNE_16_2023),
    ("what did we plan in June 2023?", JUNE_2023),
    ("what did we plan in June, 2023?", JUNE_2023),
    ("what did we plan in 2023?", (date(2023, 1, 1), date(2024, 1, 1))),
    # Indonesian
    ("apa rencana kita tanggal 16 Juni 2023?", JUNE_16_2023),
    ("apa rencana kita 16 Jun 2023?", JUNE_16_2023),
    ("apa rencana kita tanggal 16/06/2023?", JUNE_16_2023),
    ("apa rencana kita bulan Juni 2023?", JUNE_2023),
    ("apa rencana kita pada tahun 2023?", (date(2023, 1, 1), date(2024, 1, 1))),
    ("apa rencana kita 17 Agustus 2023?", (date(2023, 8, 17), date(2023, 8, 18))),
    # Chinese
    ("我们2023年6月16日计划了什么？", JUNE_16_2023),
    ("我们2023年6月16号计划了什么？", JUNE_16_2023),
    ("我们二〇二三年六月十六日计划了什么？", JUNE_16_2023),
    ("我们2023年6月计划了什么？", JUNE_2023),
    ("我们2023年计划了什么？", (date(2023, 1, 1), date(2024, 1, 1))),
    # Japanese
    ("2023年6月16日に何を計画しましたか？", JUNE_16_2023),
    ("2023年6月に何を計画しましたか？", JUNE_2023),
    # Korean
    ("2023년 6월 16일에 뭘 계획했지?", JUNE_16_2023),
    ("2023년 6월에 뭘 계획했지?", JUNE_2023),
]


@pytest.mark.parametrize(("question", "span"), WRITTEN_DATES)
def test_written_dates_keep_their_year(question, span):
    found = read_time(question, TODAY)
    assert found is not None and (found.start, found.end) == span
    assert "2023" not in found.rest and "二〇二三" not in found.rest  # the date is no search term


RELATIVE = [
    # dates without a year: the latest such day up to today
    ("我5月2日做了什么？", (date(2026, 5, 2), date(2026, 5, 3))),
    ("我五月二号做了什么？", (date(2026, 5, 2), date(2026, 5, 3))),
    ("我十二月三十一日做了什么？", (date(2025, 12, 31), date(2026, 1, 1))),
    ("我去年5月做了什么？", (date(2025, 5, 1), date(2025, 6, 1))),
    ("5月2日に何をしましたか？", (date(2026, 5, 2), date(2026, 5, 3))),
    ("5월 2일에 뭐 했지?", (date(2026, 5, 2), date(2026, 5, 3))),
    ("what did I do on 16 June?", (date(2026, 6, 16), date(2026, 6, 17))),
    ("what did I do on December 24?", (date(2025, 12, 24), date(2025, 12, 25))),
    # relative words, Chinese
    ("我昨天吃了什么？", (date(2026, 11, 22), date(2026, 11, 23))),
    ("我前天去了哪里？", (date(2026, 11, 21), date(2026, 11, 22))),
    ("我今天说了什么？", (date(2026, 11, 23), date(2026, 11, 24))),
    ("我上周买了什么？", (date(2026, 11, 16), date(2026, 11, 24))),
    ("我上个星期买了什么？", (date(2026, 11, 16), date(2026, 11, 24))),
    ("我上周三买了什么？", (date(2026, 11, 18), date(2026, 11, 19))),
    ("我这周做了什么？", (date(2026, 11, 23), date(2026, 11, 30))),
    ("我上个月见了谁？", (date(2026, 10, 1), date(2026, 11, 1))),
    ("我去年去了哪里？", (date(2025, 1, 1), date(2026, 1, 1))),
    ("我三天前买了什么？", (date(2026, 11, 19), date(2026, 11, 22))),
    ("我两周前读了什么书？", (date(2026, 11, 5), date(2026, 11, 14))),
    # Japanese
    ("昨日何を食べましたか？", (date(2026, 11, 22), date(2026, 11, 23))),
    ("先週何を買いましたか？", (date(2026, 11, 16), date(2026, 11, 24))),
    ("先月誰に会いましたか？", (date(2026, 10, 1), date(2026, 11, 1))),
    ("3日前に何を買いましたか？", (date(2026, 11, 19), date(2026, 11, 22))),
    # Korean
    ("어제 뭐 먹었지?", (date(2026, 11, 22), date(2026, 11, 23))),
    ("지난주에 뭐 샀지?", (date(2026, 11, 16), date(2026, 11, 24))),
    ("지난달에 누구 만났지?", (date(2026, 10, 1), date(2026, 11, 1))),
    ("작년에 어디 갔지?", (date(2025, 1, 1), date(2026, 1, 1))),
    ("3일 전에 뭐 샀지?", (date(2026, 11, 19), date(2026, 11, 22))),
    # English and Indonesian relative words keep working
    ("what did I buy last week?", (date(2026, 11, 16), date(2026, 11, 24))),
    ("apa yang saya beli kemarin?", (date(2026, 11, 22), date(2026, 11, 23))),
]


@pytest.mark.parametrize(("question", "span"), RELATIVE)
def test_dates_relative_to_the_given_today(question, span):
    found = read_time(question, TODAY)
    assert found is not None and (found.start, found.end) == span


def test_today_is_a_parameter_not_the_clock():
    assert read_time("what did I buy yesterday?", date(2023, 6, 17)).start == date(2023, 6, 16)
    assert read_time("我上周买了什么？", date(2023, 6, 21)).start == date(2023, 6, 12)


@pytest.mark.parametrize(("question", "rest"), [
    ("What did we talk about in our first conversation?", "What did we talk about ?"),
    ("what did I tell you the first time we talked?", "what did I tell you ?"),
    ("What was my job when we first met?", "What was my job ?"),
    ("Apa yang aku ceritakan di percakapan pertama kita?", "Apa yang aku ceritakan ?"),
    ("我们第一次聊天时我说了什么？", "时我说了什么？"),
    ("最初の会話で何を話しましたか？", "で何を話しましたか？"),
    ("첫 대화에서 뭘 얘기했지?", "에서 뭘 얘기했지?"),
])
def test_the_first_conversation_is_a_time_reference(question, rest):
    found = read_time(question, TODAY)
    assert found is not None and found.first and found.rest == rest


@pytest.mark.parametrize("question", [
    "when I first met Sarah, what did she say?",  # a first meeting, not ours
    "why does 3.12.10 fail to build?",  # a version number, not 3 December 2010
    "what is 1/2 of 30?",
    "我的猫叫什么名字？",
    "고양이 이름이 뭐야?",
    "我一个月存多少钱？",  # "one month" is a length, not January
])
def test_no_span_where_no_date_is_named(question):
    found = read_time(question, TODAY)
    assert found is None or not found.first and found.start is None
