"""Two windows on one conversation: what one sends follows what it shows.

Window B asked and was answered after the reply window A still showed last. A's next
question was stored after B's turn, so A's model got B's exchange, which A's screen never
showed. Now A's question hangs under the reply A shows: a branch beside B's, nothing lost.
The real app (window A) under Pilot, the fake OpenAI server, and a second connection to
the same SQLite file writing B's turn.
"""

from __future__ import annotations

import pytest

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message
from agenttui.ui.app import make_app
from tests.ui.helpers import chat, replies, send, wait_until, workers_done

pytestmark = pytest.mark.slow

SIZE = (120, 36)


async def test_a_question_follows_the_reply_this_window_shows_not_the_other_windows_turn(
        chat_services, fake_openai, paths):
    chat_services.settings.recall.semantic = False
    store = HistoryStore(paths.history_db("default"))
    conv = store.create_conversation("Trip")
    store.append(conv.id, Message(role="user", content="where should we go in May"))
    seen = store.append(conv.id, Message(role="assistant", content="Lisbon is warm in May."))
    fake_openai.reply("Book the train early.")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await wait_until(pilot, lambda: replies(app) == ["Lisbon is warm in May."], timeout=60,
                         explain=lambda: replies(app))
        await workers_done(pilot)
        # window B, another process: a question and its answer after what A shows
        b_question = store.append(conv.id, Message(role="user", content="what about Oslo in June"))
        store.append(conv.id, Message(role="assistant", content="Oslo has long days."))
        await send(pilot, "how do we get there")
        await wait_until(pilot, lambda: not pane.streaming and len(replies(app)) == 2, timeout=60,
                         explain=lambda: replies(app))
    sent = [m["content"] for m in fake_openai.last_messages() if m["role"] != "system"]
    assert sent == ["where should we go in May", "Lisbon is warm in May.", "how do we get there"]
    branch = store.messages(conv.id)
    assert [m.content for m in branch] == ["where should we go in May", "Lisbon is warm in May.",
                                           "how do we get there", "Book the train early."]
    assert branch[2].parent_id == seen.id
    assert store.sibling_ids(conv.id, b_question.id) == [b_question.id, branch[2].id]  # B's turn kept
    store.close()


async def test_one_window_alone_never_branches(chat_services, fake_openai):
    chat_services.settings.recall.semantic = False
    for text in ("one", "two", "three"):
        fake_openai.reply(text)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await wait_until(pilot, lambda: app.main.panes_ready and pane.prompt is not None, timeout=60)
        for n, text in enumerate(("first", "second", "third"), start=1):
            await send(pilot, text)
            await wait_until(pilot, lambda n=n: not pane.streaming and len(replies(app)) == n, timeout=60,
                             explain=lambda: replies(app))
        cid = pane.conversation_id
    assert [m.content for m in chat_services.history.messages(cid)] == [
        "first", "one", "second", "two", "third", "three"]
    assert not chat_services.history.has_branches(cid)
