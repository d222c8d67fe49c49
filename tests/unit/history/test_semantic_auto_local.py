"""``semantic = "auto"`` on an endpoint without embeddings stays keyword-only, extra or not.

The shipped static table lowered recall when fused in on the public
development sets (RealMem, MemDaily), so "auto" never hands over to it, even
with ``agenttui[local-embeddings]`` installed (NumPy here); ``"local"`` by name
still indexes on this machine.

Real services, SQLite and the ``openai`` client against the fake server.
"""

from __future__ import annotations

import pytest

from agenttui.core.context.assemble import assemble
from agenttui.core.models import Message
from agenttui.core.recall.embeddings import EmbeddingIndex
from agenttui.core.recall.local_embedder import LOCAL_MODEL
from agenttui.core.recall.semantic import backfill, rank_before_turn, semantic_state
from tests.unit.history.background_worker import run_worker_until

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


def test_auto_without_endpoint_embeddings_stays_lexical_even_with_the_local_extra(fake_openai, session):
    """The static table lowered recall on the public development sets when fused in, so "auto"
    does not hand over to it: keyword recall, said once, and nothing indexed anywhere."""
    fake_openai.no_embeddings(404)
    first = session()
    assert first.settings.recall.semantic == "auto"
    current = _seed(first)

    result = backfill(first)
    assert result.notice is not None and "keyword search" in result.notice and "404" in result.notice
    assert "made on this machine" not in result.notice
    state = semantic_state(first)
    assert not state.enabled and state.model != LOCAL_MODEL
    assert _local_vectors(first) == 0
    built = assemble(first, current, "how is my puppy doing after the vet visit?", mark_used=False)
    assert all("made on this machine" not in w for w in built.warnings)

    second = session()  # a later session: the refusal is remembered; nothing asked, said or indexed
    _seed(second)
    assert semantic_state(second).model != LOCAL_MODEL
    assert not rank_before_turn(second, "how is my puppy doing after the vet visit?", timeout=5)
    assert backfill(second).embedded == 0 and _local_vectors(second) == 0
    assert len(fake_openai.embedding_requests) == 1  # the one refused request


def test_local_by_name_still_indexes_on_this_machine(fake_openai, session, paths):
    paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text('[recall]\nsemantic = "local"\n')
    services = session()
    assert services.settings.recall.semantic == "local"
    _seed(services)
    run_worker_until(services, lambda: _local_vectors(services) == 5)
    ranking = semantic_state(services).ranker.rank_messages("how is my puppy doing after the vet visit?", 3)
    assert services.history.get_message(ranking[0]).content == DOG
    assert fake_openai.requests == []


def test_without_the_extra_auto_stays_lexical_with_the_keyword_notice(fake_openai, session, without_local_extra):
    fake_openai.no_embeddings(404)
    first = session()
    _seed(first)
    result = backfill(first)
    assert result.notice is not None and "keyword search" in result.notice
    assert "made on this machine" not in result.notice
    assert not semantic_state(first).enabled and _local_vectors(first) == 0
