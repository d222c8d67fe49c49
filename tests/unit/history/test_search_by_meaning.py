"""The History search box ranks by meaning too, when messages have vectors.

Real services and SQLite; the real ``openai`` client against the fake server,
whose vectors are deterministic (``embed_as`` makes a query embed like a text).
"""

from __future__ import annotations

import pytest

from agenttui.core.history.search import search_messages
from agenttui.core.models import Message
from agenttui.core.recall.search_by_meaning import SEMANTIC_HITS, says_something, with_meaning
from agenttui.core.recall.semantic import backfill

REX = "I adopted a small dog named Rex"
FILLER = ["the kraken deploy pipeline failed on staging", "run make deploy after the migration",
          "lunch at the ramen place on friday", "the invoice for march is overdue",
          "please pay the invoice before the audit"]


def _seed(services, *, embed: bool = True) -> dict[str, int]:
    history = services.history
    cid = history.create_conversation("pets and chores").id
    stored = history.append_many(cid, [Message("user" if i % 2 == 0 else "assistant", text)
                                       for i, text in enumerate([REX, *FILLER])])
    if embed:
        assert backfill(services).complete
    return {m.content: m.id for m in stored}


def _search(services, query: str) -> list:
    return with_meaning(services, query, search_messages(services.history, query))


def test_a_query_with_no_shared_word_finds_the_message_near_in_meaning(fake_openai, services):
    ids = _seed(services)
    fake_openai.embed_as("puppy", like=REX)
    assert search_messages(services.history, "puppy") == []  # no word in common
    hits = _search(services, "puppy")
    assert hits[0].message_id == ids[REX] and hits[0].snippet == REX
    assert hits[0].conversation_title == "pets and chores" and hits[0].role == "user"
    assert len(hits) <= SEMANTIC_HITS


def test_a_full_text_hit_near_in_meaning_rises_above_one_that_is_not(fake_openai, services):
    ids = _seed(services)
    history = services.history
    extra = history.append(history.create_conversation("ledger").id,
                           Message("user", "invoice numbers go in the ledger"))
    assert backfill(services).complete
    lexical = [h.message_id for h in search_messages(history, "invoice")]
    assert set(lexical) == {ids[FILLER[3]], ids[FILLER[4]], extra.id}
    last = lexical[-1]
    text = next(m.content for m in [*history.messages(extra.conversation_id)] if m.id == last) \
        if last == extra.id else next(t for t, mid in ids.items() if mid == last)
    fake_openai.embed_as("invoice", like=text)  # the last full-text hit is the nearest in meaning

    hits = [h.message_id for h in _search(services, "invoice")]

    assert hits.index(last) < hits.index(lexical[1])  # it rose above a hit that is not as near
    assert set(hits[:3]) == set(lexical)  # the matches first, then what is only near in meaning
    assert ids[REX] in hits[3:]


def test_without_vectors_the_full_text_hits_come_back_and_nothing_is_sent(fake_openai, services):
    _seed(services, embed=False)
    lexical = search_messages(services.history, "invoice")
    assert _search(services, "invoice") == lexical and lexical
    assert fake_openai.embedding_requests == []


def test_a_failing_endpoint_leaves_the_full_text_hits_silently(fake_openai, services):
    _seed(services)
    fake_openai.no_embeddings(404)
    lexical = search_messages(services.history, "invoice")
    assert _search(services, "invoice") == lexical
    assert _search(services, "puppy") == []


def test_semantic_off_sends_nothing(fake_openai, services):
    _seed(services)
    sent = len(fake_openai.embedding_requests)
    services.settings.recall.semantic = False
    fake_openai.embed_as("puppy", like=REX)
    assert _search(services, "puppy") == []
    assert len(fake_openai.embedding_requests) == sent


def test_the_local_embedder_serves_the_search_box_too(services):
    pytest.importorskip("numpy", reason="the local embedder needs NumPy (agenttui[local-embeddings])")
    services.settings.recall.semantic = "local"
    dog = "My dog has been sick all week, the vet thinks it is something he ate"
    history = services.history
    cid = history.create_conversation("vet").id
    history.append_many(cid, [Message("user", dog), *(Message("user", t) for t in FILLER)])
    assert backfill(services).complete
    hits = _search(services, "puppy at the veterinarian")
    assert hits and hits[0].snippet.startswith("My dog has been sick")


def test_keyboard_mash_finds_nothing_by_meaning_and_sends_nothing(fake_openai, services):
    _seed(services)
    fake_openai.embed_as("qqqzzz", like=REX)  # were it asked, the nearest would be Rex
    sent = len(fake_openai.embedding_requests)
    assert _search(services, "qqqzzz") == []
    assert len(fake_openai.embedding_requests) == sent  # the query was not even embedded


def test_a_word_of_another_language_still_searches_by_meaning(fake_openai, services):
    ids = _seed(services)
    fake_openai.embed_as("anjing", like=REX)  # Indonesian "dog": no English word, no shared word
    assert _search(services, "anjing")[0].message_id == ids[REX]


@pytest.mark.parametrize("query, meant", [
    ("qqqzzz", False), ("asdfgh", False), ("hjkl hjkl", False), ("qwertyuiop", False), ("zzzz", False),
    ("2023 1999", False), ("", False),
    ("puppy", True), ("rhythm", True), ("anjing", True), ("perro", True), ("导入", True),
    ("собака", True), ("Straße", True), ("kubern", True), ("saya mau", True), ("qqq dog", True),
])
def test_what_says_something(query, meant):
    assert says_something(query) is meant
