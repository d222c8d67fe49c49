"""Every fault has its own clear outcome; the user message and partial reply survive."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time

import pytest

from agenttui.agent.events import (
    ApprovalRequested,
    PersistWarning,
    RetryScheduled,
    TextDelta,
    ToolCallFinished,
    TurnFailed,
    TurnFinished,
)
from agenttui.agent.loop import pending_count, run_turn

from .conftest import FAST_RETRIES, collect, final, of_type
from .test_loop_tools import assert_history_is_valid

SLOW_TEXT = " ".join(f"word{i}" for i in range(60))


def stored(services, conversation):
    return services.history.messages(conversation.id)


def assert_user_kept_and_partial(services, conversation, partial_prefix: str | None) -> None:
    rows = stored(services, conversation)
    assert rows[0].role == "user" and rows[0].content == "question"
    if partial_prefix is None:
        assert len(rows) == 1
    else:
        assert rows[-1].role == "assistant" and rows[-1].incomplete
        assert rows[-1].content.startswith(partial_prefix)


async def test_dropped_connection_mid_stream_keeps_the_partial(services, conversation, fake_openai):
    fake_openai.drop(after="The first half of")
    events = await collect(run_turn(services, conversation.id, "question", retry_policy=FAST_RETRIES))
    failed = final(events)
    assert isinstance(failed, TurnFailed) and failed.stop_reason == "llm_error"
    assert "Lost the connection" in failed.error
    assert failed.partial.content == "The first half of" and failed.partial.incomplete
    assert len(fake_openai.chat_requests) == 1  # text was shown: no silent retry
    assert_user_kept_and_partial(services, conversation, "The first half of")


async def test_drop_before_any_output_is_retried(services, conversation, fake_openai):
    fake_openai.drop(after="")
    fake_openai.reply("Second time lucky.")
    events = await collect(run_turn(services, conversation.id, "question", retry_policy=FAST_RETRIES))
    done = final(events)
    assert isinstance(done, TurnFinished) and done.reply.content == "Second time lucky."
    assert done.trace.retries == 1 and len(of_type(events, RetryScheduled)) == 1
    assert len(fake_openai.chat_requests) == 2


async def test_server_error_retried_then_reported(services, conversation, fake_openai):
    for _ in range(4):
        fake_openai.status(500, message="upstream exploded")
    events = await collect(run_turn(services, conversation.id, "question", retry_policy=FAST_RETRIES))
    failed = final(events)
    assert isinstance(failed, TurnFailed) and failed.stop_reason == "llm_error"
    assert "returned 500" in failed.error and "upstream exploded" in failed.error
    assert "after 3 retries" in failed.error
    assert len(fake_openai.chat_requests) == 4 and failed.trace.retries == 3
    assert_user_kept_and_partial(services, conversation, None)


@pytest.mark.slow
async def test_429_honours_retry_after(services, conversation, fake_openai):
    fake_openai.status(429, retry_after=1)
    fake_openai.reply("After the pause.")
    started = time.monotonic()
    events = await collect(run_turn(services, conversation.id, "question", retry_policy=FAST_RETRIES))
    elapsed = time.monotonic() - started
    done = final(events)
    assert isinstance(done, TurnFinished) and done.reply.content == "After the pause."
    [retry] = of_type(events, RetryScheduled)
    assert retry.delay == pytest.approx(1.0) and "429" in retry.reason
    assert elapsed >= 1.0
    assert len(fake_openai.chat_requests) == 2
    chats = [r for r in fake_openai.requests if r.path.endswith("/chat/completions")]  # not the
    gap = chats[1].at - chats[0].at  # context-length probe's GET /models beside them
    assert gap >= 0.95


async def test_client_errors_are_not_retried(services, conversation, fake_openai):
    fake_openai.status(400, message="model does not exist")
    events = await collect(run_turn(services, conversation.id, "question", retry_policy=FAST_RETRIES))
    failed = final(events)
    assert "returned 400" in failed.error and "model does not exist" in failed.error
    assert len(fake_openai.chat_requests) == 1


@pytest.mark.slow
async def test_stall_before_headers_times_out(services, conversation, fake_openai):
    services.settings.agent.request_timeout = 0.5
    fake_openai.stall(5)
    started = time.monotonic()
    events = await collect(run_turn(services, conversation.id, "question", retry_policy=FAST_RETRIES))
    failed = final(events)
    assert "Timed out after 0.5 s" in failed.error
    assert time.monotonic() - started < 3
    assert len(fake_openai.chat_requests) == 1
    assert_user_kept_and_partial(services, conversation, None)


@pytest.mark.slow
async def test_stall_mid_stream_times_out_and_keeps_partial(services, conversation, fake_openai):
    services.settings.agent.request_timeout = 0.5
    fake_openai.stall(5, after="Thinking about it")
    events = await collect(run_turn(services, conversation.id, "question", retry_policy=FAST_RETRIES))
    failed = final(events)
    assert "Timed out" in failed.error and failed.partial is not None
    assert_user_kept_and_partial(services, conversation, "Thinking about it")


async def test_malformed_chunk_is_reported_and_partial_kept(services, conversation, fake_openai):
    fake_openai.malformed(after="Some good words")
    events = await collect(run_turn(services, conversation.id, "question", retry_policy=FAST_RETRIES))
    failed = final(events)
    assert "malformed stream chunk" in failed.error
    assert_user_kept_and_partial(services, conversation, "Some good words")


async def test_cancel_event_stops_streaming_and_keeps_partial(services, conversation, fake_openai):
    fake_openai.reply(SLOW_TEXT, words_per_second=15)
    cancel = asyncio.Event()
    events = []
    async for event in run_turn(services, conversation.id, "question", cancel=cancel):
        events.append(event)
        if len(of_type(events, TextDelta)) == 3:
            cancel.set()
    # the full reply would take 4 s; cancelling after 3 deltas ends it: a few more at most
    # (counted, not timed: a busy machine slows both alike)
    assert len(of_type(events, TextDelta)) < len(SLOW_TEXT.split()) // 2
    done = final(events)
    assert isinstance(done, TurnFinished) and done.stop_reason == "cancelled"
    assert done.reply is not None and done.reply.incomplete
    assert_user_kept_and_partial(services, conversation, "word0 word1 word2")


async def test_cancelling_the_task_keeps_partial(services, conversation, fake_openai):
    fake_openai.reply(SLOW_TEXT, words_per_second=40)
    seen = asyncio.Event()

    async def consume():
        async for event in run_turn(services, conversation.id, "question"):
            if isinstance(event, TextDelta):
                seen.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(seen.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert_user_kept_and_partial(services, conversation, "word0")


async def test_cancel_while_waiting_for_approval(services, conversation, fake_openai):
    fake_openai.tool_call("run_shell", {"command": "echo hi"})
    cancel = asyncio.Event()
    events = []
    async for event in run_turn(services, conversation.id, "question", cancel=cancel):
        events.append(event)
        if isinstance(event, ApprovalRequested):
            cancel.set()  # the user pressed Esc instead of answering
    assert final(events).stop_reason == "cancelled"
    assert not of_type(events, ToolCallFinished)
    rows = stored(services, conversation)
    assert_history_is_valid(rows)
    assert "Cancelled" in rows[-1].content


@pytest.mark.slow
async def test_max_seconds_stops_a_slow_reply(services, conversation, fake_openai):
    # The reply stalls after its third word until the test ends: the deadline, not the reply's
    # end, stops the turn. Long enough for the first words on a busy machine.
    services.settings.agent.max_seconds = 5.0
    stalled = threading.Event()
    fake_openai.reply(SLOW_TEXT, gate=stalled, gate_at=3)
    try:
        events = await collect(run_turn(services, conversation.id, "question"))
    finally:
        stalled.set()
    done = final(events)
    assert done.stop_reason == "max_seconds" and done.reply.incomplete
    assert_user_kept_and_partial(services, conversation, "word0")


def _locked_history(services):
    """Swap in a store with a short busy timeout, and lock its database from outside."""
    from agenttui.core.history.store import HistoryStore

    db_path = services.paths.history_db(services.profile_name)
    services.history.close()
    services.history = HistoryStore(db_path, busy_timeout=0.05)
    conversation = services.history.create_conversation()
    blocker = sqlite3.connect(db_path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # holds the write lock, like another busy process
    return conversation, blocker


async def test_a_failed_write_warns_and_is_retried_within_the_turn(services, fake_openai):
    conversation, blocker = _locked_history(services)
    fake_openai.reply("Answer while the disk was busy.")
    events = []
    async for event in run_turn(services, conversation.id, "question"):
        events.append(event)
        if isinstance(event, PersistWarning):
            blocker.rollback()  # the other process lets go
    blocker.close()
    assert len(of_type(events, PersistWarning)) == 1
    assert final(events).stop_reason == "success"
    assert fake_openai.last_messages()[-1] == {"role": "user", "content": "question"}
    rows = stored(services, conversation)
    assert [(m.role, m.content) for m in rows] == [
        ("user", "question"), ("assistant", "Answer while the disk was busy.")]


@pytest.mark.slow
async def test_writes_failing_all_turn_are_kept_for_the_next_turn(services, fake_openai):
    conversation, blocker = _locked_history(services)
    fake_openai.reply("First answer.").reply("Second answer.")
    events = await collect(run_turn(services, conversation.id, "first"))
    assert final(events).stop_reason == "success" and of_type(events, PersistWarning)
    assert pending_count(services) == 2
    blocker.rollback()
    blocker.close()
    await collect(run_turn(services, conversation.id, "second"))
    assert pending_count(services) == 0
    assert [m.content for m in stored(services, conversation)] == [
        "first", "First answer.", "second", "Second answer."]
    # the second request still saw the first exchange (it was held in memory, then written)
    assert [m["content"] for m in fake_openai.last_messages()[1:]] == [
        "first", "First answer.", "second"]
