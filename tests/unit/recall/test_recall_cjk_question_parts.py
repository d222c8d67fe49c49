"""Which parts of a question recall searches by: a written date in a CJK question is a value
too, and the time words of a remark around the question are not the question's time."""

from __future__ import annotations

from datetime import timedelta

from agenttui.core.models import Message
from tests.unit.recall.test_recall_cjk import NOW, _load, _recalled

BIRTHDAYS = [
    ("user", "我舅舅的生日是在3月5号。"),
    ("user", "我的上司生日是10月16号。"),
    ("user", "我表姐的生日是在12月15号。"),
    ("user", "我妈妈的生日是在6月24号。"),
    ("user", "我同事的生日是在9月14号。"),
    ("user", "我叔叔的生日是在11月14号。"),
    ("user", "我表哥的生日是3月7号。"),
    ("user", "我父亲的生日是在5月14日。"),
]


def _said_long_ago(services, text):
    """An old turn sharing the question's words: the newer turns' recency bonuses are then close."""
    cid = services.history.create_conversation().id
    services.history.append_many(cid, [Message(role="user", content=text, created=NOW - timedelta(days=400))])


def test_a_written_date_in_a_cjk_question_is_searched_as_a_value(services):
    # "10月16日" names a day (a span, in which nothing was said) and the value the answer holds;
    # cut out as a time word, the question kept only "生日", which every birthday shares
    _said_long_ago(services, "我外婆的生日快到了，要准备礼物。")
    _load(services.history, BIRTHDAYS, days_ago=40)
    found = _recalled(services, "那个生日是10月16日的人，邮箱地址是什么？", budget=30)
    assert found and found[0] == "我的上司生日是10月16号。", found


def test_time_words_in_a_remark_are_not_the_questions_time(services):
    # "今天天气真好" chats about today; the question asks about the cat. Read as the question's
    # time, "today" ranked today's turn about the cat above the one that answers
    _said_long_ago(services, "邻居家的猫很怕人。")
    _load(services.history, [("user", "我的猫名字叫小白。"), ("assistant", "好可爱的名字！")], days_ago=1)
    cid = services.history.create_conversation().id
    services.history.append_many(cid, [
        Message(role="user", content="我的猫刚刚吃了很多罐头。", created=NOW - timedelta(hours=1))])
    found = _recalled(services, "今天天气真好，适合出去散步。我的猫叫什么名字？", budget=30)
    assert found and found[0] == "我的猫名字叫小白。", found
