"""Rules the public development sets decided for "when" questions and a budget the matches leave:
a turn telling its event as of its day ranks first for "when did ...?", and spare budget goes to
the turns around the matches."""

from __future__ import annotations

import pytest

from agenttui.core.recall.turn_shape import asks_when, tells_when
from tests.unit.recall.recall_cases import ask, conversation, quoted


@pytest.mark.parametrize(("question", "expected"), [
    ("When did Kate dye her hair?", True),
    ("when was the concert", True),
    ("What day did we move?", True),
    ("How long ago did I quit?", True),
    ("Kapan aku pindah rumah?", True),
    ("What did Kate do when she was in Rome?", False),
    ("Where is the concert?", False),
])
def test_asks_when(question, expected):
    assert asks_when(question) is expected


@pytest.mark.parametrize(("turn", "expected"), [
    ("This morning, I started with a gentle cleanser.", True),
    ("I just got back from work like an hour ago", True),
    ("Yesterday we went to the zoo", True),
    ("Im at the movies tonight", True),
    ("Hari ini aku ke pasar", True),
    ("I like dyeing my hair every summer.", False),
])
def test_tells_when(turn, expected):
    assert tells_when(turn) is expected


def test_a_turn_telling_its_day_ranks_first_for_a_when_question(services):
    # the same words in both; the older turn tells it happened that day, the newer only talks
    # about it (the recency bonus alone would put the newer one first)
    conversation(services.history, [("user", "I repainted the garden fence green this morning.")],
                 days_ago=40)
    conversation(services.history, [("user", "The garden fence I repainted green looks great.")],
                 days_ago=5)
    for k in range(6):
        conversation(services.history, [("user", f"Walked the dog along the canal, day {k}.")],
                     days_ago=20 + k)
    result = ask(services, "When did I repaint the garden fence green?", budget=2000)
    assert quoted(result)[0] == "I repainted the garden fence green this morning."


def test_spare_budget_brings_the_turns_around_a_match(services):
    turns = [("user", "Morning! Busy day ahead."), ("assistant", "Good luck with it."),
             ("user", "The rescue called back about the tabby."), ("assistant", "Oh? What did they say?"),
             ("user", "We can pick her up on Friday!!"), ("assistant", "Wonderful news."),
             ("user", "I need to buy a litter box first.")]
    conversation(services.history, turns, days_ago=3)
    result = ask(services, "What did the rescue say about the tabby?", budget=2000)
    assert "We can pick her up on Friday!!" in quoted(result)
    assert "I need to buy a litter box first." in quoted(result)
