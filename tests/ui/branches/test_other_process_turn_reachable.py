"""The other process's turn stays one ``←`` away when the app's reply is stored beside it.

Seen in tmux: the app asked, ``agenttui ask --conversation ID`` asked after the app's
question (the last message it could see) before the app's reply came, and the app's
reply was stored under its own question, beside the other question. The conversation
was not marked branched, so opened again the chat showed no ``‹ 2/2 ›`` on that reply:
nothing led to the other process's turn. Both processes' writes come from real stores on
one SQLite file, in the order seen; then the real app opens the conversation.
"""

from __future__ import annotations

import pytest

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message
from agenttui.ui.app import make_app
from agenttui.ui.widgets.branch_nav import BranchNav
from tests.ui.helpers import chat, replies, wait_until

pytestmark = pytest.mark.slow

SIZE = (120, 36)


def _turn(role: str, text: str, turn_id: str) -> Message:
    return Message(role=role, content=text, turn_id=turn_id)


async def test_the_app_s_reply_beside_the_other_question_shows_its_versions(chat_services, paths):
    chat_services.settings.recall.semantic = False
    path = paths.history_db("default")
    app_store, ask_store = HistoryStore(path), HistoryStore(path)
    try:
        cid = app_store.create_conversation("Trip").id
        app_store.append(cid, _turn("user", "where should we go in May", "t0"))
        app_store.append(cid, _turn("assistant", "Lisbon is warm in May.", "t0"))
        app_store.append(cid, _turn("user", "how do we get there", "ta"))
        ask_store.append(cid, _turn("user", "what about Oslo", "tb"))
        ask_store.append(cid, _turn("assistant", "Oslo has long days.", "tb"))
        answer = app_store.append(cid, _turn("assistant", "Take the train.", "ta"))
    finally:
        app_store.close()
        ask_store.close()

    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(
            pilot,
            lambda: replies(app) == ["Lisbon is warm in May.", "Take the train."],
            timeout=60,
            explain=lambda: replies(app),
        )
        assert chat(app).conversation_id == cid

        def navigators() -> list[tuple[int, str]]:
            return [(nav.message_id, str(nav.render())) for nav in app.screen.query(BranchNav)]

        await wait_until(pilot, lambda: navigators() == [(answer.id, "‹ 2/2 ›")], timeout=30, explain=navigators)
