"""A reply that follows its own turn's question beside another window's message marks the
conversation as branched.

Seen in tmux: the app asked in a conversation, ``agenttui ask --conversation ID`` (its
question followed the app's, the last message it could see) asked before the app's reply
came, and the app's reply was stored under its own question -- a sibling of the other
process's question -- but the conversation's ``branched`` flag stayed 0. The chat then
showed no ``‹ 2/2 ›`` on that reply (the navigator asks ``has_branches`` first), so the
other process's turn could not be reached, and ``history show`` printed no versions.
"""

from __future__ import annotations

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message


def _turn(role: str, text: str, turn_id: str) -> Message:
    return Message(role=role, content=text, turn_id=turn_id)


def test_a_reply_beside_the_other_window_s_question_makes_the_conversation_branched(tmp_path):
    path = tmp_path / "history.sqlite3"
    app, other = HistoryStore(path), HistoryStore(path)
    try:
        cid = app.create_conversation("shared").id
        app.append(cid, _turn("user", "hello", "t0"))
        app.append(cid, _turn("assistant", "hi", "t0"))
        asked = app.append(cid, _turn("user", "question from the app", "ta"))
        # the other process sees the app's question as the last message and follows it
        other_asked = other.append(cid, _turn("user", "question from ask", "tb"))
        other.append(cid, _turn("assistant", "answer for ask", "tb"))
        answer = app.append(cid, _turn("assistant", "answer for the app", "ta"))

        assert other_asked.parent_id == answer.parent_id == asked.id  # siblings
        for store in (app, other):
            assert store.has_branches(cid)
            assert store.branch_positions(cid, [other_asked.id, answer.id]) == {
                other_asked.id: (1, 2),
                answer.id: (2, 2),
            }
    finally:
        app.close()
        other.close()


def test_one_window_s_turns_leave_the_conversation_unbranched(tmp_path):
    store = HistoryStore(tmp_path / "history.sqlite3")
    try:
        cid = store.create_conversation("one").id
        for n in range(3):
            store.append(cid, _turn("user", f"q{n}", f"t{n}"))
            store.append(cid, _turn("assistant", f"a{n}", f"t{n}"))
            store.append(cid, _turn("tool", f"step {n}", f"t{n}"))
        assert not store.has_branches(cid)
    finally:
        store.close()
