"""A reply is complete only when the provider said so.

Every unfinished reply is kept, marked incomplete with the reason in words, its
tool calls never run or sent back, and the next turn works.
"""

from __future__ import annotations

import pytest

from agenttui.agent.events import TextDelta, ToolCallStarted, TurnFailed, TurnFinished

from . import formats
from .helpers import INTERRUPTED_MARK, assistant_rows, follow_up_succeeds, of_type, turn


async def _incomplete(services, conversation, fake_openai, frames, *, words: str | None) -> TurnFailed:
    fake_openai.raw(frames)
    events = await turn(services, conversation, "tell me everything")
    failed = events[-1]
    assert isinstance(failed, TurnFailed) and failed.stop_reason == "incomplete", failed
    [row] = assistant_rows(services, conversation)
    assert row.incomplete and row.incomplete_reason == failed.error
    assert row.content == words
    assert not row.tool_calls
    assert "".join(e.text for e in of_type(events, TextDelta)) == (words or "")
    return failed


@pytest.mark.slow
async def test_openai_length_cut_is_kept_incomplete_and_said(services, conversation, fake_openai):
    failed = await _incomplete(services, conversation, fake_openai,
                               formats.openai_text(["The", " first", " half"], finish="length"),
                               words="The first half")
    assert "output token limit" in failed.error and '"length"' in failed.error
    sent = await follow_up_succeeds(services, conversation, fake_openai)
    assert {"role": "assistant", "content": f"The first half\n{INTERRUPTED_MARK}"} in sent


async def test_openai_tool_call_cut_by_length_is_neither_run_nor_sent(services, conversation, fake_openai):
    fake_openai.raw(formats.openai_tool_call_cut("remember", '{"text": "the user likes'))
    events = await turn(services, conversation, "remember that I like tea")
    failed = events[-1]
    assert isinstance(failed, TurnFailed) and failed.stop_reason == "incomplete"
    assert "`remember`" in failed.error and "not run" in failed.error
    assert not of_type(events, ToolCallStarted)
    assert services.memory.items("all") == []
    rows = services.history.messages(conversation.id)
    assert [m.role for m in rows] == ["user", "assistant"]  # no tool result, no orphan call
    assert rows[1].cut_tool_calls == [{"id": "call_Hk2pYwV", "name": "remember",
                                       "arguments": '{"text": "the user likes'}]  # kept, for the record
    sent = await follow_up_succeeds(services, conversation, fake_openai)
    assert not any(m.get("tool_calls") or m["role"] == "tool" for m in sent)
    assert "invalid JSON" not in str(sent)


async def test_azure_content_filter_names_the_category(services, conversation, fake_openai):
    failed = await _incomplete(services, conversation, fake_openai,
                               formats.azure_content_filtered(["Here", " is"], category="violence"),
                               words="Here is")
    assert "content filter" in failed.error and "violence" in failed.error
    await follow_up_succeeds(services, conversation, fake_openai)


async def test_mistral_model_length_is_a_cut(services, conversation, fake_openai):
    failed = await _incomplete(services, conversation, fake_openai,
                               formats.mistral_model_length(["Long", " answer"]), words="Long answer")
    assert '"model_length"' in failed.error
    await follow_up_succeeds(services, conversation, fake_openai)


async def test_stream_ending_without_finish_reason_is_incomplete(services, conversation, fake_openai):
    failed = await _incomplete(services, conversation, fake_openai,
                               formats.openai_no_finish(["Half", " a"]), words="Half a")
    assert "no finish reason" in failed.error
    await follow_up_succeeds(services, conversation, fake_openai)


async def test_llamacpp_error_line_ends_the_stream_incomplete(services, conversation, fake_openai):
    failed = await _incomplete(services, conversation, fake_openai,
                               formats.llamacpp_error_line(["Par", "tial"]), words="Partial")
    assert "ended before the model finished" in failed.error
    await follow_up_succeeds(services, conversation, fake_openai)


async def _errored(services, conversation, fake_openai, frames, words: str, message: str) -> None:
    fake_openai.raw(frames)
    events = await turn(services, conversation, "go")
    failed = events[-1]
    assert isinstance(failed, TurnFailed) and failed.stop_reason == "llm_error"
    assert message in failed.error
    [row] = assistant_rows(services, conversation)
    assert row.incomplete and row.content == words and message in row.incomplete_reason
    assert len(fake_openai.chat_requests) == 1  # text was shown: never silently retried
    await follow_up_succeeds(services, conversation, fake_openai)


async def test_vllm_error_object_mid_stream_is_reported(services, conversation, fake_openai):
    message = "This model's maximum context length is 8192 tokens."
    await _errored(services, conversation, fake_openai,
                   formats.vllm_error_mid_stream(["Sure", ","], message), "Sure,", message)


async def test_openrouter_error_mid_stream_is_reported(services, conversation, fake_openai):
    message = "Provider returned error"
    await _errored(services, conversation, fake_openai,
                   formats.openrouter_error_mid_stream(["Well", "..."], message), "Well...", message)


async def test_litellm_error_mid_stream_is_reported(services, conversation, fake_openai):
    message = "litellm.APIConnectionError: upstream closed"
    await _errored(services, conversation, fake_openai,
                   formats.litellm_error_mid_stream(["One", " two"], message), "One two", message)


async def test_an_empty_finished_reply_is_not_stored_empty(services, conversation, fake_openai):
    fake_openai.raw(formats.gemini_text([]))
    events = await turn(services, conversation, "hello?")
    failed = events[-1]
    assert isinstance(failed, TurnFailed) and failed.stop_reason == "incomplete"
    assert "without writing anything" in failed.error
    assert assistant_rows(services, conversation) == []  # nothing to keep: no empty message
    await follow_up_succeeds(services, conversation, fake_openai)


async def test_framing_quirks_still_give_a_complete_reply(services, conversation, fake_openai):
    fake_openai.raw(formats.framing_quirks(["CR", "LF", " fine"]))
    events = await turn(services, conversation, "hi")
    done = events[-1]
    assert isinstance(done, TurnFinished) and done.reply.content == "CRLF fine"
    assert not done.reply.incomplete and done.trace.prompt_tokens == 19


async def test_retrying_a_cut_reply_asks_again_without_the_cut_one(services, conversation, fake_openai):
    from agenttui.agent.loop import run_turn

    from .conftest import FAST_RETRIES

    fake_openai.raw(formats.openai_text(["Cut", " short"], finish="length"))
    failed = (await turn(services, conversation, "the question"))[-1]
    assert failed.stop_reason == "incomplete"
    user_id = services.history.messages(conversation.id)[0].id
    fake_openai.validator = formats.openai_checks
    fake_openai.raw(formats.openai_text(["Whole", " answer."]))
    events = [e async for e in run_turn(services, conversation.id, "", retry_of=user_id,
                                        retry_policy=FAST_RETRIES)]
    assert isinstance(events[-1], TurnFinished) and events[-1].reply.content == "Whole answer."
    sent = fake_openai.last_messages()
    assert [m["role"] for m in sent if m["role"] != "system"] == ["user"]  # the cut reply is not replayed


async def test_an_openai_refusal_is_the_reply_not_an_empty_one(services, conversation, fake_openai):
    fake_openai.raw(formats.openai_refusal(["I'm sorry,", " I can't help with that."]))
    events = await turn(services, conversation, "something")
    done = events[-1]
    assert isinstance(done, TurnFinished) and done.reply.content == "I'm sorry, I can't help with that."
    await follow_up_succeeds(services, conversation, fake_openai)
