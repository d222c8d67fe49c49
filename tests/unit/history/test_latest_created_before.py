"""``latest_conversation(created_before=…)``: the latest of those that existed then."""

from __future__ import annotations

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message, utcnow


def test_a_conversation_created_after_the_moment_is_not_the_latest(tmp_path):
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        assert store.latest_conversation(created_before=utcnow()) is None
        old = store.create_conversation("old")
        moment = utcnow()
        new = store.create_conversation("new")
        store.append(old.id, Message(role="user", content="the old one, updated later"))
        store.append(new.id, Message(role="user", content="the new one, updated last"))
        assert store.latest_conversation().id == new.id
        assert store.latest_conversation(created_before=moment).id == old.id  # updated after, created before
        store.archive(old.id)
        assert store.latest_conversation(created_before=moment) is None
