"""Endpoints that refuse ``stream_options`` or ``tools`` still get answers.

The real openai client talks to the fake server, which refuses the option the
way each real server does (bodies and sources: tests/fakes/provider_rejections.py).
"""

from __future__ import annotations

import json

import pytest

from agenttui.agent.events import RequestFallback, RetryScheduled, TurnFailed, TurnFinished
from agenttui.agent.loop import run_turn
from agenttui.core.endpoint_state import EndpointMemory, state_path
from tests.fakes import provider_rejections as rejections

from .conftest import FAST_RETRIES, collect, final, of_type


def state(services) -> dict:
    return json.loads(state_path(services.paths.data_dir).read_text())


async def turn(services, conversation, text="question", **kwargs):
    return await collect(run_turn(services, conversation.id, text, retry_policy=FAST_RETRIES, **kwargs))


@pytest.mark.slow
@pytest.mark.parametrize("style", sorted(rejections.STREAM_OPTIONS))
async def test_stream_options_refused_is_retried_without_it_and_remembered(
        services, conversation, fake_openai, style):
    fake_openai.reject("stream_options", rejections.STREAM_OPTIONS[style])
    fake_openai.reply("hello without usage")
    events = await turn(services, conversation)
    done = final(events)
    assert isinstance(done, TurnFinished) and done.reply.content == "hello without usage"
    first, second = fake_openai.chat_requests
    assert "stream_options" in first and "stream_options" not in second
    assert second["messages"] == first["messages"] and second.get("tools") == first.get("tools")
    assert not of_type(events, RetryScheduled)  # a fallback, not a retry with backoff
    notices = of_type(events, RequestFallback)
    assert [n.option for n in notices] == ["stream_options"]
    assert "stream_options" in notices[0].text and "Remembered" in notices[0].text
    entry = state(services)["endpoints"][fake_openai.base_url][services.model]
    assert entry["stream_options"]["omitted"] is True and "tools" not in entry

    fake_openai.reply("second answer")  # the next turn goes without it at once, silently
    events = await turn(services, conversation, "again")
    assert isinstance(final(events), TurnFinished) and not of_type(events, RequestFallback)
    assert len(fake_openai.chat_requests) == 3 and "stream_options" not in fake_openai.chat_requests[-1]


@pytest.mark.slow
@pytest.mark.parametrize("server", sorted(rejections.TOOLS))
async def test_model_without_tools_answers_without_them_and_says_so_once(
        services, conversation, fake_openai, server):
    fake_openai.reject("tools", rejections.TOOLS[server])
    fake_openai.reply("plain answer")
    events = await turn(services, conversation)
    done = final(events)
    assert isinstance(done, TurnFinished) and done.reply.content == "plain answer"
    requests = fake_openai.chat_requests
    assert len(requests) == 2  # llama.cpp's 500 is not retried three times first
    assert requests[0]["tools"] and "tools" not in requests[1]
    notice = of_type(events, RequestFallback)
    assert len(notice) == 1 and notice[0].option == "tools"
    assert "without tools" in notice[0].text and "the server said:" in notice[0].text
    assert state(services)["endpoints"][fake_openai.base_url][services.model]["tools"]["omitted"]

    fake_openai.reply("later answer")
    events = await turn(services, conversation, "and now?")
    assert isinstance(final(events), TurnFinished) and not of_type(events, RequestFallback)
    assert "tools" not in fake_openai.chat_requests[-1]


async def test_both_refused_in_one_turn(services, conversation, fake_openai):
    fake_openai.reject("stream_options", rejections.STREAM_OPTIONS["mistral-extra-forbidden"])
    fake_openai.reject("tools", rejections.TOOLS["ollama"])
    fake_openai.reply("finally")
    events = await turn(services, conversation)
    assert isinstance(final(events), TurnFinished) and final(events).reply.content == "finally"
    assert sorted(n.option for n in of_type(events, RequestFallback)) == ["stream_options", "tools"]
    assert len(fake_openai.chat_requests) == 3


async def test_memory_is_per_model_and_survives_a_new_process(services, conversation, fake_openai):
    fake_openai.reject("tools", rejections.TOOLS["ollama"])
    await turn(services, conversation)
    fake_openai.rejects.clear()  # another model on the same server takes tools
    fake_openai.reply("with tools")
    await turn(services, conversation, model="qwen2.5:7b")
    assert fake_openai.chat_requests[-1]["tools"]
    # a fresh process reads the file (no in-process cache involved)
    fresh = EndpointMemory(state_path(services.paths.data_dir))
    assert fresh.omitted(fake_openai.base_url + "/", services.model) == {"tools"}
    assert fresh.omitted(fake_openai.base_url, "qwen2.5:7b") == set()


async def test_setting_on_never_falls_back(services, conversation, fake_openai):
    services.settings.agent.tool_calling = "on"
    fake_openai.reject("tools", rejections.TOOLS["ollama"])
    events = await turn(services, conversation)
    failed = final(events)
    assert isinstance(failed, TurnFailed) and "does not support tools" in failed.error
    assert len(fake_openai.chat_requests) == 1 and not of_type(events, RequestFallback)
    assert not state_path(services.paths.data_dir).exists()


async def test_setting_on_sends_what_was_remembered(services, conversation, fake_openai):
    fake_openai.reject("stream_options", rejections.STREAM_OPTIONS["unknown-parameter"])
    await turn(services, conversation)
    fake_openai.rejects.clear()  # the gateway was upgraded
    services.settings.agent.stream_options = "on"
    await turn(services, conversation, "again")
    assert fake_openai.chat_requests[-1]["stream_options"] == {"include_usage": True}


async def test_setting_off_never_sends(services, conversation, fake_openai):
    services.settings.agent.stream_options = "off"
    services.settings.agent.tool_calling = "off"
    events = await turn(services, conversation)
    assert isinstance(final(events), TurnFinished)
    (request,) = fake_openai.chat_requests
    assert "stream_options" not in request and "tools" not in request


async def test_an_unrelated_400_is_not_hidden_by_a_fallback(services, conversation, fake_openai):
    fake_openai.reject("tools", rejections.CONTEXT_TOO_LONG)  # mentions tools, refuses nothing
    events = await turn(services, conversation)
    failed = final(events)
    assert isinstance(failed, TurnFailed) and "maximum context length" in failed.error
    assert len(fake_openai.chat_requests) == 1 and not of_type(events, RequestFallback)


async def test_a_state_file_that_cannot_be_read_or_written_costs_nothing(services, conversation, fake_openai):
    path = state_path(services.paths.data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{ not json")
    fake_openai.reject("tools", rejections.TOOLS["vllm"])
    events = await turn(services, conversation)
    assert isinstance(final(events), TurnFinished)
    assert state(services)["endpoints"][fake_openai.base_url][services.model]["tools"]["omitted"]

    path.unlink()
    path.mkdir()  # neither readable nor writable as a file (chmod would not stop root)
    events = await turn(services, conversation, "more", model="other-model")
    notice = of_type(events, RequestFallback)
    assert isinstance(final(events), TurnFinished)
    assert notice and "session only" in notice[0].text  # the fallback holds, and says how long
    events = await turn(services, conversation, "still", model="other-model")
    assert not of_type(events, RequestFallback) and "tools" not in fake_openai.chat_requests[-1]


@pytest.mark.slow
def test_ask_says_it_once_on_stderr(fake_openai, isolated_home, tmp_path):
    import os
    import subprocess
    import sys

    def ask(text: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "agenttui", "ask", text], capture_output=True,
                              text=True, env=dict(os.environ), timeout=60, cwd=tmp_path)

    fake_openai.reject("tools", rejections.TOOLS["ollama"])
    fake_openai.reply("plain answer")
    first = ask("hello")
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "plain answer"
    assert first.stderr.count("does not take tool calls") == 1
    fake_openai.reply("second answer")
    again = ask("again")
    assert again.returncode == 0 and "tool calls" not in again.stderr  # remembered: said once
    assert "tools" not in fake_openai.chat_requests[-1]
