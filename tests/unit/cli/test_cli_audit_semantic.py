"""``agenttui memory audit`` with ``[recall] semantic = "auto"`` (the default): duplicates by
meaning from the endpoint's embeddings -- two notes in two languages, no word shared."""

from __future__ import annotations

import json

import pytest

ENGLISH = "I prefer tea over coffee in the morning"
INDONESIAN = "saya lebih suka teh daripada kopi di pagi hari"


def _flags(cli) -> dict[str, list[str]]:
    result = cli("memory", "audit", "--json", "--all")
    assert result.code == 0, result.err
    return {row["item"]["text"]: row["flags"] for row in json.loads(result.out)}


@pytest.mark.slow
def test_notes_close_in_meaning_are_duplicates_by_default(cli, fake_openai):
    assert cli("memory", "add", ENGLISH).code == 0
    assert cli("memory", "add", INDONESIAN).code == 0
    fake_openai.embed_as(INDONESIAN, like=ENGLISH)
    flags = _flags(cli)
    assert "duplicate" in flags[ENGLISH] and "duplicate" in flags[INDONESIAN]
    assert fake_openai.chat_requests == []


@pytest.mark.slow
def test_an_endpoint_without_embeddings_leaves_the_audit_lexical_and_is_said_once(cli, fake_openai):
    assert cli("memory", "add", ENGLISH).code == 0
    assert cli("memory", "add", INDONESIAN).code == 0
    fake_openai.no_embeddings(404)
    first = cli("memory", "audit")
    assert first.code == 0 and "duplicates by meaning are off" in first.err
    asked = len(fake_openai.embedding_requests)
    second = cli("memory", "audit")  # remembered for this profile and endpoint: not asked again
    assert second.code == 0 and "duplicates by meaning" not in second.err
    assert len(fake_openai.embedding_requests) == asked
    assert "duplicate" not in _flags(cli)[ENGLISH]
