"""Semantic ranking never holds up a turn: recall waits ``SEMANTIC_WAIT`` for it at most.

Real services and SQLite, the real ``openai`` client against the fake server,
whose ``/v1/embeddings`` answers after ``embedding_delay`` seconds (the request
is recorded when it arrives, so "sent but unanswered" is observable).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from agenttui.core.context.assemble import assemble
from agenttui.core.models import Message
from agenttui.core.recall.retrieval import CANDIDATES
from agenttui.core.recall.semantic import backfill, prepare, semantic_state

REX = "I adopted a small dog named Rex"
PUPPY = "siapa nama peliharaanku?"  # no word in common with REX, nor a related one (test_embeddings)
FILLER = [
    "the kraken deploy pipeline failed on staging", "run make deploy after the migration",
    "lunch at the ramen place on friday", "the invoice for march is overdue",
]
NOW = datetime(2026, 3, 12, 9, 30, tzinfo=UTC)
DELAY = 1.5  # the endpoint's answer time: far beyond what a turn may wait (within QUERY_TIMEOUT_S)


def _seed(services, fake) -> str:
    history = services.history
    cid = history.create_conversation("seeded").id
    history.append_many(cid, [Message("user" if i % 2 == 0 else "assistant", text)
                              for i, text in enumerate([REX, "Rex is a lovely name", *FILLER])])
    fake.embed_as(PUPPY, like=REX)
    assert backfill(services).complete
    return history.create_conversation("today").id


def _queries(fake, text: str) -> int:
    return sum(1 for body in fake.embedding_requests if body["input"] == [text])


def _quotes_rex(built) -> bool:
    return any(REX in (m.get("content") or "") for m in built.messages)


@pytest.mark.slow
def test_a_slow_endpoint_never_holds_up_assembly_and_the_next_step_has_it(fake_openai, services):
    current = _seed(services, fake_openai)
    services.settings.recall.semantic = False  # ("auto" is the default)
    lexical = assemble(services, current, PUPPY, mark_used=False, now=NOW)  # semantic off
    assert not _quotes_rex(lexical)
    services.settings.recall.semantic = True
    fake_openai.embedding_delay = DELAY

    started = time.monotonic()
    first = assemble(services, current, PUPPY, mark_used=False, now=NOW)
    seconds = time.monotonic() - started

    assert seconds < DELAY / 2, seconds  # generous: the wait is 25 ms
    assert _queries(fake_openai, PUPPY) == 1  # sent ...
    ranking = services.semantic_ranker().start_ranking(PUPPY, CANDIDATES)
    assert not ranking.done()  # ... and still unanswered: the prompt did not wait for it
    assert first.messages == lexical.messages and first.warnings == []  # exactly the lexical prompt
    assert services.semantic_ranker().start_ranking(PUPPY, CANDIDATES) is ranking  # one ranking, shared

    ranking.result(timeout=DELAY * 10)  # the late ranking is kept ...
    second = assemble(services, current, PUPPY, mark_used=False, now=NOW)  # ... for the next step
    assert _quotes_rex(second) and second.warnings == []
    assert _queries(fake_openai, PUPPY) == 1  # nothing asked again


@pytest.mark.slow
def test_a_prepared_query_costs_the_turn_nothing(fake_openai, services):
    current = _seed(services, fake_openai)
    services.settings.recall.semantic = True
    fake_openai.embedding_delay = DELAY
    prepare(services, PUPPY).result(timeout=DELAY * 10)  # as the chat does while the user pauses

    started = time.monotonic()
    built = assemble(services, current, PUPPY, mark_used=False, now=NOW)

    assert time.monotonic() - started < DELAY / 2
    assert _quotes_rex(built) and _queries(fake_openai, PUPPY) == 1


def test_prepare_sends_nothing_while_semantic_is_off(fake_openai, services):
    _seed(services, fake_openai)
    services.settings.recall.semantic = False
    sent = len(fake_openai.embedding_requests)
    assert prepare(services, PUPPY) is None
    assert len(fake_openai.embedding_requests) == sent


def test_nothing_embedded_yet_sends_nothing_and_keeps_no_ranking(fake_openai, services):
    history = services.history
    cid = history.create_conversation("seeded").id
    history.append_many(cid, [Message("user", REX), Message("assistant", "Rex is a lovely name")])
    fake_openai.embed_as(PUPPY, like=REX)
    services.settings.recall.semantic = True

    assert prepare(services, PUPPY).result(timeout=5) == ()
    assert fake_openai.embedding_requests == []
    assert backfill(services).complete  # vectors arrive after the draft was prepared
    ranked = services.semantic_ranker().rank_messages(PUPPY, CANDIDATES)  # not the empty one kept
    assert ranked and semantic_state(services).enabled
