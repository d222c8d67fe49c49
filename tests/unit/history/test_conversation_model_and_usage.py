"""The model a conversation uses (``set_model``) and one conversation's usage total, on real SQLite."""

from __future__ import annotations

import pytest

from agenttui.core.history.store import HistoryStore, UnknownConversationError
from agenttui.core.models import Message
from agenttui.core.usage.message_usage import MessageUsage


def _reply(model: str, prompt: int, completion: int, cost: float | None) -> Message:
    return Message("assistant", "r", usage=MessageUsage(model=model, prompt_tokens=prompt,
                                                        completion_tokens=completion, cost=cost))


def test_set_model_is_stored_on_the_conversation(tmp_path):
    store = HistoryStore(tmp_path / "h.sqlite3")
    cid = store.create_conversation("c", model="default-model").id
    store.set_model(cid, "other")
    assert store.get_conversation(cid).model == "other"
    with pytest.raises(UnknownConversationError):
        store.set_model("no-such-id", "other")
    store.close()


def test_conversation_usage_counts_only_that_conversation(tmp_path):
    store = HistoryStore(tmp_path / "h.sqlite3")
    one, two = store.create_conversation("one").id, store.create_conversation("two").id
    store.append(one, _reply("gpt-4o", 1_000, 200, 0.01))
    store.append(one, _reply("local", 10, 5, None))
    store.append(two, _reply("gpt-4o", 9_000, 9_000, 1.0))
    total = store.conversation_usage(one)
    assert (total.replies, total.prompt_tokens, total.completion_tokens, total.unpriced) == (2, 1_010, 205, 1)
    assert total.cost == pytest.approx(0.01)
    empty = store.conversation_usage(store.create_conversation("three").id)
    assert empty.replies == 0
    store.close()
