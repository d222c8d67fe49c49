"""Semantic recall (issue "Recall", item 1): embeddings from the endpoint, stored, fused.

Real services and SQLite, the real ``openai`` client against the fake server,
whose ``/v1/embeddings`` serves deterministic hashed bag-of-words vectors.
"""

from __future__ import annotations

import math
import sqlite3
import time

import pytest

from agenttui.core.context.assemble import assemble
from agenttui.core.models import Message, ToolCall
from agenttui.core.recall.embeddings import PENDING_CHARS, EmbeddingIndex, dot, from_blob
from agenttui.core.recall.retrieval import CANDIDATES, RecallRequest, recall
from agenttui.core.recall.semantic import backfill, semantic_state

MODEL = "text-embedding-3-small"  # the default [recall] embedding_model

REX = "I adopted a small dog named Rex"
# No word in common with REX, nor one related in meaning (recall.related would bridge
# "what is my puppy called?" to "dog": the table is English only).
PUPPY = "siapa nama peliharaanku?"
FILLER = [
    "the kraken deploy pipeline failed on staging", "run make deploy after the migration",
    "lunch at the ramen place on friday", "the invoice for march is overdue",
    "my bicycle needs new brakes", "the garden tomatoes are ripe",
]


def _conversation(services, texts: list[str]) -> list[int]:
    """A conversation of alternating user/assistant messages; their ids."""
    history = services.history
    cid = history.create_conversation("seeded").id
    stored = history.append_many(cid, [Message("user" if i % 2 == 0 else "assistant", text)
                                       for i, text in enumerate(texts)])
    return [m.id for m in stored]


def _rows(services) -> list[tuple[int, str, int, bytes]]:
    conn = sqlite3.connect(str(services.history.db_path))
    try:
        return conn.execute("SELECT message_id, model, dim, vector FROM embeddings ORDER BY message_id").fetchall()
    finally:
        conn.close()


def _sent(fake) -> list[str]:
    return [text for body in fake.embedding_requests for text in body["input"]]


def _message_ids(result) -> set[int]:
    return {mid for s in result.snippets if s.source == "message" for mid in s.message_ids}


def test_backfill_stores_unit_vectors_of_text_messages_only(fake_openai, services):
    texts = ["alpha one", "beta two", "gamma three", "delta four", "epsilon five"]
    ids = _conversation(services, texts)
    cid = services.history.get_message(ids[0]).conversation_id
    services.history.append(cid, Message("assistant", None, tool_calls=[ToolCall("c1", "recall", "{}")]))
    services.history.append(cid, Message("tool", "tool output", tool_call_id="c1", name="recall"))
    services.history.append(cid, Message("assistant", "   "))

    result = backfill(services, batch=2)

    assert result.complete and result.error is None
    assert result.embedded == 5 and result.batches == [2, 2, 1]
    assert [len(body["input"]) for body in fake_openai.embedding_requests] == [2, 2, 1]
    assert _sent(fake_openai) == texts[::-1]  # newest first
    rows = _rows(services)
    assert [r[0] for r in rows] == ids
    for (_mid, model, dim, blob), text in zip(rows, texts, strict=True):
        vector = from_blob(blob)
        assert model == MODEL and dim == 64 == len(vector)
        assert math.isclose(math.sqrt(dot(vector, vector)), 1.0, rel_tol=1e-5)
        expected = fake_openai.embedding_for(text)
        assert max(abs(a - b) for a, b in zip(vector, expected, strict=True)) < 1e-6

    again = backfill(services, batch=2)
    assert again.complete and again.embedded == 0
    assert len(fake_openai.embedding_requests) == 3  # nothing sent twice


def test_an_interrupted_backfill_resumes_without_duplicates(fake_openai, services):
    texts = [f"message number {n} about topic {n}" for n in range(7)]
    _conversation(services, texts)

    first = backfill(services, batch=3, should_stop=lambda: len(fake_openai.embedding_requests) >= 1)
    assert first.stopped and not first.complete and first.embedded == 3
    assert len(_rows(services)) == 3

    # a failure mid-pass (HTTP 500 on the next batch) keeps what was committed
    def fail_next() -> bool:
        fake_openai.embeddings_status = 500
        return False

    second = backfill(services, batch=3, should_stop=fail_next)
    assert second.error is not None and second.error.kind == "transient" and second.embedded == 0
    assert semantic_state(services).enabled and second.notice is None  # a 500 is not "no embeddings"

    fake_openai.embeddings_status = None
    third = backfill(services, batch=3)
    assert third.complete and third.embedded == 4
    rows = _rows(services)
    assert len(rows) == 7 == len({r[0] for r in rows})
    embedded_texts = [t for body in fake_openai.embedding_requests[:1] + fake_openai.embedding_requests[2:]
                      for t in body["input"]]
    assert sorted(embedded_texts) == sorted(texts)  # each text sent once (the 500 batch aside)


def test_a_rejected_text_is_skipped_and_the_rest_embedded(fake_openai, services):
    texts = ["first fine text", "a text the model refuses", "another fine text", "last fine text"]
    ids = _conversation(services, texts)
    assert backfill(services, batch=1, limit=1).embedded == 1  # the endpoint has worked once
    fake_openai.embedding_rejects.append("refuses")

    result = backfill(services, batch=4)

    assert result.error is None and result.complete and result.embedded == 2
    assert sorted(r[0] for r in _rows(services)) == [ids[0], ids[2], ids[3]]
    assert semantic_state(services).enabled


def test_a_neighbour_without_shared_words_is_recalled_only_with_semantic_on(fake_openai, services):
    ids = _conversation(services, [REX, "Rex is a lovely name for a dog", *FILLER])
    fake_openai.embed_as(PUPPY, like=REX)
    assert backfill(services).complete
    current = services.history.create_conversation("today").id
    lexical = recall(RecallRequest(PUPPY, sources=("message",)), history=services.history)
    assert ids[0] not in _message_ids(lexical)

    services.settings.recall.semantic = True
    ranker = services.semantic_ranker()
    # Ranked ahead, as the chat does while typing pauses: a recall finding the ranking not ready
    # within its deadline recalls by words alone, which a busy machine made this test see.
    ranker.start_ranking(PUPPY, CANDIDATES).result(timeout=60)
    fused = recall(RecallRequest(PUPPY, sources=("message",), semantic=ranker), history=services.history)
    assert ids[0] in _message_ids(fused)
    assert not fused.notices

    requests = len(fake_openai.embedding_requests)
    ranked = ranker.rank_messages(PUPPY, 40)
    assert ranked[0] == ids[0]  # the nearest vector ranks first
    assert ranker.rank_messages(PUPPY, 40) == ranked
    assert len(fake_openai.embedding_requests) == requests  # kept for the turn's later steps

    # and through context assembly, as a turn sees it
    with_semantic = assemble(services, current, PUPPY, mark_used=False)
    assert REX in with_semantic.messages[1]["content"]
    services.settings.recall.semantic = False
    without = assemble(services, current, PUPPY, mark_used=False)
    assert all(REX not in m["content"] for m in without.messages)


def test_no_embeddings_endpoint_degrades_to_lexical_with_one_notice(fake_openai, services):
    ids = _conversation(services, ["how do we deploy the kraken service?", "run make deploy"])
    current = services.history.create_conversation("today").id
    services.settings.recall.semantic = True
    fake_openai.no_embeddings()

    result = backfill(services)

    assert result.error is not None and result.error.kind == "unavailable"
    assert result.notice and "/v1/embeddings" in result.notice and _rows(services) == []
    state = semantic_state(services)
    assert state.take_notice() == result.notice and state.take_notice() is None
    assert services.semantic_ranker() is None
    for _ in range(2):
        assembled = assemble(services, current, "kraken deploy", mark_used=False)
        assert ids[0] in {mid for s in assembled.recalled for mid in s.message_ids}
        assert assembled.warnings == []  # the notice was given once, by the backfill
    assert backfill(services).embedded == 0
    assert len(fake_openai.embedding_requests) == 1  # nothing asked again this session


def test_embeddings_failing_during_turns_give_one_notice_and_lexical_results(fake_openai, services):
    ids = _conversation(services, ["how do we deploy the kraken service?", "run make deploy", *FILLER])
    assert backfill(services).complete
    current = services.history.create_conversation("today").id
    services.settings.recall.semantic = True
    fake_openai.no_embeddings()

    turns = [assemble(services, current, "kraken deploy", mark_used=False) for _ in range(3)]

    warnings = [w for t in turns for w in t.warnings]
    assert len(warnings) == 1 and "Semantic recall is off" in warnings[0] and "404" in warnings[0]
    for turn in turns:
        assert ids[0] in {mid for s in turn.recalled for mid in s.message_ids}
    assert semantic_state(services).take_notice() is not None  # the UI can still show it, once
    assert semantic_state(services).take_notice() is None


def test_a_slow_endpoint_times_out_and_semantic_turns_off(fake_openai, services):
    ids = _conversation(services, ["how do we deploy the kraken service?", *FILLER])
    assert backfill(services).complete
    current = services.history.create_conversation("today").id
    services.settings.recall.semantic = True
    services.semantic_ranker().timeout = 0.2
    fake_openai.embedding_delay = 5.0

    first = assemble(services, current, "kraken deploy", mark_used=False)  # waits 25 ms, not 0.2 s
    assert first.warnings == []  # late is not a failure
    deadline = time.monotonic() + 5
    while semantic_state(services).enabled and time.monotonic() < deadline:
        time.sleep(0.02)  # the query's 0.2 s timeout, in the ranking's thread
    turns = [assemble(services, current, "kraken deploy", mark_used=False) for _ in range(2)]

    for turn in (first, *turns):
        assert ids[0] in {mid for s in turn.recalled for mid in s.message_ids}
    assert len(turns[0].warnings) == 1 and "timed out" in turns[0].warnings[0]  # the next turn says it
    assert turns[1].warnings == []  # once
    assert services.semantic_ranker() is None


def test_memory_is_bounded_by_batches(fake_openai, services):
    texts = [f"note {n} on subject {n % 7}" for n in range(49)] + ["x" * 50_000]
    ids = _conversation(services, texts)
    index = EmbeddingIndex.for_history(services.history, MODEL)
    pending = index.pending(7)
    assert len(pending) == 7 and pending[0] == (ids[-1], "x" * PENDING_CHARS)  # cut in SQL

    result = backfill(services, batch=8)
    assert max(result.batches) <= 8 and sum(result.batches) == 50
    assert max(len(body["input"]) for body in fake_openai.embedding_requests) <= 8
    assert max(len(t) for t in _sent(fake_openai)) <= PENDING_CHARS

    query = fake_openai.embedding_for("subject 3")
    index.rank_messages(query, 1, scan_batch=16, pool=5)
    assert index.last_scan.steps == [16, 16, 16, 2] and index.last_scan.pooled == 25  # 25 x limit
    newest = index.rank_messages(query, 5, max_scan=20, scan_batch=16)
    assert index.last_scan.steps == []  # the signs in memory are read again, not the database
    assert set(newest) <= set(ids[-20:])
    index.close()


def test_the_signs_kept_in_memory_follow_what_is_stored_and_deleted(fake_openai, services, monkeypatch):
    """The first pass's table (sign_table) sees new vectors at the next ranking, older ones
    stored by this index at once and by another connection within RELOAD_S, and a deleted
    message is never ranked."""
    from agenttui.core.recall import sign_table

    _conversation(services, FILLER)
    assert backfill(services).complete  # through the session's own index: another connection
    index = EmbeddingIndex.for_history(services.history, MODEL)
    query = fake_openai.embedding_for(REX)
    assert index.rank_messages(query, 3, pool=50) and index.last_scan.steps == [len(FILLER)]

    rex = _conversation(services, [REX, "Nice name."])
    assert backfill(services).complete
    ranked = index.rank_messages(query, 3, pool=50)
    assert ranked[0] == rex[0] and index.last_scan.steps == [2]  # only what is new was read

    older = _conversation(services, ["my dog Rex is small", "ok"])  # newer ids, stored below as old
    _conversation(services, ["the weather today", "sunny"])
    assert backfill(services).complete  # now `older` holds vectors and `later` too
    conn = sqlite3.connect(str(services.history.db_path), isolation_level=None)
    saved = conn.execute("SELECT message_id, vector FROM embeddings WHERE message_id IN (?, ?)",
                         tuple(older)).fetchall()
    conn.execute("DELETE FROM embeddings WHERE message_id IN (?, ?)", tuple(older))
    conn.close()
    index.rank_messages(query, 3, pool=50)  # reads `later`; `older` has no vector now
    index.store([(mid, list(from_blob(blob))) for mid, blob in saved])  # this index, below the newest
    assert older[0] in index.rank_messages(query, 3, pool=50)  # reloaded whole at once

    conn = sqlite3.connect(str(services.history.db_path), isolation_level=None)
    conn.execute("DELETE FROM embeddings WHERE message_id IN (?, ?)", tuple(older))
    conn.close()
    assert older[0] not in index.rank_messages(query, 3, pool=50)  # its vector is gone: dropped

    gap = _conversation(services, ["Rex my dog sleeps a lot", "ok"])
    _conversation(services, ["the train was late", "again"])
    assert backfill(services).complete
    conn = sqlite3.connect(str(services.history.db_path), isolation_level=None)
    kept = conn.execute("SELECT message_id, model, dim, bits, vector FROM embeddings WHERE message_id IN (?, ?)",
                        tuple(gap)).fetchall()
    conn.execute("DELETE FROM embeddings WHERE message_id IN (?, ?)", tuple(gap))
    conn.close()
    assert gap[0] not in index.rank_messages(query, 5, pool=50)  # reads the train, not `gap`
    conn = sqlite3.connect(str(services.history.db_path), isolation_level=None)
    conn.executemany("INSERT INTO embeddings VALUES (?, ?, ?, ?, ?)", kept)  # another process, below the newest
    conn.close()
    assert gap[0] not in index.rank_messages(query, 5, pool=50)  # not read until a reload is due
    monkeypatch.setattr(sign_table, "RELOAD_S", 0.0)
    conn = sqlite3.connect(str(services.history.db_path), isolation_level=None)
    conn.execute("UPDATE conversations SET title = 'touched'")  # the database changed meanwhile
    conn.close()
    assert gap[0] in index.rank_messages(query, 5, pool=50)  # seen by the reload once it is due
    services.history.delete(services.history.get_message(rex[0]).conversation_id)
    assert rex[0] not in index.rank_messages(query, 3, pool=50)  # deleted: never ranked
    index.close()


def test_ranking_is_exact_cosine_order_when_the_pool_holds_everything(fake_openai, services):
    texts = [f"{a} {b}" for a in ("red", "green", "blue", "cyan") for b in ("cat", "dog", "owl", "fox", "eel")]
    ids = _conversation(services, texts)
    assert backfill(services).complete
    index = EmbeddingIndex.for_history(services.history, MODEL)
    query = fake_openai.embedding_for("green owl eel")

    ranked = index.rank_messages(query, 8, pool=len(texts))

    exact = sorted(zip(ids, texts, strict=True),
                   key=lambda pair: (-dot(query, fake_openai.embedding_for(pair[1])), -pair[0]))
    assert ranked == [mid for mid, _ in exact[:8]]
    assert ranked[0] in {ids[texts.index("green owl")], ids[texts.index("green eel")]}
    index.close()


def test_vectors_follow_their_messages(fake_openai, services):
    ids = _conversation(services, ["keep this one", "edit this one", "and this"])
    assert backfill(services).complete
    conn = sqlite3.connect(str(services.history.db_path), isolation_level=None)
    conn.execute("UPDATE messages SET content = 'edited' WHERE id = ?", (ids[1],))
    conn.close()
    assert [r[0] for r in _rows(services)] == [ids[0], ids[2]]  # the stale vector is gone
    services.history.delete(services.history.get_message(ids[0]).conversation_id)
    assert _rows(services) == []  # cascade


def test_another_model_re_embeds_and_replaces(fake_openai, services):
    _conversation(services, ["one text", "two texts"])
    assert backfill(services).embedded == 2
    services.settings.recall.embedding_model = "nomic-embed-text"
    assert backfill(services).embedded == 2
    assert [r[1] for r in _rows(services)] == ["nomic-embed-text"] * 2
    assert fake_openai.embedding_requests[-1]["model"] == "nomic-embed-text"


@pytest.mark.parametrize("status", [400, 405, 501])
def test_other_answers_of_an_endpoint_without_embeddings(fake_openai, services, status, without_local_extra):
    _conversation(services, ["some text"])
    fake_openai.no_embeddings(status)
    result = backfill(services)
    assert result.error.kind == "unavailable" and result.notice and not semantic_state(services).enabled


def test_nothing_listening_is_unavailable(services, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    _conversation(services, ["some text"])
    result = backfill(services)
    assert result.error.kind == "unavailable" and "cannot reach" in result.notice


def test_without_a_key_semantic_waits_silently_for_one(fake_openai, services, monkeypatch):
    _conversation(services, ["some text"])
    services.settings.recall.semantic = True
    monkeypatch.delenv("OPENAI_API_KEY")
    assert services.semantic_ranker() is None
    result = backfill(services)
    assert result.error is not None and "no API key" in str(result.error) and result.notice is None
    assert semantic_state(services).take_notice() is None  # the chat says it; no second notice
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-fake")  # set later in the session
    assert backfill(services).embedded == 1 and services.semantic_ranker() is not None


def test_background_worker_embeds_new_messages_and_stops_when_asked(fake_openai, services):
    import threading
    import time

    from agenttui.core.recall.semantic import run_background

    ids = _conversation(services, ["first old text", "second old text"])
    services.settings.recall.semantic = True
    stop, notices = threading.Event(), []
    worker = threading.Thread(target=run_background, args=(services,),
                              kwargs={"stop": stop, "notify": notices.append, "idle": 0.05})
    worker.start()

    def until(predicate) -> None:
        deadline = time.monotonic() + 10
        while not predicate():
            assert time.monotonic() < deadline, "timed out"
            time.sleep(0.02)

    try:
        until(lambda: len(_rows(services)) == 2)
        cid = services.history.get_message(ids[0]).conversation_id
        services.history.append(cid, Message("user", "a newer text"))
        until(lambda: len(_rows(services)) == 3)
        from agenttui.core.recall.language_pairs import PAIRS

        probe = {text for pairs in PAIRS.values() for pair in pairs for text in pair}  # the language probe's
        assert [t for t in _sent(fake_openai) if t not in probe] == ["second old text", "first old text",
                                                                      "a newer text"]
    finally:
        stop.set()
        worker.join(timeout=5)
    assert not worker.is_alive() and notices == []


def test_background_worker_writes_nothing_while_paused_and_resumes_after(fake_openai, services):
    """The app pauses indexing while incognito: not a vector is written, not a text is sent."""
    import threading
    import time

    from agenttui.core.recall.semantic import run_background

    _conversation(services, ["first old text", "second old text"])
    services.settings.recall.semantic = True
    stop, incognito, polls = threading.Event(), threading.Event(), []
    incognito.set()

    def paused() -> bool:
        polls.append(1)
        return incognito.is_set()

    worker = threading.Thread(target=run_background, args=(services,),
                              kwargs={"stop": stop, "notify": lambda _: None, "idle": 0.05,
                                      "paused": paused})
    worker.start()
    try:
        deadline = time.monotonic() + 30
        while len(polls) < 3:  # the worker has looked three times (a condition, not a delay)
            assert time.monotonic() < deadline, "the worker never asked"
            time.sleep(0.02)
        assert _rows(services) == [] and _sent(fake_openai) == []
        incognito.clear()
        while len(_rows(services)) < 2:
            assert time.monotonic() < deadline, "indexing did not resume"
            time.sleep(0.02)
    finally:
        stop.set()
        worker.join(timeout=10)
    assert not worker.is_alive()
