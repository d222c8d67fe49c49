"""``[recall] semantic = "auto"`` (the default): said once per profile and endpoint, remembered.

Real services, SQLite and the ``openai`` client against the fake server. A
"session" is a fresh ``build_services`` on the same data dir.
"""

from __future__ import annotations

import json

from agenttui.core.context.assemble import assemble
from agenttui.core.models import Message
from agenttui.core.recall.semantic import backfill, semantic_state
from agenttui.core.recall.semantic_auto import FILE_NAME, REPROBE_DAYS
from tests.unit.history.background_worker import run_worker_until


def _seed(services, texts=("how do we deploy the kraken service?", "run make deploy")) -> str:
    history = services.history
    cid = history.create_conversation("seeded").id
    history.append_many(cid, [Message("user" if i % 2 == 0 else "assistant", t) for i, t in enumerate(texts)])
    return cid


def _record(services) -> dict:
    return json.loads((services.history.db_path.parent / FILE_NAME).read_text(encoding="utf-8"))


def test_auto_is_the_default_and_says_once_per_profile_and_endpoint_that_history_is_sent(
        fake_openai, session):
    first = session()
    assert first.settings.recall.semantic == "auto"
    _seed(first)
    index = semantic_state(first).index
    notices = run_worker_until(first, lambda: index.has_any())
    assert len(notices) == 1
    assert fake_openai.base_url.rstrip("/") + "/embeddings" in notices[0]
    assert "semantic = false" in notices[0]
    assert fake_openai.base_url.rstrip("/") in _record(first)["endpoints"]

    second = session()  # a later session: already told
    _seed(second, ("a newer message",))
    sent = len(fake_openai.embedding_requests)
    assert run_worker_until(second, lambda: len(fake_openai.embedding_requests) > sent) == []


def test_an_endpoint_without_embeddings_gives_one_notice_then_is_not_asked_again(fake_openai, session,
                                                                               without_local_extra):
    fake_openai.no_embeddings(404)
    first = session()
    _seed(first)
    current = first.history.create_conversation("today").id
    notices = run_worker_until(first, lambda: not semantic_state(first).enabled)
    assert len(notices) == 1 and "keyword search" in notices[0] and "404" in notices[0]
    asked = len(fake_openai.embedding_requests)
    assert asked == 1
    for _ in range(3):  # every turn after it: lexical, and nothing said again
        built = assemble(first, current, "kraken deploy", mark_used=False)
        assert built.warnings == [] and built.recalled
    entry = _record(first)["endpoints"][fake_openai.base_url.rstrip("/")]
    assert entry["no_embeddings"]["model"] == first.settings.recall.embedding_model

    second = session()  # the next session remembers: no request, no notice
    state = semantic_state(second)
    assert not state.enabled and state.take_notice() is None
    assert second.semantic_ranker() is None
    assert backfill(second).embedded == 0
    assert len(fake_openai.embedding_requests) == asked


def test_the_remembered_refusal_expires_and_the_endpoint_is_tried_again(fake_openai, session):
    fake_openai.no_embeddings(404)
    first = session()
    _seed(first)
    backfill(first)
    path = first.history.db_path.parent / FILE_NAME
    data = json.loads(path.read_text(encoding="utf-8"))
    entry = next(iter(data["endpoints"].values()))
    entry["no_embeddings"]["since"] = f"2020-01-0{min(9, REPROBE_DAYS)}T00:00:00+00:00"  # long ago
    path.write_text(json.dumps(data), encoding="utf-8")

    fake_openai.embeddings_status = None  # the endpoint gained embeddings since
    second = session()
    assert semantic_state(second).enabled
    assert backfill(second).embedded == 2


def test_explicit_true_remembers_nothing(fake_openai, session):
    fake_openai.no_embeddings(404)
    first = session()
    first.settings.recall.semantic = True
    _seed(first)
    assert backfill(first).notice is not None
    assert not (first.history.db_path.parent / FILE_NAME).exists()


def test_false_sends_nothing(fake_openai, session):
    first = session()
    first.settings.recall.semantic = False
    _seed(first)
    assert run_worker_until(first, lambda: True) == []
    assert fake_openai.embedding_requests == []
