"""Recall in Chinese, Japanese and Korean: text without spaces is found by its characters.

A companion-style history (one user, daily chats) in each language, with
distractors sharing the topic words; each question is asked in a new
conversation and the turn that answers it must be recalled. Also: the CJK
index follows deletes, and a file of schema v7 gets its CJK messages indexed
by the migration.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from agenttui.core.history import schema
from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message
from agenttui.core.recall.cjk import index_text, query_units
from agenttui.core.recall.retrieval import RecallRequest, recall

NOW = datetime(2026, 5, 20, 12, tzinfo=UTC)

CHINESE = [
    ("user", "我家的猫叫小白，是一只三岁的英短。"),
    ("assistant", "小白这个名字真可爱！英短性格很温顺。"),
    ("user", "今天加班到很晚，好累啊。"),
    ("assistant", "辛苦了，早点休息吧。"),
    ("user", "我最喜欢的餐厅是楼下那家四川火锅店。"),
    ("assistant", "火锅很适合冬天吃！"),
    ("user", "你觉得周末去爬山怎么样？"),
    ("assistant", "好主意，记得带够水。"),
    ("user", "我妹妹下个月要去上海读研究生。"),
    ("assistant", "恭喜她！上海的学校很不错。"),
    ("user", "我对花生过敏，吃了会起疹子。"),
    ("assistant", "那点菜的时候要特别注意。"),
    ("user", "猫粮应该怎么选？"),
    ("assistant", "看成分表，蛋白质含量高的比较好。"),
]
JAPANESE = [
    ("user", "うちの犬の名前はポチです。柴犬で五歳になります。"),
    ("assistant", "ポチちゃん、かわいい名前ですね！"),
    ("user", "来週、大阪に出張に行きます。"),
    ("assistant", "気をつけて行ってらっしゃい。"),
    ("user", "最近、毎朝ジョギングを始めました。"),
    ("assistant", "素晴らしい習慣ですね。"),
    ("user", "犬の散歩は一日何回がいいですか？"),
    ("assistant", "一日二回が目安です。"),
]
KOREAN = [
    ("user", "우리 고양이는 나비라고 불러요. 올해 네 살이에요."),
    ("assistant", "나비라니 예쁜 이름이네요!"),
    ("user", "다음 주에 부산으로 여행을 가요."),
    ("assistant", "부산 바다 정말 좋죠."),
    ("user", "요즘 김치찌개 만드는 법을 배우고 있어요."),
    ("assistant", "돼지고기를 넣으면 더 맛있어요."),
    ("user", "고양이 사료는 어떤 게 좋아요?"),
    ("assistant", "단백질이 많은 사료가 좋아요."),
]


def _load(history, turns, days_ago=30):
    for k in range(0, len(turns), 2):  # one conversation a day, as a companion is used
        cid = history.create_conversation().id
        start = NOW - timedelta(days=days_ago - k)
        history.append_many(cid, [Message(role=role, content=text, created=start + timedelta(minutes=j))
                                  for j, (role, text) in enumerate(turns[k:k + 2])])


def _recalled(services, question, budget=120):
    request = RecallRequest(query=question, sources=("message",), limit=0, token_budget=budget, now=NOW)
    turns = [turn for s in recall(request, history=services.history).snippets for turn in s.turns]
    # the matched turns in rank order, then the turns around them (left-over budget widens snippets)
    return [t.text for t in turns if t.matched] + [t.text for t in turns if not t.matched]


@pytest.mark.parametrize(("turns", "question", "answer"), [
    (CHINESE, "我的猫叫什么名字？", "我家的猫叫小白，是一只三岁的英短。"),
    (CHINESE, "我对什么食物过敏？", "我对花生过敏，吃了会起疹子。"),
    (CHINESE, "我妹妹要去哪里读书？", "我妹妹下个月要去上海读研究生。"),
    (CHINESE, "我最喜欢哪家餐厅？", "我最喜欢的餐厅是楼下那家四川火锅店。"),
    (JAPANESE, "私の犬の名前は何でしたっけ？", "うちの犬の名前はポチです。柴犬で五歳になります。"),
    (JAPANESE, "出張はどこに行きますか？", "来週、大阪に出張に行きます。"),
    (KOREAN, "제 고양이 이름이 뭐였죠?", "우리 고양이는 나비라고 불러요. 올해 네 살이에요."),
    (KOREAN, "요즘 무슨 요리를 배우고 있었지?", "요즘 김치찌개 만드는 법을 배우고 있어요."),
])
def test_a_cjk_question_recalls_the_turn_that_answers_it(services, turns, question, answer):
    _load(services.history, turns)
    found = _recalled(services, question)
    assert found and answer in found[:3], found


def test_cjk_time_words_rank_their_day(services):
    _load(services.history, CHINESE, days_ago=13)  # the allergy: 3 days before NOW
    found = _recalled(services, "我三天前说了什么？", budget=40)
    assert found[0] == "我对花生过敏，吃了会起疹子。"


def test_bigrams_skip_function_characters_and_hiragana():
    assert query_units("我的猫叫什么名字？") == ("的 猫", "猫 叫", "叫 什", "么 名", "名 字")
    assert "什 么" not in query_units("这是什么？")
    assert "で す" not in query_units("何ですか")
    assert query_units("猫") == ("猫",)
    assert query_units("plain English") == ()
    assert index_text("我的猫。It's cute 고양이") == "我 的 猫 \ue000 it \ue000 s \ue000 cute \ue000 고 양 이"
    assert index_text("no CJK here") is None


def test_a_number_glued_to_cjk_text_is_a_unit_of_its_own():
    assert index_text("我的下属的手机号是18440423876。") == "我 的 下 属 的 手 机 号 是 \ue000 18440423876"
    assert "18440423876" in query_units("那个电话是18440423876的人，他多大了？")
    assert "the" not in query_units("the 猫")  # a stop word stays out, as in English questions


def test_a_number_inside_chinese_text_finds_its_turn(services):
    # to unicode61 "手机号是18440423876" is one token: only the CJK index can match the number
    people = ["上司", "同事", "表哥"] * 3
    distractors = [("user", f"我{who}的联系电话是1{k}603907089。") for k, who in enumerate(people)]
    _load(services.history, [*distractors, ("user", "我的下属的手机号是18440423876。"), ("user", "我的下属今年23岁。")])
    found = _recalled(services, "那个电话是18440423876的人，他多大了？", budget=40)
    assert found[0] == "我的下属的手机号是18440423876。", found


def test_the_cjk_index_follows_deletes(services):
    history = services.history
    cid = history.create_conversation().id
    history.append(cid, Message(role="user", content="我的自行车是红色的。"))
    assert _recalled(services, "我的自行车是什么颜色？")
    history.delete(cid)
    assert _recalled(services, "我的自行车是什么颜色？") == []
    with sqlite3.connect(str(history.db_path)) as conn:
        assert conn.execute("SELECT COUNT(*) FROM messages_cjk").fetchone()[0] == 0


def test_a_version_7_file_gets_its_cjk_messages_indexed(tmp_path):
    path = tmp_path / "history.sqlite3"
    conn = sqlite3.connect(str(path), isolation_level=None)
    schema.migrate(conn, target=7)
    conn.execute("INSERT INTO conversations (id, created, updated) VALUES ('c', '2026', '2026')")
    conn.executemany("INSERT INTO messages (conversation_id, role, content, created) VALUES ('c', ?, ?, '2026')",
                     [("user", "我家的猫叫小白。"), ("assistant", "Nice name!"), ("tool", "猫猫猫")])
    conn.close()
    store = HistoryStore(path)
    rows = store.recall_candidates('"猫 叫"', 5, index="cjk")
    assert [r.content for r in rows] == ["我家的猫叫小白。"]
    store.close()
    with sqlite3.connect(str(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        assert conn.execute("SELECT COUNT(*) FROM messages_cjk").fetchone()[0] == 1  # not the tool's
