"""Facts told in several conversations are recalled together ("what books have I read?" needs four
sessions), whether or not another conversation talks about the topic at length.

A cap on turns per conversation (each score divided by 1 + d x the turns its conversation already
gave) was measured and dropped: on REALTALK it lowered every question type, multi-fact included
(docs/recall-benchmark.md), because a session's neighbouring turns carry the answers too. These
tests hold the behaviour that matters without such a rule.
"""

from __future__ import annotations

from tests.unit.recall.recall_cases import ask, conversation, quoted

FACTS = (
    "I finished reading Pachinko last night, what a book.",
    "The book I started this week is The Overstory, slow but beautiful.",
    "I read Dune again on the train.",
    "Finally read Klara and the Sun, it made me cry.",
)


def _history_with_facts_in_four_sessions(history, chatter: list[tuple[str, str]]) -> None:
    for k, fact in enumerate(FACTS):
        conversation(history, [("user", "Morning! Busy day at work."), ("assistant", "Hope it goes well."),
                               ("user", fact), ("assistant", "Nice, tell me more some time.")],
                     days_ago=60 - 12 * k)
    conversation(history, chatter, days_ago=2)


def test_facts_from_four_sessions_are_recalled_together(services):
    _history_with_facts_in_four_sessions(services.history, [("user", "What should we cook tonight?"),
                                                            ("assistant", "Pasta with mushrooms?")])
    lines = quoted(ask(services, "Which books have I read?", budget=400))
    assert [fact for fact in FACTS if any(fact in line for line in lines)] == list(FACTS)


def test_a_long_talk_about_the_topic_does_not_crowd_out_the_other_sessions(services):
    topics = ("whales", "Mars", "chess", "bakeries", "trains", "volcanoes", "jazz", "bees", "tea", "Rome")
    kinds = ("novel", "memoir", "comic", "thriller", "guide")
    # distinct turns (near-duplicates count once), each holding both words of the question
    club = [("user" if k % 2 else "assistant",
             f"Book club pick {k}: a {kinds[k % 5]} about {topics[k % 10]}; have you read any books on it?")
            for k in range(30)]
    _history_with_facts_in_four_sessions(services.history, club)
    lines = quoted(ask(services, "Which books have I read?", budget=600))
    assert [fact for fact in FACTS if any(fact in line for line in lines)] == list(FACTS)
