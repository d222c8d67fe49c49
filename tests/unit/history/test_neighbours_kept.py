"""Recall's neighbouring turns are kept between look-ups (neighbour_cache.py), and stay exact.

Every check compares the store that kept answers with a second store opened on
the same file, which has kept nothing: whatever the first kept, it must answer
what a fresh look-up answers.
"""

from __future__ import annotations

import sqlite3

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Conversation, Message, utcnow


def ids(found: dict) -> dict:
    return {key: (message.id if message is not None else None) for key, message in found.items()}


def fresh(db_path, wanted) -> dict:
    other = HistoryStore(db_path)
    try:
        return ids(other.first_neighbours(wanted))
    finally:
        other.close()


def both_ways(*messages, cid):
    return [(m.id, cid, after) for m in messages for after in (False, True)]


def test_a_kept_answer_is_not_read_again(store):
    cid = store.create_conversation().id
    question = store.append(cid, Message("user", "favourite colour?"))
    answer = store.append(cid, Message("assistant", "Blue."))
    wanted = both_ways(question, answer, cid=cid)
    first = ids(store.first_neighbours(wanted))
    statements: list[str] = []
    store._db().set_trace_callback(statements.append)
    try:
        again = ids(store.first_neighbours(wanted))
    finally:
        store._db().set_trace_callback(None)
    assert again == first
    assert first[(question.id, True)] == answer.id
    assert not [s for s in statements if "LEFT JOIN messages n" in s]  # answered from what was kept


def test_a_reply_appended_here_becomes_the_turn_after(store, db_path):
    cid = store.create_conversation().id
    question = store.append(cid, Message("user", "favourite colour?"))
    assert ids(store.first_neighbours([(question.id, cid, True)])) == {(question.id, True): None}
    answer = store.append(cid, Message("assistant", "Blue."))
    assert ids(store.first_neighbours([(question.id, cid, True)])) == {(question.id, True): answer.id}
    assert ids(store.first_neighbours([(question.id, cid, True)])) == fresh(db_path, [(question.id, cid, True)])


def test_a_regenerated_answer_becomes_the_turn_after(store, db_path):
    cid = store.create_conversation().id
    question = store.append(cid, Message("user", "favourite colour?"))
    store.append(cid, Message("assistant", "Blue."))
    assert store.first_neighbours([(question.id, cid, True)])[(question.id, True)].content == "Blue."
    again = store.append(cid, Message("assistant", "Green.", parent_id=question.id))  # a sibling
    assert ids(store.first_neighbours([(question.id, cid, True)])) == {(question.id, True): again.id}
    assert ids(store.first_neighbours([(question.id, cid, True)])) == fresh(db_path, [(question.id, cid, True)])


def test_an_imported_or_forked_child_is_seen(store, db_path):
    cid = store.create_conversation().id
    question = store.append(cid, Message("user", "favourite colour?"))
    answer = store.append(cid, Message("assistant", "Blue."))
    wanted = both_ways(question, answer, cid=cid)
    store.first_neighbours(wanted)
    fork = store.fork(cid, answer.id)
    copies = store.messages(fork.id)
    forked = both_ways(*copies, cid=fork.id)
    assert ids(store.first_neighbours(forked)) == fresh(db_path, forked)
    now = utcnow()
    store.import_conversation(Conversation(id="imported-1", title="imported", created=now, updated=now),
                              [Message("user", "tea or coffee?"), Message("assistant", "Tea.")])
    imported = store.messages("imported-1")
    asked = both_ways(*imported, cid="imported-1")
    assert ids(store.first_neighbours(asked)) == fresh(db_path, asked)
    assert ids(store.first_neighbours(wanted)) == fresh(db_path, wanted)


def test_another_process_reply_and_deletion_are_seen(store, db_path):
    cid = store.create_conversation().id
    question = store.append(cid, Message("user", "favourite colour?"))
    wanted = [(question.id, cid, True)]
    assert ids(store.first_neighbours(wanted)) == {(question.id, True): None}
    other = HistoryStore(db_path)
    try:
        answer = other.append(cid, Message("assistant", "Blue."))
    finally:
        other.close()
    assert ids(store.first_neighbours(wanted)) == {(question.id, True): answer.id}
    with sqlite3.connect(db_path) as db:  # a hand edit: the reply is gone again
        db.execute("DELETE FROM messages WHERE id = ?", (answer.id,))
    assert ids(store.first_neighbours(wanted)) == {(question.id, True): None}
    assert ids(store.first_neighbours(wanted)) == fresh(db_path, wanted)


def test_a_deleted_conversation_answers_nothing(store, db_path):
    cid = store.create_conversation().id
    question = store.append(cid, Message("user", "favourite colour?"))
    store.append(cid, Message("assistant", "Blue."))
    wanted = both_ways(question, cid=cid)
    assert len(store.first_neighbours(wanted)) == 2
    store.delete(cid)
    assert store.first_neighbours(wanted) == {}  # not in that conversation (any more): left to the walk
    assert fresh(db_path, wanted) == {}


def test_asked_of_another_conversation_the_kept_answer_is_not_given(store):
    cid = store.create_conversation().id
    other = store.create_conversation().id
    question = store.append(cid, Message("user", "favourite colour?"))
    store.append(cid, Message("assistant", "Blue."))
    assert (question.id, True) in store.first_neighbours([(question.id, cid, True)])
    assert store.first_neighbours([(question.id, other, True)]) == {}
