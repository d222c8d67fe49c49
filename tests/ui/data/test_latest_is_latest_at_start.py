"""A message typed before the start-up look-up ends goes into the latest conversation *at start*.

Two agenttui processes on one profile, both started on an empty history: the first one's
message starts a conversation; on a busy machine the second's look-up of "the latest
conversation" ran after that, so the second's message joined the first's conversation as a
sibling branch, and each app showed a conversation whose stored branch was the other's. Here
the look-up is held (a gate around the real history read) while "the other process" (a second
store on the same file) starts its conversation.
"""

from __future__ import annotations

import threading

import pytest

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message
from agenttui.ui.app import make_app
from tests.ui.helpers import chat, send, wait_until


@pytest.mark.slow
async def test_a_conversation_another_process_starts_meanwhile_is_not_joined(chat_services, fake_openai,
                                                                              monkeypatch):
    fake_openai.default.text = "my answer"
    history = chat_services.history
    real_latest = history.latest_conversation
    gate, held = threading.Event(), threading.Event()

    def gated(*args, **kwargs):
        held.set()
        gate.wait(120)
        return real_latest(*args, **kwargs)

    monkeypatch.setattr(history, "latest_conversation", gated)
    app = make_app(chat_services)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, held.is_set, timeout=60)  # the look-up has begun, and waits
        with HistoryStore(history.db_path) as other:  # the other process starts its conversation
            theirs = other.create_conversation("the other process's")
            other.append(theirs.id, Message(role="user", content="their question"))
            other.append(theirs.id, Message(role="assistant", content="their answer"))
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        await send(pilot, "my question")
        gate.set()
        await wait_until(pilot, lambda: chat(app).conversation_id is not None and not chat(app).streaming
                         and [m.content for m in history.messages(chat(app).conversation_id)][-1:]
                         == ["my answer"], timeout=60)

        mine = chat(app).conversation_id
        assert mine != theirs.id
        assert [m.content for m in history.messages(mine)] == ["my question", "my answer"]
        assert [m.content for m in history.messages(theirs.id)] == ["their question", "their answer"]
