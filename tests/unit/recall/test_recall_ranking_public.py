"""Ranking rules the public development sets (bench/bench_recall_public.py) decided: other
inflections are words of the one query, weighted by their own idf."""

from __future__ import annotations

from tests.unit.recall.recall_cases import ask, conversation, quoted


def test_an_irregular_form_is_a_word_of_the_one_query(services):
    # "bought" is a form of "buy" that porter does not fold: it is searched beside the
    # question's own words, in the same query (no list of its own)
    for k in range(20):
        conversation(services.history, [("user", f"I walked along the river, lap {k}.")], days_ago=50 + k)
    conversation(services.history, [("user", "I bought a blue kayak at the Sunday market.")], days_ago=200)
    result = ask(services, "Where did I buy the kayak?", budget=40)
    assert "bought" in result.terms
    assert quoted(result)[0] == "I bought a blue kayak at the Sunday market."
