"""The language probe (``recall.language_probe``): a model that does not read a language is left
out of recall for queries in it, measured once per endpoint and model, never on a turn's clock.

Real services, SQLite and the ``openai`` client against the fake server. The fake's vectors
are a hashed bag of words: in Chinese (a sentence is one or two "words" to it) they carry no
meaning, related sentences no closer than unrelated ones. Its English is made to mean
something by serving each English pair's second sentence as its first (``embed_as``).
"""

from __future__ import annotations

import json

from agenttui.core.context.assemble import assemble
from agenttui.core.models import Message
from agenttui.core.recall.language_pairs import PAIRS
from agenttui.core.recall.language_probe import UNDERSTOOD, margins, not_understood
from agenttui.core.recall.query_language import language_of
from agenttui.core.recall.retrieval import CANDIDATES
from agenttui.core.recall.semantic import backfill, probe_languages, semantic_state
from agenttui.core.recall.semantic_auto import FILE_NAME
from tests.fakes.openai_server import fake_embedding
from tests.unit.history.background_worker import run_worker_until

CHINESE_QUESTION = "我的猫叫什么名字？"
ENGLISH_QUESTION = "what is my cat called?"
PROBE_TEXTS = {text for pairs in PAIRS.values() for pair in pairs for text in pair}


def _english_understood(fake) -> None:
    for first, second in PAIRS["en"]:
        fake.embed_as(second, like=first)


def _seed(services) -> str:
    history = services.history
    cid = history.create_conversation("seeded").id
    history.append_many(
        cid,
        [
            Message("user", "我的猫叫小白"),
            Message("user", "my cat is called Snow"),
            Message("assistant", "the kraken deploy pipeline failed"),
        ],
    )
    return history.create_conversation("today").id


def _probe_requests(fake) -> int:
    return sum(1 for body in fake.embedding_requests if PROBE_TEXTS & set(body["input"]))


def _queries(fake, text: str) -> int:
    return sum(1 for body in fake.embedding_requests if body["input"] == [text])


def test_vectors_without_meaning_in_a_language_are_below_the_margin_and_meaningful_ones_above():
    def meaningful_in_english(texts):
        seconds = {second: first for first, second in PAIRS["en"]}
        return [fake_embedding(seconds.get(text, text)) for text in texts]

    found = margins(meaningful_in_english)
    assert set(found) == set(PAIRS)
    assert found["zh"] < UNDERSTOOD <= found["en"]
    weak = not_understood(found)
    assert "zh" in weak and "ko" in weak and "en" not in weak


def test_query_languages_by_script_then_function_words():
    assert [
        language_of(q)
        for q in (
            ENGLISH_QUESTION,
            CHINESE_QUESTION,
            "先週何を買いましたか",
            "지난주에 뭘 샀어?",
            "Apa yang saya beli minggu lalu?",
            "Что я купил?",
            "Що я купив?",
            "Tuần trước tôi đã mua gì?",
            "Jessica Bali?",
        )
    ] == ["en", "zh", "ja", "ko", "id", "ru", "uk", "vi", None]


def test_the_indexer_probes_once_and_a_not_understood_language_ranks_by_keywords_only(fake_openai, session):
    _english_understood(fake_openai)
    first = session()
    _seed(first)
    state = semantic_state(first)
    assert state.weak_languages is None  # not probed yet

    run_worker_until(first, lambda: state.weak_languages is not None)
    probed = _probe_requests(fake_openai)  # a request per EMBED_BATCH sentences
    assert probed > 0
    assert state.weak_languages is not None and "zh" in state.weak_languages and "en" not in state.weak_languages
    assert state.ranker.rank_messages(CHINESE_QUESTION, CANDIDATES) == []  # left out ...
    assert _queries(fake_openai, CHINESE_QUESTION) == 0  # ... and nothing sent for it
    assert state.ranker.rank_messages(ENGLISH_QUESTION, CANDIDATES)  # understood: kept

    record = json.loads((first.history.db_path.parent / FILE_NAME).read_text(encoding="utf-8"))
    kept = next(iter(record["endpoints"].values()))["languages"][first.settings.recall.embedding_model]
    assert kept["margins"]["zh"] < UNDERSTOOD <= kept["margins"]["en"]

    second = session()  # a later session: the margins are kept, the probe is not sent again
    assert "zh" in (semantic_state(second).weak_languages or ())
    _seed(second)
    sent = len(fake_openai.embedding_requests)
    run_worker_until(second, lambda: len(fake_openai.embedding_requests) > sent)
    probe_languages(semantic_state(second))
    assert _probe_requests(fake_openai) == probed


def test_no_turn_waits_for_the_probe(fake_openai, services):
    current = _seed(services)
    services.settings.recall.semantic = True
    state = semantic_state(services)
    assert backfill(services).complete  # what a turn may find: vectors, and the probe not run yet
    assert state.weak_languages is None and _probe_requests(fake_openai) == 0
    for question in (CHINESE_QUESTION, ENGLISH_QUESTION):
        assemble(services, current, question, mark_used=False)
        assert _queries(fake_openai, question) == 1  # ranked by meaning, as before the probe ...
    assert _probe_requests(fake_openai) == 0 and state.weak_languages is None  # ... and never probed by a turn
