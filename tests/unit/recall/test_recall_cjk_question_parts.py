"""Which parts of a question recall searches by: the time words of a remark around the
question are not the question's time."""

from __future__ import annotations

from datetime import timedelta

from agenttui.core.models import Message
from tests.unit.recall.test_recall_cjk import NOW, _load, _recalled


def _said_long_ago(services, text):
    """An old turn sharing the question's words: the newer turns' recency bonuses are then close."""
    cid = services.history.create_conversation().id
    services.history.append_many(cid, [Message(role="user", content=text, created=NOW - timedelta(days=400))])


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
