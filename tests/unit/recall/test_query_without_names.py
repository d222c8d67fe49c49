"""Semantic ranking embeds a short English question without the names in it.

The table covers what is taken out and what is kept; the last test runs the real ranker
against the fake endpoint, whose ``embed_as`` plays a small model that places a question
by the name in it.
"""

from __future__ import annotations

import pytest

from agenttui.core.models import Message
from agenttui.core.recall.query_without_names import MAX_WORDS, without_names
from agenttui.core.recall.retrieval import CANDIDATES
from agenttui.core.recall.semantic import backfill


@pytest.mark.parametrize(("question", "embedded"), [
    ("What food did Kevin cook?", "What food did cook?"),
    ("Which doctors are Nicolas and Nebraas discussing?", "Which doctors are and discussing?"),
    ("Kevin went where?", "went where?"),  # at the start of the sentence too
    ("What is Kopi's favourite food?", "What is favourite food?"),  # with its possessive
    ("When did Kevin go to Hawaii with Elise?", "When did go to with ?"),
    ("Did Fahim like 2666 by Roberto Bolano?", "Did like 2666 by ?"),  # stop words only: English
])
def test_names_are_taken_out_of_a_short_english_question(question, embedded):
    assert without_names(question) == embedded


@pytest.mark.parametrize("question", [
    "When did I sign the lease for the flat?",  # no capital but "I"
    "What MCU movie did NASA like?",  # acronyms carry meaning
    "What did we do on New Year's Day under the Moon?",  # capitalised English words
    "Where did I travel to in January, and on which Monday?",  # months and weekdays
    "Kevin?",  # nothing would be left
    "Wann habe ich den Vertrag mit Anna unterschrieben?",  # German capitalises its nouns
    "Quand est-ce que Marie a signé le bail ?",
    "Kapan Budi pergi ke Bali bersama Sari?",
    "小王上周去哪里了？",
    "",
])
def test_other_questions_are_embedded_as_they_are(question):
    assert without_names(question) == question


def test_a_long_message_keeps_its_names():
    filler = " ".join(["the deadline at work moved again"] * 4)
    message = f"No way I can study NumPy tonight, {filler}."
    assert len(message.split()) > MAX_WORDS
    assert without_names(message) == message


def test_the_ranker_embeds_the_question_without_the_name(fake_openai, services):
    question = "What did Kevin cook?"
    history = services.history
    cid = history.create_conversation("chat").id
    greeting, answer, *_ = history.append_many(cid, [
        Message("assistant", "Thanks Kevin"),
        Message("user", "Lasagna, every Sunday"),
        Message("assistant", "the ferry leaves at noon"),
        Message("user", "my bicycle needs new brakes"),
    ])
    # a small model: the whole question lands on the name, the rest of it on the answer
    fake_openai.embed_as(question, like="Thanks Kevin")
    fake_openai.embed_as("What did cook?", like="Lasagna, every Sunday")
    services.settings.recall.semantic = True
    assert backfill(services).complete

    ranked = services.semantic_ranker().start_ranking(question, CANDIDATES).result(timeout=60)

    assert ranked[0] == answer.id and greeting.id in ranked[1:]
    assert fake_openai.embedding_requests[-1]["input"] == ["What did cook?"]
