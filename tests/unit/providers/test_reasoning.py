"""Reasoning is streamed as it comes, not sent back, saved only on request."""

from __future__ import annotations

from agenttui.agent.events import ReasoningDelta, TextDelta, TurnFailed, TurnFinished

from . import formats
from .helpers import assistant_rows, follow_up_succeeds, of_type, turn

GITHUB_TOKEN = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"


async def test_groq_reasoning_streams_before_the_answer(services, conversation, fake_openai):
    fake_openai.raw(formats.groq_reasoning_reply(["Hmm,", " two plus two."], ["It", " is 4."]))
    events = await turn(services, conversation, "2+2?")
    done = events[-1]
    assert isinstance(done, TurnFinished) and done.reply.content == "It is 4."
    kinds = [type(e) for e in events if isinstance(e, ReasoningDelta | TextDelta)]
    assert kinds.index(ReasoningDelta) < kinds.index(TextDelta)
    assert "".join(e.text for e in of_type(events, ReasoningDelta)) == "Hmm, two plus two."
    assert done.trace.prompt_tokens == 40 and done.trace.completion_tokens == 25  # x_groq.usage
    [row] = assistant_rows(services, conversation)
    assert row.reasoning is None and row.provider_fields == {}  # not saved by default
    sent = await follow_up_succeeds(services, conversation, fake_openai)
    assert "two plus two" not in str(sent)  # never sent back


async def test_saved_reasoning_is_redacted(services, conversation, fake_openai):
    services.settings.history.save_reasoning = True
    fake_openai.raw(formats.vllm_reasoning_reply([f"The token {GITHUB_TOKEN}", " is a secret."], ["OK."]))
    events = await turn(services, conversation, "look")
    assert isinstance(events[-1], TurnFinished)
    [row] = assistant_rows(services, conversation)
    assert row.reasoning and row.reasoning.endswith("is a secret.")
    assert GITHUB_TOKEN not in row.reasoning
    assert GITHUB_TOKEN.encode() not in services.history.db_path.read_bytes()
    sent = await follow_up_succeeds(services, conversation, fake_openai)
    assert "is a secret" not in str(sent)


async def test_llamacpp_reasoning_content_is_shown(services, conversation, fake_openai):
    fake_openai.raw(formats.llamacpp_reasoning_reply(["Think", "ing."], ["Answer."]))
    events = await turn(services, conversation, "q")
    assert isinstance(events[-1], TurnFinished) and events[-1].reply.content == "Answer."
    assert "".join(e.text for e in of_type(events, ReasoningDelta)) == "Thinking."


async def test_thinking_until_the_limit_is_said_in_words(services, conversation, fake_openai):
    fake_openai.raw(formats.lmstudio_thinking_only(["Let me", " think", " at length"]))
    events = await turn(services, conversation, "hard question")
    failed = events[-1]
    assert isinstance(failed, TurnFailed) and failed.stop_reason == "incomplete"
    assert "whole output budget thinking" in failed.error and "max_tokens" in failed.error
    assert of_type(events, ReasoningDelta)  # the user saw it think, not a stall
    [row] = assistant_rows(services, conversation)
    assert row.incomplete and row.content is None and row.incomplete_reason == failed.error
    await follow_up_succeeds(services, conversation, fake_openai)


async def test_ollama_thinking_cut_by_num_predict(services, conversation, fake_openai):
    fake_openai.raw(formats.ollama_thinking_then_cut(["Step one.", " Step two."]))
    events = await turn(services, conversation, "plan it")
    assert isinstance(events[-1], TurnFailed) and '"length"' in events[-1].error
    await follow_up_succeeds(services, conversation, fake_openai)


async def test_mistral_magistral_thinking_chunks_are_reasoning_not_reply(services, conversation, fake_openai):
    fake_openai.raw(formats.mistral_magistral(["Check", " the sum."], ["It is", " 4."]))
    events = await turn(services, conversation, "2+2?")
    done = events[-1]
    assert isinstance(done, TurnFinished) and done.reply.content == "It is 4.", done
    assert "".join(e.text for e in of_type(events, ReasoningDelta)) == "Check the sum."
    await follow_up_succeeds(services, conversation, fake_openai)
