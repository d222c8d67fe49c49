"""A draft's recall worked out while typing pauses: reused by the turn only while still exact."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from agenttui.core.context.assemble import assemble, prepare
from agenttui.core.models import Message
from agenttui.core.recall.retrieval import _lexical_cache

NOW = datetime(2026, 11, 23, 12, tzinfo=UTC)
DRAFT = "which bakery had the best sourdough?"


def fill(services):
    history = services.history
    for k, place in enumerate(("Roti Nusantara", "Kopi Kenangan", "Holland Bakery")):
        cid = history.create_conversation(f"bakeries {k}").id
        history.append_many(cid, [
            Message("user", f"{place} has the best sourdough in town", created=NOW - timedelta(days=30 + k)),
            Message("assistant", "Good to know", created=NOW - timedelta(days=30 + k, seconds=-5))])
    return history.create_conversation().id


def turn(services, cid, text=DRAFT):
    stored = services.history.append(cid, Message("user", text))
    return assemble(services, cid, Message("user", text, id=stored.id), now=NOW, mark_used=False)


def cold(services, cid, text=DRAFT):
    _lexical_cache.clear()
    return assemble(services, cid, Message("user", text, id=services.history.messages(cid)[-1].id),
                    now=NOW, mark_used=False)


def test_the_turn_after_a_prepared_draft_sends_exactly_the_prompt_it_would_have_built(services):
    cid = fill(services)
    _lexical_cache.clear()
    prepare(services, cid, DRAFT, now=NOW)
    assert _lexical_cache  # the draft's search is kept
    warm = turn(services, cid)
    assert "Roti Nusantara has the best sourdough" in warm.messages[1]["content"]
    assert warm.messages == cold(services, cid).messages


def test_a_deleted_conversation_is_never_recalled_from_a_draft_prepared_before(services):
    cid = fill(services)
    prepare(services, cid, DRAFT, now=NOW)
    gone = next(c for c in services.history.list_conversations(limit=10) if c.title == "bakeries 0")
    services.history.delete(gone.id)
    built = turn(services, cid)
    assert "Roti Nusantara" not in str(built.messages)


def test_a_conversation_another_process_deleted_after_the_draft_is_not_recalled(services):
    cid = fill(services)
    services.history.messages(cid)  # the store's connection is open, as in the app
    prepare(services, cid, DRAFT, now=NOW)
    gone = next(c for c in services.history.list_conversations(limit=10) if c.title == "bakeries 0")
    conn = sqlite3.connect(str(services.history.db_path), isolation_level=None)  # `agenttui history delete`
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("DELETE FROM conversations WHERE id = ?", (gone.id,))
    conn.close()
    built = turn(services, cid)
    assert "Roti Nusantara" not in str(built.messages)
    assert "Holland Bakery has the best sourdough" in built.messages[1]["content"]


def test_prepare_writes_nothing(services):
    cid = fill(services)
    before = services.history.count_messages(cid), services.history.count_conversations()
    prepare(services, cid, DRAFT, now=NOW)
    prepare(services, None, DRAFT, now=NOW)  # a new chat's draft
    assert (services.history.count_messages(cid), services.history.count_conversations()) == before
