"""``[recall] semantic = "local"``: the shipped static table ranks recall with no endpoint.

Real services and SQLite; no server at all (nothing may be sent anywhere). The
table is the one in the package (scripts/distill_static_embeddings.py made it).
"""

from __future__ import annotations

import time

import pytest

from agenttui.core.models import Message
from agenttui.core.recall.local_embedder import DATA, LOCAL_MODEL, LocalEmbedder, unavailable_reason
from agenttui.core.recall.wordpiece import WordPiece, basic_words, vocab_ids

np = pytest.importorskip("numpy", reason="the local embedder needs NumPy (agenttui[local-embeddings])")

DOG = "My dog has been sick all week, the vet thinks it is something he ate"
FILLER = [
    "the quarterly tax return is due on the fifteenth", "we moved the staging database to a bigger disk",
    "I booked the train to Lyon for Saturday morning", "the invoice for March is still unpaid",
    "rebase the feature branch before you open the pull request",
]
QUERY = "how is my puppy doing after the vet visit?"


def _wait(predicate, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout  # generous: a shared machine
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_wordpiece_cuts_words_as_bert_does():
    # BERT's uncased quirk kept: stripping accents also drops kana's voicing marks (が -> か)
    assert basic_words("Héllo, WORLD!  naïve\t猫が好き") == [
        "hello", ",", "world", "!", "naive", "猫", "か", "好", "き"]
    tokenizer = WordPiece(vocab_ids(["[UNK]", "play", "##ing", "##ed", "un", "##play", "!"]))
    assert tokenizer.ids("Playing unplayed!") == [1, 2, 4, 5, 3, 6]
    assert tokenizer.ids("xyz") == []  # unknown: no vector to add, not [UNK]'s


def test_the_shipped_table_puts_meaning_before_words():
    assert unavailable_reason() is None
    embedder = LocalEmbedder()
    dog, puppy, tax, nothing = embedder.embed([DOG, QUERY, FILLER[0], "\u2603\u2603"])
    dog, puppy, tax = (np.frombuffer(v.tobytes(), dtype=np.float32) for v in (dog, puppy, tax))
    assert abs(float(np.linalg.norm(dog)) - 1.0) < 1e-4
    assert float(dog @ puppy) > float(tax @ puppy) + 0.1
    assert not any(nothing)  # nothing the vocabulary knows: a zero vector matches nothing
    assert embedder.worked


def test_a_missing_table_is_a_reason_not_a_crash(tmp_path):
    assert "missing" in (unavailable_reason(tmp_path / "nope.npz") or "")


def test_local_semantic_recall_backfills_and_ranks_without_an_endpoint(services):
    from agenttui.core.recall.semantic import backfill, semantic_state

    services.settings.recall.semantic = "local"
    services.settings.base_url = "http://127.0.0.1:9/v1"  # nothing listens: a request would fail the test
    history = services.history
    cid = history.create_conversation("seeded").id
    history.append_many(cid, [Message("user" if i % 2 == 0 else "assistant", text)
                              for i, text in enumerate([DOG, *FILLER])])
    state = semantic_state(services)
    assert state.enabled and state.model == LOCAL_MODEL

    ranker = services.semantic_ranker()
    assert ranker is not None and ranker.rank_messages(QUERY, 10) == []  # nothing embedded yet

    result = backfill(services)
    assert result.complete and result.error is None and result.embedded == len(FILLER) + 1
    assert state.index.count() == len(FILLER) + 1

    ranked = ranker.rank_messages(QUERY, 3)
    texts = {m.id: m.content for m in history.messages(cid)}
    assert texts[ranked[0]] == DOG


def test_a_turn_before_the_table_is_loaded_ranks_by_words_and_starts_the_load(services):
    from agenttui.core.recall.semantic import backfill, semantic_state

    services.settings.recall.semantic = "local"
    history = services.history
    cid = history.create_conversation("seeded").id
    history.append_many(cid, [Message("user", DOG), Message("assistant", FILLER[0])])
    state = semantic_state(services)
    assert backfill(services).complete
    state._client = LocalEmbedder()  # as a new session finds it: vectors stored, table not read yet

    ranker = services.semantic_ranker()
    assert ranker.rank_messages(QUERY, 3) == []  # not ready: no ranking, recall stays lexical ...
    _wait(lambda: state.client().ready)  # ... and the table loads in the background
    assert ranker.rank_messages(QUERY, 3)[:1] == [m.id for m in history.messages(cid) if m.content == DOG]


def test_ask_reads_the_table_before_its_turn_so_the_turn_ranks_by_meaning(services):
    from agenttui.core.recall.retrieval import CANDIDATES
    from agenttui.core.recall.semantic import backfill, rank_before_turn, semantic_state
    from agenttui.core.recall.text import recall_query

    services.settings.recall.semantic = "local"
    history = services.history
    cid = history.create_conversation("seeded").id
    history.append_many(cid, [Message("user", DOG), Message("assistant", FILLER[0])])
    state = semantic_state(services)
    assert backfill(services).complete
    state._client = LocalEmbedder()  # a fresh `agenttui ask` process: the table not read yet

    assert rank_before_turn(services, QUERY, timeout=60.0)
    kept = services.semantic_ranker().start_ranking(recall_query(QUERY), CANDIDATES)
    assert kept.done()  # the turn's recall finds the ranking ready
    assert kept.result()[:1] == tuple(m.id for m in history.messages(cid) if m.content == DOG)


def test_the_table_ships_in_the_package():
    assert DATA.is_file() and DATA.stat().st_size < 12_000_000
