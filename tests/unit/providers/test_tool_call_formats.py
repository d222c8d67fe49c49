"""Tool calls as Gemini, DeepSeek, Ollama and Mistral stream them.

Parallel calls without ``index`` stay separate calls; the fields a provider
needs back (Gemini's thought signature, DeepSeek's reasoning_content) are stored
and sent back unchanged -- the providers' own 400s (``*_checks``) prove it.
"""

from __future__ import annotations

import json

from agenttui.agent.events import ReasoningDelta, ToolCallFinished, ToolCallStarted, TurnFinished

from . import formats
from .helpers import follow_up_succeeds, of_type, turn


async def test_gemini_parallel_calls_without_index_run_separately(services, conversation, fake_openai):
    calls = [("recall", {"query": "tea"}), ("search_history", {"query": "coffee"})]
    fake_openai.validator = formats.gemini_checks
    fake_openai.raw(formats.gemini_parallel_calls(calls))
    fake_openai.raw(formats.gemini_text(["Both", " done."]))
    events = await turn(services, conversation, "check both")

    done = events[-1]
    assert isinstance(done, TurnFinished) and done.reply.content == "Both done.", done
    started = [e.call for e in of_type(events, ToolCallStarted)]
    assert [(c.name, json.loads(c.arguments)) for c in started] == calls
    assert all(e.ok for e in of_type(events, ToolCallFinished))
    # the second request carried the signature back, byte for byte, on the first call only
    step_two = fake_openai.chat_requests[1]["messages"]
    [asked] = [m for m in step_two if m.get("tool_calls")]
    assert asked["tool_calls"][0]["extra_content"] == {"google": {"thought_signature": formats.GEMINI_SIGNATURE}}
    assert "extra_content" not in asked["tool_calls"][1]
    assert [m["tool_call_id"] for m in step_two if m["role"] == "tool"] == ["function-call-1000",
                                                                          "function-call-1001"]
    stored = [m for m in services.history.messages(conversation.id) if m.tool_calls][0]
    assert stored.tool_calls[0].extra["extra_content"]["google"]["thought_signature"] == formats.GEMINI_SIGNATURE
    services.settings.history.collapse_tool_steps = False  # older tool steps in the window too
    await follow_up_succeeds(services, conversation, fake_openai, checks=formats.gemini_checks)


async def test_deepseek_reasoning_content_goes_back_on_tool_call_messages(services, conversation,
                                                                          fake_openai):
    thinking = ["The user", " wants a", " search."]
    fake_openai.validator = formats.deepseek_checks
    fake_openai.raw(formats.deepseek_thinking_tool_call(thinking, "recall", {"query": "tea"}))
    fake_openai.raw(formats.deepseek_text(["Nothing", " found."]))
    events = await turn(services, conversation, "what tea do I like?")

    done = events[-1]
    assert isinstance(done, TurnFinished) and done.reply.content == "Nothing found.", done
    assert "".join(e.text for e in of_type(events, ReasoningDelta)) == "The user wants a search."
    [asked] = [m for m in fake_openai.chat_requests[1]["messages"] if m.get("tool_calls")]
    assert asked["reasoning_content"] == "The user wants a search."
    assert not any("reasoning_content" in m for m in fake_openai.chat_requests[1]["messages"]
                   if not m.get("tool_calls"))  # only where DeepSeek requires it
    assert done.reply.reasoning is None  # not saved: [history] save_reasoning is off
    services.settings.history.collapse_tool_steps = False
    await follow_up_succeeds(services, conversation, fake_openai, checks=formats.deepseek_checks)


async def test_ollama_whole_tool_call_with_reasoning_runs(services, conversation, fake_openai):
    fake_openai.raw(formats.ollama_tool_call("search_history", {"query": "tea"}))
    fake_openai.raw(formats.openai_text(["Listed."]))
    events = await turn(services, conversation, "list it")
    done = events[-1]
    assert isinstance(done, TurnFinished) and done.reply.content == "Listed."
    [call] = [e.call for e in of_type(events, ToolCallStarted)]
    assert call.id == "call_k3v9x2" and json.loads(call.arguments) == {"query": "tea"}
    # Ollama's "reasoning" is shown but never needed back
    assert "reasoning" not in str(fake_openai.chat_requests[1]["messages"])


async def test_mistral_whole_tool_call_in_the_finish_chunk_runs(services, conversation, fake_openai):
    fake_openai.raw(formats.mistral_tool_call("search_history", {"query": "coffee"}))
    fake_openai.raw(formats.openai_text(["Done."]))
    events = await turn(services, conversation, "list it")
    assert isinstance(events[-1], TurnFinished) and events[-1].reply.content == "Done."
    [finished] = of_type(events, ToolCallFinished)
    assert finished.ok and finished.call.id == "D681PevKs"


async def test_gemini_same_index_split_arguments_and_late_signature(services, conversation, fake_openai):
    fake_openai.validator = formats.gemini_checks
    fake_openai.raw(formats.gemini_split_calls())
    fake_openai.raw(formats.gemini_text(["Both", " done."]))
    events = await turn(services, conversation, "check both")
    assert isinstance(events[-1], TurnFinished) and events[-1].reply.content == "Both done.", events[-1]
    started = [e.call for e in of_type(events, ToolCallStarted)]
    assert [(c.id, c.name, json.loads(c.arguments)) for c in started] == [
        ("function-call-2000", "recall", {"query": "tea"}),
        ("function-call-2001", "search_history", {"query": "coffee"})]
    assert started[0].extra == {"extra_content": {"google": {"thought_signature": formats.GEMINI_SIGNATURE}}}
    assert started[1].extra == {}


async def test_openrouter_reasoning_details_go_back_unchanged_with_tool_calls(services, conversation,
                                                                              fake_openai):
    fake_openai.validator = formats.openrouter_checks
    fake_openai.raw(formats.openrouter_reasoning_tool_call("recall", {"query": "tea"}))
    fake_openai.raw(formats.openai_text(["Found", " nothing."]))
    events = await turn(services, conversation, "what tea?")
    assert isinstance(events[-1], TurnFinished) and events[-1].reply.content == "Found nothing.", events[-1]
    assert "".join(e.text for e in of_type(events, ReasoningDelta)) == "Look it up first."
    [asked] = [m for m in fake_openai.chat_requests[1]["messages"] if m.get("tool_calls")]
    assert asked["reasoning_details"] == formats.OPENROUTER_DETAILS
    services.settings.history.collapse_tool_steps = False
    await follow_up_succeeds(services, conversation, fake_openai, checks=formats.openrouter_checks)
