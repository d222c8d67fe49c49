"""Recall's small ranking rules: tag questions, the first conversation, statements holding a "?",
greeting-only turns, and the neighbouring turn of a hit whichever side asked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from agenttui.core.models import Message
from agenttui.core.recall.retrieval import RecallRequest, recall
from agenttui.core.recall.turn_shape import asking_first, asks, contentless, ends_asking, without_tag_questions

NOW = datetime(2026, 11, 23, 12, tzinfo=UTC)


def conversation(history, turns, *, days_ago):
    cid = history.create_conversation().id
    start = NOW - timedelta(days=days_ago)
    history.append_many(cid, [Message(role=role, content=text, created=start + timedelta(minutes=k))
                              for k, (role, text) in enumerate(turns)])
    return cid


def ask(services, question, budget=0):
    request = RecallRequest(query=question, sources=("message",), limit=0, token_budget=budget, now=NOW)
    return recall(request, history=services.history)


def quoted(result):
    return [f"{turn.role}: {turn.text}" for s in result.snippets for turn in s.turns]


@pytest.mark.parametrize(("question", "without"), [
    ("My sister lives in Bandung, right?", "My sister lives in Bandung?"),
    ("We met in June right?", "We met in June?"),
    ("That was the blue one, wasn't it?", "That was the blue one?"),
    ("C'est à Lyon, n'est-ce pas ?", "C'est à Lyon?"),
    ("Kita ketemu di Bali, kan?", "Kita ketemu di Bali?"),
    ("你住在北京，对吧？", "你住在北京?"),
    ("Is the total correct?", "Is the total correct?"),  # "correct" is the topic here
    ("Right?", "Right?"),
])
def test_tag_questions_are_cut(question, without):
    assert without_tag_questions(question) == without


def test_a_tag_question_adds_no_search_term(services):
    history = services.history
    for k in range(12):
        conversation(history, [("user", f"Turn right at junction {k}, right after the bakery.")], days_ago=40 + k)
    conversation(history, [("user", "My sister moved to Bandung for her new job.")], days_ago=90)
    result = ask(services, "My sister lives in Bandung now, right?", budget=60)
    assert "right" not in result.terms
    assert quoted(result)[0] == "user: My sister moved to Bandung for her new job."


def test_our_first_conversation_is_the_day_the_history_starts(services):
    history = services.history
    conversation(history, [("user", "Hi! I'm Dewi, I teach biology in Surabaya."),
                           ("assistant", "Nice to meet you, Dewi!")], days_ago=300)
    for k in range(5):
        conversation(history, [("user", f"I graded biology exams again, batch {k}."),
                               ("assistant", "That sounds tiring.")], days_ago=100 - k)
    result = ask(services, "What did I tell you in our first conversation?", budget=60)
    day = (NOW - timedelta(days=300)).astimezone().date()
    assert result.span == (day, day + timedelta(days=1))
    assert quoted(result)[0] == "user: Hi! I'm Dewi, I teach biology in Surabaya."


@pytest.mark.parametrize(("text", "question"), [
    ("Guess what? We adopted a cat last week, her name is Luna.", False),
    ("Can you recommend a vet? My cat Luna has been sneezing for three days.", False),
    ("What do you think? Be honest.", True),
    ("What should I ask the doctor at my annual check-up? I tried once and it went badly.", True),
    ("Which one should I pick?", True),
    ("我昨天去了北京的故宫，人特别多，排队排了两个小时。你去过吗？", False),
    ("你叫什么？", True),
    ("No question here.", False),
])
def test_a_statement_holding_a_question_mark_is_no_question(text, question):
    assert asks(text) is question


def test_a_statement_holding_a_question_mark_ranks_as_a_statement(services):
    history = services.history
    conversation(history, [("user", "Guess what? We adopted a cat last week, her name is Luna.")], days_ago=20)
    for k in range(8):
        conversation(history, [("user", f"What is a good name for a cat, option {k}?")], days_ago=30 + k)
    assert quoted(ask(services, "What is my cat's name?", budget=80))[0].startswith("user: Guess what?")


@pytest.mark.parametrize(("text", "empty"), [
    ("Thanks, John!", True), ("Bye Nate!", True), ("Hi Melanie! How are you?", True),
    ("Hey Mel, good to see you!", True), ("Paris!", False), ("Congrats on the new job, John!", False),
    ("John recommended Dune to me.", False),
])
def test_greeting_only_turns_carry_nothing(text, empty):
    assert contentless(text) is empty


def test_greeting_only_turns_never_fill_the_budget(services):
    history = services.history
    for k in range(25):
        conversation(history, [("user", "Thanks, John!"), ("assistant", "Bye John! Take care.")], days_ago=10 + k)
    conversation(history, [("assistant", "John here: you should read Dune by Frank Herbert, my favourite book."),
                           ("user", "Noted, I'll get it.")], days_ago=200)
    result = ask(services, "Which book did John recommend?", budget=200)
    lines = quoted(result)
    assert any("Dune by Frank Herbert" in line for line in lines)
    assert not any(contentless(line.split(": ", 1)[1]) for line in lines)


def test_a_users_answer_brings_the_assistants_question(services):
    conversation(services.history, [("assistant", "What did you do today?"),
                                    ("user", "I went hiking on Mount Batur with Tom.")], days_ago=12)
    assert quoted(ask(services, "Where did I go hiking?")) == [
        "assistant: What did you do today?", "user: I went hiking on Mount Batur with Tom."]


def test_an_assistants_question_brings_the_users_answer(services):
    conversation(services.history, [("user", "Back home now."),
                                    ("assistant", "How was your weekend in Bogor?"),
                                    ("user", "Rainy, we stayed in and played board games.")], days_ago=12)
    assert quoted(ask(services, "What did I do on my weekend in Bogor?"))[:2] == [
        "assistant: How was your weekend in Bogor?", "user: Rainy, we stayed in and played board games."]


def test_a_plain_statement_stands_alone(services):
    conversation(services.history, [("user", "Our cat is called Kopi."), ("assistant", "Noted!")], days_ago=5)
    assert quoted(ask(services, "What is my cat called?")) == ["user: Our cat is called Kopi."]


def test_ends_asking_ignores_trailing_emoji_and_punctuation():
    assert ends_asking("How was the trip? 😊") and ends_asking("你去过吗？") and not ends_asking("Sure! Why not.")


def test_a_long_messages_question_comes_first():
    assert asking_first("I moved last week. Where is the nearest gym? Thanks") == (
        "Where is the nearest gym? I moved last week. Thanks")
    assert asking_first("What is my cat called?") == "What is my cat called?"
    assert asking_first("哇，今天走的路好多啊。我参观的景区怎么样？") == "我参观的景区怎么样？ 哇，今天走的路好多啊。"


def test_a_question_after_a_long_preamble_keeps_its_words(services):
    preamble = ("Busy morning: trains delayed, coffee spilled, umbrella forgotten, meeting moved, printer jammed, "
                "lunch skipped, laptop battery dying, inbox overflowing, neighbours drilling, parcel missing, "
                "dentist rescheduled, keys misplaced, phone cracked, bus crowded, weather awful. ")
    conversation(services.history, [("user", "Our cat is called Kopi.")], days_ago=5)
    result = ask(services, preamble + "Anyway, what is my cat called?", budget=60)
    assert "cat" in result.terms
    assert quoted(result)[0] == "user: Our cat is called Kopi."
