"""Schema v9: replies' model, tokens and cost in ``message_usage``; a v8 file migrates;
totals by day, model and conversation."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from agenttui.core.history.schema import LINK_AS_ONE_BRANCH, migrate, schema_version
from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message
from agenttui.core.usage.message_usage import MessageUsage
from agenttui.core.usage.totals import grand_total


def _v8_file(path) -> None:
    """A history file as agenttui wrote it before v9, with one exchange in it."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    migrate(conn, target=8)
    conn.execute("INSERT INTO conversations (id, title, created, updated) VALUES "
                 "('old', 'before v9', '2026-01-01T00:00:00.000000+00:00', '2026-01-01T00:00:00.000000+00:00')")
    for role, text in (("user", "hi"), ("assistant", "hello")):
        conn.execute("INSERT INTO messages (conversation_id, role, content, created) VALUES "
                     "('old', ?, ?, '2026-01-01T00:00:00.000000+00:00')", (role, text))
    for statement in LINK_AS_ONE_BRANCH:
        conn.execute(statement)
    assert schema_version(conn) == 8
    conn.close()


def test_a_v8_file_migrates_and_keeps_its_messages_without_made_up_usage(tmp_path):
    db = tmp_path / "history.sqlite3"
    _v8_file(db)
    store = HistoryStore(db)
    old = store.messages("old")
    assert [m.content for m in old] == ["hi", "hello"]
    assert store.usage_for([m.id for m in old]) == {}
    reply = store.append("old", Message("assistant", "again", usage=MessageUsage(
        model="gpt-4o-mini", prompt_tokens=10, completion_tokens=2, cost=0.001,
        priced_as="openai/gpt-4o-mini")))
    assert store.usage_for([reply.id])[reply.id].model == "gpt-4o-mini"
    store.close()
    conn = sqlite3.connect(str(db))
    assert schema_version(conn) == 9
    assert conn.execute("SELECT model, prompt_tokens, cost FROM message_usage").fetchall() == [
        ("gpt-4o-mini", 10, 0.001)]
    conn.close()


def _reply(model: str, day: int, prompt: int, completion: int, cost: float | None) -> Message:
    return Message("assistant", "r", created=datetime(2026, 3, day, 12, tzinfo=UTC),
                   usage=MessageUsage(model=model, prompt_tokens=prompt, completion_tokens=completion,
                                      cost=cost))


def test_totals_by_day_model_and_conversation_and_since(tmp_path):
    store = HistoryStore(tmp_path / "h.sqlite3")
    a = store.create_conversation("alpha").id
    b = store.create_conversation("beta").id
    store.append(a, Message("user", "q"))  # no usage: not counted
    store.append(a, _reply("gpt-4o", 1, 100, 10, 0.5))
    store.append(a, _reply("local-llama", 2, 50, 5, None))
    store.append(b, _reply("gpt-4o", 2, 200, 20, 1.0))
    by_day = store.usage_totals(by="day")
    assert [(t.key, t.replies, t.prompt_tokens, t.cost, t.unpriced) for t in by_day] == [
        ("2026-03-01", 1, 100, 0.5, 0), ("2026-03-02", 2, 250, 1.0, 1)]
    by_model = store.usage_totals(by="model")
    assert [(t.key, t.replies, t.completion_tokens) for t in by_model] == [("gpt-4o", 2, 30), ("local-llama", 1, 5)]
    by_conversation = store.usage_totals(by="conversation")
    assert [(t.title, t.cost) for t in by_conversation] == [("beta", 1.0), ("alpha", 0.5)]
    since = store.usage_totals(since="2026-03-02")
    assert len(since) == 1 and since[0].replies == 2 and since[0].cost == 1.0
    assert grand_total(by_model).replies == 3
    store.delete(b)  # its usage goes with it (cascade)
    assert store.usage_totals()[0].replies == 2


def test_empty_history_has_a_zero_total(tmp_path):
    store = HistoryStore(tmp_path / "h.sqlite3")
    (total,) = store.usage_totals()
    assert total.replies == 0 and total.cost == 0.0


def test_running_sums_agree_with_the_rows_after_inserts_and_deletes(tmp_path):
    store = HistoryStore(tmp_path / "h.sqlite3")
    ids = [store.create_conversation(f"c{n}").id for n in range(3)]
    for n in range(30):
        store.append(ids[n % 3], _reply(("a", "b")[n % 2], 1 + n % 5, 10 + n, n, None if n % 7 == 0 else n / 100))
    store.delete(ids[1])
    for by in (None, "day", "model", "conversation"):
        from_sums = {t.key: t for t in store.usage_totals(by=by)}
        # since the epoch: read from the rows themselves, never from the sums
        from_rows = {t.key: t for t in store.usage_totals(by=by, since="0001-01-01T00:00:00")}
        if by is None:
            assert from_sums[""].replies == 20
        assert from_sums.keys() == from_rows.keys()
        for key, total in from_sums.items():
            other = from_rows[key]
            assert (total.replies, total.prompt_tokens, total.completion_tokens, total.unpriced) == (
                other.replies, other.prompt_tokens, other.completion_tokens, other.unpriced)
            assert abs(total.cost - other.cost) < 1e-9


def test_since_a_time_of_day_counts_only_that_day_s_later_replies(tmp_path):
    store = HistoryStore(tmp_path / "h.sqlite3")
    cid = store.create_conversation("c").id
    store.append(cid, _reply("m", 1, 1, 1, 0.1))  # 2026-03-01 12:00 UTC
    store.append(cid, _reply("m", 2, 2, 2, 0.2))
    store.append(cid, _reply("m", 3, 4, 4, 0.4))
    assert store.usage_totals(since="2026-03-01T12:30:00.000000+00:00")[0].prompt_tokens == 6
    assert store.usage_totals(since="2026-03-01T11:30:00.000000+00:00")[0].prompt_tokens == 7
    assert [t.key for t in store.usage_totals(by="day", since="2026-03-02T00:00:00.000000+00:00")] == [
        "2026-03-02", "2026-03-03"]


def test_pricing_later_moves_the_running_sums(tmp_path):
    from agenttui.core.usage.pricing import price_pending

    store = HistoryStore(tmp_path / "h.sqlite3")
    cid = store.create_conversation("c").id
    store.append(cid, Message("assistant", "r", usage=MessageUsage(model="gpt-4o-mini", prompt_tokens=1_000,
                                                                  completion_tokens=100)))
    store.append(cid, Message("assistant", "r", usage=MessageUsage(model="no-such-model-x", prompt_tokens=10,
                                                                  completion_tokens=1)))
    (before,) = store.usage_totals()
    assert before.unpriced == 2 and before.cost == 0.0 and len(store.unpriced_usage()) == 2
    assert price_pending(store) == 2
    assert store.unpriced_usage() == [] and price_pending(store) == 0  # looked up once
    (after,) = store.usage_totals()
    (from_rows,) = store.usage_totals(since="0001-01-01T00:00:00")
    assert after.unpriced == from_rows.unpriced == 1  # the unknown model stays without a cost
    assert after.cost == from_rows.cost > 0
    by_model = {t.key: t for t in store.usage_totals(by="model")}
    assert by_model["gpt-4o-mini"].unpriced == 0 and by_model["no-such-model-x"].unpriced == 1
