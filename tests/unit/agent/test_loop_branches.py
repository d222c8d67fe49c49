"""Branches through the loop: regenerate and edit keep the old branch, and the
request holds the active branch only -- neither as turns nor as recalled text."""

from __future__ import annotations

from agenttui.agent.loop import run_turn

from .conftest import collect, final


def _sent(fake_openai) -> list[dict]:
    return [m for m in fake_openai.last_messages() if m["role"] != "system"]


def _system(fake_openai) -> str:
    return "\n".join(m["content"] for m in fake_openai.last_messages() if m["role"] == "system")


async def test_regenerating_a_finished_reply_adds_a_sibling(services, conversation, fake_openai):
    fake_openai.reply("Paris is the capital of Francelandia.")
    fake_openai.reply("The capital is Lyonnaise-on-sea.")
    await collect(run_turn(services, conversation.id, "which city is the capital"))
    question, first = services.history.messages(conversation.id)
    again = await collect(run_turn(services, conversation.id, "", retry_of=question.id))
    assert final(again).reply.content == "The capital is Lyonnaise-on-sea."
    assert _sent(fake_openai) == [{"role": "user", "content": "which city is the capital"}]
    branch = services.history.messages(conversation.id)
    assert [m.content for m in branch] == ["which city is the capital", "The capital is Lyonnaise-on-sea."]
    assert branch[1].parent_id == question.id
    assert services.history.sibling_ids(conversation.id, first.id) == [first.id, branch[1].id]


async def test_editing_an_earlier_question_branches_and_sends_only_the_new_branch(
        services, conversation, fake_openai):
    services.settings.recall.semantic = False
    for text in ("Noted the zanzibar itinerary.", "Booked the quokka tour.", "Here is the new plan."):
        fake_openai.reply(text)
    await collect(run_turn(services, conversation.id, "plan a trip to zanzibar"))
    await collect(run_turn(services, conversation.id, "add a quokka tour in perth"))
    q1, a1, q2, a2 = services.history.messages(conversation.id)
    done = await collect(run_turn(services, conversation.id, "add a safari in kenya instead",
                                  edit_of=q2.id))
    assert final(done).reply.content == "Here is the new plan."
    assert _sent(fake_openai) == [
        {"role": "user", "content": "plan a trip to zanzibar"},
        {"role": "assistant", "content": "Noted the zanzibar itinerary."},
        {"role": "user", "content": "add a safari in kenya instead"},
    ]
    assert "quokka" not in _system(fake_openai)  # the old branch is not recalled either
    branch = services.history.messages(conversation.id)
    assert [m.id for m in branch[:2]] == [q1.id, a1.id] and branch[2].parent_id == a1.id
    assert services.history.sibling_ids(conversation.id, q2.id) == [q2.id, branch[2].id]
    assert services.history.get_message(a2.id).content == "Booked the quokka tour."  # kept


async def test_editing_the_first_question_starts_a_new_root(services, conversation, fake_openai):
    fake_openai.reply("one")
    fake_openai.reply("two")
    await collect(run_turn(services, conversation.id, "first try"))
    first = services.history.messages(conversation.id)[0]
    await collect(run_turn(services, conversation.id, "second try", edit_of=first.id))
    assert _sent(fake_openai) == [{"role": "user", "content": "second try"}]
    assert services.history.sibling_ids(conversation.id, first.id)[0] == first.id


async def test_an_edit_of_a_message_elsewhere_fails_and_stores_nothing(services, conversation, fake_openai):
    other = services.history.create_conversation()
    fake_openai.reply("x")
    await collect(run_turn(services, other.id, "elsewhere"))
    foreign = services.history.messages(other.id)[0]
    events = await collect(run_turn(services, conversation.id, "edited", edit_of=foreign.id))
    assert "not a user message of this conversation" in final(events).error
    assert services.history.messages(conversation.id) == []


async def test_a_question_after_another_window_went_on_branches_from_what_this_one_shows(
        services, conversation, fake_openai):
    """Two windows on one conversation: B asked after the reply A still shows last."""
    services.settings.recall.semantic = False
    fake_openai.reply("Lisbon is warm in May.")
    await collect(run_turn(services, conversation.id, "where should we go in May"))
    question, reply = services.history.messages(conversation.id)
    fake_openai.reply("Oslo has long days.")
    await collect(run_turn(services, conversation.id, "what about the zanzibarquay in June"))  # window B
    b_question = services.history.messages(conversation.id)[2]
    fake_openai.reply("Book the train early.")

    done = await collect(run_turn(services, conversation.id, "how do we get there", seen=reply.id))  # window A
    assert final(done).reply.content == "Book the train early."
    assert _sent(fake_openai) == [
        {"role": "user", "content": "where should we go in May"},
        {"role": "assistant", "content": "Lisbon is warm in May."},
        {"role": "user", "content": "how do we get there"},
    ]
    assert "zanzibarquay" not in _system(fake_openai)  # nor recalled from the other branch
    branch = services.history.messages(conversation.id)
    assert [m.content for m in branch] == ["where should we go in May", "Lisbon is warm in May.",
                                           "how do we get there", "Book the train early."]
    assert services.history.sibling_ids(conversation.id, b_question.id) == [b_question.id, branch[2].id]


async def test_a_window_whose_branch_another_window_left_behind_goes_on_from_what_it_shows(
        services, conversation, fake_openai):
    """A and B asked at once and each got a branch; B asked again, so B's branch is the active
    one. A's next question follows A's reply, not B's latest message (it did, as a question
    after B's question)."""
    services.settings.recall.semantic = False
    for text in ("root reply", "answer for A", "answer for B", "B again", "A again"):
        fake_openai.reply(text)
    await collect(run_turn(services, conversation.id, "root question"))
    root_reply = services.history.messages(conversation.id)[1]
    await collect(run_turn(services, conversation.id, "question of A", seen=root_reply.id))
    a_reply = services.history.messages(conversation.id)[-1]
    await collect(run_turn(services, conversation.id, "question of B", seen=root_reply.id))
    b_reply = services.history.messages(conversation.id)[-1]
    await collect(run_turn(services, conversation.id, "B asks again", seen=b_reply.id))
    assert a_reply.id not in services.history.branch_ids(conversation.id)  # B's branch is active

    await collect(run_turn(services, conversation.id, "A asks again", seen=a_reply.id))
    assert [m.content for m in services.history.messages(conversation.id)] == [
        "root question", "root reply", "question of A", "answer for A", "A asks again", "A again"]


async def test_a_sender_that_shows_the_whole_conversation_goes_on_from_its_end(
        services, conversation, fake_openai):
    fake_openai.reply("one")
    fake_openai.reply("two")
    await collect(run_turn(services, conversation.id, "first"))
    reply = services.history.messages(conversation.id)[1]
    await collect(run_turn(services, conversation.id, "second", seen=reply.id))
    assert [m.content for m in services.history.messages(conversation.id)] == ["first", "one", "second", "two"]
    assert not services.history.has_branches(conversation.id)
