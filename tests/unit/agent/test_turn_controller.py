"""The turn controller (agent/turn.py): one turn's state, shared by the app and `ask`.

Driven with the real agent loop, the real openai client and the fake
OpenAI-compatible server (tests/fakes/openai_server.py); history is real SQLite.
"""

from __future__ import annotations

import asyncio

from agenttui.agent.events import TextDelta, TurnFailed, TurnFinished, TurnStarted
from agenttui.agent.turn import Outcome, Phase, TurnController

from .conftest import final

SLOW_TEXT = " ".join(f"word{i}" for i in range(60))


async def drive(turns: TurnController, services, conversation_id: str, turn, on_event=None) -> list:
    """Run ``turn`` as the app and `ask` do: each event observed where it is handled."""
    seen = []
    async for event in turns.events(services, conversation_id, turn):
        turns.observe(event)
        seen.append(event)
        if on_event is not None:
            on_event(event)
    return seen


async def test_a_finished_turn_keeps_nothing_to_retry(services, conversation, fake_openai):
    fake_openai.reply("Tea is at four.")
    turns = TurnController()
    turn = turns.start("when is tea", conversation_known=True)
    assert turns.running and turn.phase is Phase.STREAMING
    events = await drive(turns, services, conversation.id, turn)
    assert isinstance(final(events), TurnFinished)
    assert (turn.phase, turn.outcome, turn.stop_reason) == (Phase.ENDED, Outcome.FINISHED, "success")
    assert not turns.running and turns.kept is None
    assert not turns.cancel() and not turns.stop()  # nothing runs any more


async def test_a_failed_request_keeps_the_users_message_and_a_retry_answers_it_again(
        services, conversation, fake_openai):
    fake_openai.drop(after="The first half of")  # the connection breaks mid-reply: no silent retry
    fake_openai.reply("The whole answer.")
    turns = TurnController()
    turn = turns.start("what is the whole answer", conversation_known=True)
    events = await drive(turns, services, conversation.id, turn)
    failed = final(events)
    assert isinstance(failed, TurnFailed) and failed.retryable
    stored = [e for e in events if isinstance(e, TurnStarted)][0].user_message
    assert turn.outcome is Outcome.FAILED
    kept = turns.kept
    assert kept is turn and kept.text == "what is the whole answer" and kept.retry_of == stored.id
    assert [m.content for m in services.history.messages(conversation.id)][0] == "what is the whole answer"

    again = turns.start(kept.text, conversation_known=True, retry_of=kept.retry_of)
    done = final(await drive(turns, services, conversation.id, again))
    assert isinstance(done, TurnFinished) and done.reply.content == "The whole answer."
    rows = services.history.messages(conversation.id)  # the same question, answered again
    assert [(m.role, m.content) for m in rows] == [
        ("user", "what is the whole answer"), ("assistant", "The whole answer.")]
    assert turns.kept is None


async def test_another_conversation_forgets_the_kept_message(services, conversation, fake_openai):
    fake_openai.drop(after="Half")
    turns = TurnController()
    turn = turns.start("question", conversation_known=True)
    assert isinstance(final(await drive(turns, services, conversation.id, turn)), TurnFailed)
    assert turns.kept is turn
    turns.forget_kept()
    assert turns.kept is None


async def test_a_failure_the_loop_calls_final_keeps_nothing_to_retry(services, conversation, fake_openai):
    turns = TurnController()
    turn = turns.start("question", conversation_known=True, edit_of=999_999)  # no such question
    failed = final(await drive(turns, services, conversation.id, turn))
    assert isinstance(failed, TurnFailed) and not failed.retryable
    assert turn.outcome is Outcome.FAILED and turns.kept is None


async def test_stopping_cancels_marks_it_stopped_and_keeps_the_message(services, conversation, fake_openai):
    fake_openai.reply(SLOW_TEXT, words_per_second=15)  # ~4 s in full: stopped after the first words
    turns = TurnController()
    turn = turns.start("question", conversation_known=True)

    def stop_at_first_words(event) -> None:
        if isinstance(event, TextDelta) and not turns.stopping:
            assert turns.stop()

    events = await drive(turns, services, conversation.id, turn, stop_at_first_words)
    assert final(events).stop_reason == "cancelled"
    assert turn.stopped and turn.cancel.is_set() and turns.stopping
    assert (turn.phase, turn.outcome) == (Phase.ENDED, Outcome.CANCELLED)
    assert turns.kept is turn and turn.retry_of is not None  # stored before the reply: asked again
    assert not turns.stop()


async def test_a_message_sent_during_the_lookup_waits_for_it(services, conversation, fake_openai):
    turns = TurnController()
    opening = turns.lookup.begin()  # the cold start's latest-conversation lookup runs
    turn = turns.start("hello", conversation_known=False)
    assert turn.phase is Phase.WAITING and turns.waiting and turns.running
    assert turns.lookup.current(opening)  # its answer is still wanted: the message goes there

    async def answer() -> None:
        await asyncio.sleep(0)
        turns.lookup.answered(opening)

    answering = asyncio.create_task(answer())
    await turns.conversation_ready(turn, timeout=30)
    await answering
    assert turn.phase is Phase.STREAMING and not turns.waiting
    assert turns.lookup.current(opening) and not turns.lookup.pending


async def test_a_lookup_that_never_answers_is_dropped(services, fake_openai):
    turns = TurnController()
    opening = turns.lookup.begin()
    turn = turns.start("hello", conversation_known=False)
    await turns.conversation_ready(turn, timeout=0.01)  # the lookup is never answered
    assert turn.phase is Phase.STREAMING
    assert not turns.lookup.current(opening) and not turns.lookup.pending  # its late answer is dropped


async def test_a_message_with_a_conversation_open_drops_a_running_lookup(services, fake_openai):
    turns = TurnController()
    opening = turns.lookup.begin()
    turn = turns.start("hello", conversation_known=True)
    assert turn.phase is Phase.STREAMING and not turns.lookup.current(opening)


async def test_abandoning_cancels_and_disowns_the_turn(services, conversation, fake_openai):
    turns = TurnController()
    turn = turns.start("question", conversation_known=True)
    turns.abandon()
    assert turn.cancel.is_set() and turns.turn is None
    assert not turns.is_current(turn.number) and turns.kept is None


def test_the_attached_image_goes_with_the_next_new_message_only():
    turns = TurnController()
    turns.image = "/tmp/shot.png"
    again = turns.start("question", conversation_known=True, retry_of=7)  # answering again: no image
    assert again.image is None and turns.image is None
    turns.image = "/tmp/shot.png"
    new = turns.start("look at this", conversation_known=True)
    assert new.image == "/tmp/shot.png" and turns.image is None
    assert turns.start("and this", conversation_known=True).image is None  # sent once
    assert new.number < turns.turn.number


def test_queued_messages_go_in_order():
    turns = TurnController()
    turns.queued += ["first", "second"]
    assert [turns.take_queued(), turns.take_queued(), turns.take_queued()] == ["first", "second", None]
