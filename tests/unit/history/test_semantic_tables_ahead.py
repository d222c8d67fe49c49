"""The stored vectors' in-memory tables are loaded before the first turn needs them.

The first ranking of a session reads the newest vectors' sign bits and makes their int8
codes (0.7-0.9 s of CPU at 200,000 vectors). The app's start-up preparation loads them
(``agent.prepare.prepare_prompt``), reading the history only: nothing goes to the endpoint,
and the first turn's ranking then reads nothing for its tables.
"""

from __future__ import annotations

import numpy as np

from agenttui.agent.prepare import prepare_prompt
from agenttui.core.models import Message
from agenttui.core.recall.embeddings import EmbeddingIndex
from agenttui.core.recall.semantic import backfill, semantic_state

MODEL = "test-model"


def test_load_tables_reads_the_newest_vectors_so_the_first_ranking_reads_none(services):
    rng = np.random.default_rng(3)
    cid = services.history.create_conversation("vectors").id
    ids = [m.id for m in services.history.append_many(cid, [Message("user", f"m{n}") for n in range(300)])]
    vectors = rng.standard_normal((300, 32))
    index = EmbeddingIndex.for_history(services.history, MODEL)
    assert index.load_tables() == 0  # nothing stored yet
    index.store(zip(ids, vectors.tolist(), strict=True))
    assert index.load_tables() == 300
    ranked = index.rank_messages(vectors[5].tolist(), 10)
    assert index.last_scan.steps == []  # the table was there: the first ranking read none of it
    index.close()
    fresh = EmbeddingIndex.for_history(services.history, MODEL)
    assert fresh.rank_messages(vectors[5].tolist(), 10) == ranked and ranked[0] == ids[5]
    assert fresh.last_scan.steps  # without the load, the ranking reads the table itself
    fresh.close()


def test_the_start_up_preparation_loads_them_and_sends_nothing(fake_openai, services):
    history = services.history
    cid = history.create_conversation("seeded").id
    history.append_many(cid, [Message("user", "I adopted a small dog named Rex"),
                              Message("assistant", "Rex is a lovely name")])
    services.settings.recall.semantic = True
    assert backfill(services).complete
    sent = len(fake_openai.embedding_requests)
    chats = len(fake_openai.chat_requests)

    prepare_prompt(services)

    index = semantic_state(services).index
    assert len(fake_openai.embedding_requests) == sent and len(fake_openai.chat_requests) == chats
    assert any(len(table.ids) == 2 for table in index._signs.values())  # both vectors, in memory
