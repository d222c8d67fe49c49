"""A long conversation costs what a short one does: what leaves the log leaves memory.

The chat log keeps a window of the conversation mounted (``ChatLog``'s doc). These
tests fail if an unmounted reply stays alive (held by the log, a registry, a
timer...) or if the window grows with the conversation.
"""

from __future__ import annotations

import gc
import weakref

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import AssistantMessage
from tests.fakes.markdown_reply import markdown_reply
from tests.ui.helpers import chat
from tests.ui.test_long_replies import _turn

SIZE = (120, 40)
TURNS = 10


@pytest.fixture
def small_window(monkeypatch):
    from agenttui.ui.widgets import chat_log

    monkeypatch.setattr(chat_log, "KEEP_MOUNTED", 6)
    monkeypatch.setattr(chat_log, "PAGE", 4)


def _live(kind: type) -> int:
    gc.collect()
    return sum(1 for obj in gc.get_objects() if type(obj) is kind)


@pytest.mark.slow
async def test_trimmed_replies_are_freed_and_the_window_stays_bounded(chat_services, fake_openai, small_window):
    fake_openai.default.text = markdown_reply(120)
    app = make_app(chat_services)
    seen: list[weakref.ReferenceType[AssistantMessage]] = []
    async with app.run_test(size=SIZE) as pilot:
        for turn in range(TURNS):
            reply = await _turn(pilot, f"question {turn}")
            assert reply is not None
            seen.append(weakref.ref(reply))
            del reply
        await pilot.pause()
        log = chat(app).chat_log
        mounted = set(app.screen.query(AssistantMessage))
        assert len(mounted) <= 4  # KEEP_MOUNTED messages plus the last turn: a bounded window
        alive = [ref for ref in seen if ref() is not None and ref() not in mounted]
        gc.collect()
        alive = [ref for ref in alive if ref() is not None]
        assert not alive, f"{len(alive)} unmounted replies still alive: {gc.get_referrers(alive[0]())[:5]}"
        assert _live(AssistantMessage) == len(mounted)
        assert log.has_older
