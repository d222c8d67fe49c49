"""``agenttui history embed`` (semantic recall backfill, headless) against the fake server."""

from __future__ import annotations

import pytest

from agenttui.core.models import Message
from tests.unit.cli.embedding_rows import embedded


def _seed(paths, count: int) -> None:
    from agenttui.core.history.store import HistoryStore

    store = HistoryStore(paths.history_db("default"))
    cid = store.create_conversation("notes").id
    store.append_many(cid, [Message("user", f"note number {n}") for n in range(count)])
    store.close()



@pytest.mark.slow
def test_embed_with_limit_then_resume(cli, paths, fake_openai):
    _seed(paths, 5)
    paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text("[recall]\nsemantic = false\n", encoding="utf-8")
    first = cli("history", "embed", "--limit", "2")
    assert first.code == 0, first.err
    assert "embedded 2 messages" in first.out and "more remain" in first.out
    assert "[recall] semantic is off" in first.err  # a hint: recall will not use them yet
    assert embedded(paths) == 2

    rest = cli("history", "embed")
    assert rest.code == 0, rest.err
    assert "embedded 3 messages" in rest.out and "every message has an embedding" in rest.out
    assert embedded(paths) == 5
    assert sum(len(body["input"]) for body in fake_openai.embedding_requests) == 5


@pytest.mark.slow
def test_embed_without_embeddings_endpoint_fails_with_one_line(cli, paths, fake_openai):
    _seed(paths, 2)
    fake_openai.no_embeddings()
    result = cli("history", "embed")
    assert result.code == 1
    assert "/v1/embeddings" in result.err and "Traceback" not in result.err
    assert embedded(paths) == 0
