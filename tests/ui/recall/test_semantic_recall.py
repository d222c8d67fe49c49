"""Semantic recall in the app: the embeddings backfill runs in a worker after start-up.

Real services and app, the real ``openai`` client against the fake server.
"""

from __future__ import annotations

import sqlite3

import pytest

from agenttui.core.models import Message
from agenttui.ui import app as app_module
from agenttui.ui.app import make_app
from agenttui.ui.app_background import INDEXER_GROUP
from tests.ui.helpers import notifications, wait_until, workers_done


@pytest.fixture(autouse=True)
def embed_soon(monkeypatch):
    monkeypatch.setattr(app_module, "EMBED_AFTER_S", 0.05)


def _seed(services, count: int) -> None:
    cid = services.history.create_conversation("notes").id
    services.history.append_many(cid, [Message("user", f"note number {n}") for n in range(count)])


def _embedded(services) -> int:
    conn = sqlite3.connect(str(services.history.db_path))
    try:
        return conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0]
    finally:
        conn.close()


def _embedding_workers(app) -> list:
    return [w for w in app.workers if w.group == INDEXER_GROUP]


async def test_the_app_embeds_history_in_the_background(chat_services, fake_openai):
    _seed(chat_services, 70)
    chat_services.settings.recall.semantic = True
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: _embedded(chat_services) == 70)
        from agenttui.core.recall.language_pairs import PAIRS

        probe = {text for pairs in PAIRS.values() for pair in pairs for text in pair}  # the language probe's
        assert [len(b["input"]) for b in fake_openai.embedding_requests if not probe & set(b["input"])] == [64, 6]
        assert not any(title == "Semantic recall" for _, title, _ in notifications(app))
        assert _embedding_workers(app)  # still running: it embeds new messages later
    assert all(w.is_finished or w.is_cancelled for w in _embedding_workers(app))


async def test_an_endpoint_without_embeddings_gives_one_toast(chat_services, fake_openai):
    _seed(chat_services, 3)
    chat_services.settings.recall.semantic = True
    fake_openai.no_embeddings()
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: any(t == "Semantic recall" for _, t, _ in notifications(app)))
        await wait_until(pilot, lambda: all(w.is_finished for w in _embedding_workers(app)))
        toasts = [(s, m) for s, t, m in notifications(app) if t == "Semantic recall"]
        assert len(toasts) == 1 and toasts[0][0] == "warning" and "/v1/embeddings" in toasts[0][1]
    assert _embedded(chat_services) == 0


@pytest.mark.slow
async def test_no_background_work_while_semantic_is_off(chat_services, fake_openai):
    _seed(chat_services, 3)
    chat_services.settings.recall.semantic = False  # ("auto", the default, would index)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app._turn_ready is not None and app._turn_ready.is_set())
        await workers_done(pilot)  # start-up's background work is over
        assert _embedding_workers(app) == [] and fake_openai.embedding_requests == []
