"""The same conversation open in two windows: each reply follows its own question.

Each agenttui process writes a turn one message at a time (the question, then the
reply, tool steps between), and a message without an explicit parent used to
follow the conversation's active leaf -- wherever *any* process wrote last. With a
conversation open in two windows and both asking at once, window A's reply was
stored as the child of window B's reply (an assistant answering an assistant), and
A's question was left as a branch with no answer. Two real stores on one SQLite
file, as the two processes have; the interleaving is the one seen in tmux.
"""

from __future__ import annotations

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message


def _turn(role: str, text: str, turn_id: str) -> Message:
    message = Message(role=role, content=text)
    message.turn_id = turn_id
    return message


def test_interleaved_turns_of_two_windows_each_keep_question_and_answer_together(tmp_path):
    path = tmp_path / "history.sqlite3"
    window_a, window_b = HistoryStore(path), HistoryStore(path)
    try:
        cid = window_a.create_conversation("shared").id
        start = window_a.append(cid, _turn("user", "hello", "t0"))
        shown = window_a.append(cid, _turn("assistant", "hi", "t0"))
        asked_a = window_a.append(cid, _turn("user", "question from A", "ta"))
        # B's question follows what B shows (the loop's ``seen``: the conversation went on elsewhere)
        b_question = _turn("user", "question from B", "tb")
        b_question.parent_id = shown.id
        asked_b = window_b.append(cid, b_question)
        answer_b = window_b.append(cid, _turn("assistant", "answer for B", "tb"))
        answer_a = window_a.append(cid, _turn("assistant", "answer for A", "ta"))
        tool_a = window_a.append(cid, _turn("tool", "a tool step of A's turn", "ta"))

        assert asked_a.parent_id == asked_b.parent_id == shown.id  # two branches from one reply
        assert answer_b.parent_id == asked_b.id
        assert answer_a.parent_id == asked_a.id  # not answer_b.id
        assert tool_a.parent_id == answer_a.id
        # each window's path reads as it was written
        assert [m.content for m in window_a.messages(cid)][-3:] == [
            "question from A", "answer for A", "a tool step of A's turn"]
        assert start.parent_id is None
    finally:
        window_a.close()
        window_b.close()


def test_one_window_still_continues_its_branch(tmp_path):
    store = HistoryStore(tmp_path / "history.sqlite3")
    try:
        cid = store.create_conversation("one").id
        first = store.append(cid, _turn("user", "q1", "t1"))
        reply = store.append(cid, _turn("assistant", "a1", "t1"))
        second = store.append(cid, _turn("user", "q2", "t2"))
        untagged = store.append(cid, Message(role="assistant", content="no turn id"))
        assert (reply.parent_id, second.parent_id, untagged.parent_id) == (first.id, reply.id, second.id)
    finally:
        store.close()
