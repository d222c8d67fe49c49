"""Duplicates by meaning through the real openai client and the fake server.

The fake server's vectors are a hashed bag of words (texts sharing words are
close); ``embed_as`` makes a paraphrase with other words a true neighbour.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agenttui.core.audit import vectors as audit_vectors
from agenttui.core.audit.findings import audit
from agenttui.core.models import MemoryItem
from agenttui.core.recall.embedding_client import EmbeddingClient, EmbeddingError

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def note(text):
    return MemoryItem(kind="note", scope="user", text=text, created=NOW, updated=NOW)


@pytest.fixture(autouse=True)
def _fresh_cache():
    audit_vectors.forget()
    yield
    audit_vectors.forget()


def test_a_paraphrase_is_found_by_embeddings_and_not_without(fake_openai):
    fake_openai.embed_as("Every Sunday night I phone my mother", like="Call my mom every Sunday evening")
    fake_openai.embed_as("phone", like="call")  # the one swapped word means the same
    items = [note("Call my mom every Sunday evening"), note("Every Sunday night I phone my mother"),
             note("Nadia picks up the kids at 14:30"), note("Raka picks up the kids at 14:30")]
    assert [f.flags for f in audit(items, now=NOW)] == [[], [], [], []]  # call/phone: no bridge in words
    client = EmbeddingClient(fake_openai.base_url, "test-key", "fake-embed")
    embed = audit_vectors.cached_embedder(client)
    found = audit(items, now=NOW, embed=embed)
    assert found[0].flags == ["duplicate"] and found[0].twins == [items[1].id]
    assert "embedding cosine 1.00" in found[0].matched[items[1].id]
    assert found[2].flags == [] and found[3].flags == []  # close vectors, two people
    # the second audit (the screen after an edit) sends nothing already embedded
    sent = len(fake_openai.embedding_requests)
    audit(items, now=NOW, embed=embed)
    assert len(fake_openai.embedding_requests) == sent


def test_an_endpoint_without_embeddings_raises_for_the_caller(fake_openai):
    fake_openai.no_embeddings()
    embed = audit_vectors.cached_embedder(EmbeddingClient(fake_openai.base_url, "k", "fake-embed"))
    with pytest.raises(EmbeddingError):
        audit([note("Call my mom"), note("Call mom")], now=NOW, embed=embed)
