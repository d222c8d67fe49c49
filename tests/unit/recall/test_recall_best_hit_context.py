"""The turns beside the best hits are quoted before the budget goes to weaker matches.

A question naming one fact to ask for another ("the person whose employer is X: where
are they from?") finds the first fact; the answer is often the turn beside it and shares
no word with the question, while turns that only share the asked-for attribute ("…'s
hometown is …") fill the budget.
"""

from __future__ import annotations

from datetime import timedelta

from agenttui.core.models import Message
from tests.unit.recall.test_recall_cjk import NOW, _recalled

PEOPLE = ["赵宇轩是我的同事", "陈伟国是我的表哥", "王静雅是我的母亲", "张丽华是我的表姐", "李明杰是我的下属",
          "周立业是我的父亲", "孙逸飞是我的叔叔", "吴志远是我的舅舅", "郑晓梅是我的婶婶", "刘梓涵是我的同学"]
CITIES = ["河南郑州", "湖北武汉", "四川成都", "江苏南京", "广东广州", "福建福州", "浙江宁波", "湖南长沙",
          "陕西西安", "辽宁沈阳"]


def test_the_turn_beside_a_best_hit_is_quoted_before_weaker_matches(services):
    history = services.history
    cid = history.create_conversation().id
    start = NOW - timedelta(days=20)
    history.append_many(cid, [
        Message(role="user", content="我的上司的单位是杭州西湖银行支行。", created=start),
        Message(role="user", content="周末打算去爬山。", created=start + timedelta(minutes=2)),
        Message(role="user", content="我的上司他是山东青岛人。", created=start + timedelta(minutes=5)),
    ])
    for k, (person, city) in enumerate(zip(PEOPLE, CITIES, strict=True)):
        other = history.create_conversation().id
        history.append_many(other, [Message(role="user", content=f"{person}，其家乡是{city}。",
                                            created=start - timedelta(days=1 + k))])
    # room for the best hit, two hometowns and the best hit's neighbours; the fill alone spends it
    # on hometowns and leaves too little for the turns around it
    found = _recalled(services, "那个单位是杭州西湖银行支行的人，家乡是什么？", budget=140)
    assert "我的上司的单位是杭州西湖银行支行。" in found
    assert "我的上司他是山东青岛人。" in found, found
