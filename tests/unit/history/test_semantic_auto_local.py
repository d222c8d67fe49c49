"""``semantic = "auto"`` on an endpoint without embeddings hands over to the local embedder.

When ``agenttui[local-embeddings]`` is installed (NumPy here), the refusal is
said once -- as "ranks with embeddings made on this machine", not "keyword
search" -- and indexing goes on with the shipped static table; later sessions
use it from the start, asking the endpoint nothing and saying nothing. Without
the extra, the lexical notice of ``test_semantic_auto`` holds.

Real services, SQLite and the ``openai`` client against the fake server.
"""

from __future__ import annotations

import threading
import time

import pytest

from agenttui.core.context.assemble import assemble
from agenttui.core.models import Message
from agenttui.core.recall.embeddings import EmbeddingIndex
from agenttui.core.recall.local_embedder import LOCAL_MODEL
from agenttui.core.recall.semantic import backfill, rank_before_turn, run_background, semantic_state

pytest.importorskip("numpy", reason="the local embedder needs NumPy (agenttui[local-embeddings])")

DOG = "My dog has been sick all week, the vet thinks it is something he ate"
FILLER = ["the quarterly tax return is due on the fifteenth", "we moved the staging database to a bigger disk",
          "I booked the train to Lyon for Saturday morning", "rebase the feature branch before the pull request"]


def _seed(services) -> str:
    history = services.history
    cid = history.create_conversation("seeded").id
    history.append_many(cid, [Message("user" if i % 2 == 0 else "assistant", t)
                              for i, t in enumerate([DOG, *FILLER])])
    return history.create_conversation("today").id


def _local_vectors(services) -> int:
    index = EmbeddingIndex.for_history(services.history, LOCAL_MODEL)
    try:
        return index.count()
    finally:
        index.close()


def _run_worker(services, until) -> list[str]:
    stop, notices = threading.Event(), []
    worker = threading.Thread(target=run_background, args=(services,),
                              kwargs={"stop": stop, "notify": notices.append, "idle": 0.05, "retry": 0.05})
    worker.start()
    try:
        deadline = time.monotonic() + 60  # generous: a shared machine
        while not until():
            assert time.monotonic() < deadline, "timed out"
            time.sleep(0.02)
    finally:
        stop.set()
        worker.join(timeout=30)
    return notices


def test_auto_without_endpoint_embeddings_indexes_locally_and_says_so_once(fake_openai, session):
    fake_openai.no_embeddings(404)
    first = session()
    assert first.settings.recall.semantic == "auto"
    current = _seed(first)

    notices = _run_worker(first, lambda: _local_vectors(first) == 5)

    assert len(notices) == 1
    assert "made on this machine" in notices[0] and "404" in notices[0]
    assert "keyword search" not in notices[0]
    assert len(fake_openai.embedding_requests) == 1  # the one refused request; the rest stayed here
    state = semantic_state(first)
    assert state.enabled and state.model == LOCAL_MODEL and state.take_notice() is None
    ranking = state.ranker.rank_messages("how is my puppy doing after the vet visit?", 3)
    assert first.history.get_message(ranking[0]).content == DOG
    built = assemble(first, current, "how is my puppy doing after the vet visit?", mark_used=False)
    assert built.warnings == []  # said once, by the worker

    second = session()  # a later session: local from the start, nothing asked or said
    _seed(second)
    assert semantic_state(second).model == LOCAL_MODEL
    assert rank_before_turn(second, "how is my puppy doing after the vet visit?", timeout=60)
    result = backfill(second)
    assert result.embedded == 5 and result.notice is None
    assert semantic_state(second).take_notice() is None
    assert len(fake_openai.embedding_requests) == 1


def test_without_the_extra_auto_stays_lexical_with_the_keyword_notice(fake_openai, session, without_local_extra):
    fake_openai.no_embeddings(404)
    first = session()
    _seed(first)
    result = backfill(first)
    assert result.notice is not None and "keyword search" in result.notice
    assert "made on this machine" not in result.notice
    assert not semantic_state(first).enabled and _local_vectors(first) == 0
