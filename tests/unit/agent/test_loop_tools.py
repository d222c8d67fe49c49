"""Tool calls through the real registry: round trips, parallel calls, approval, limits."""

from __future__ import annotations

import json

from agenttui.agent.events import (
    ApprovalRequested,
    MemoryChanged,
    ToolCallFinished,
    ToolCallStarted,
    TurnFinished,
)
from agenttui.agent.loop import run_turn

from .conftest import collect, final, of_type


def assert_history_is_valid(messages) -> None:
    """Every tool call has exactly one result right after it (what the API demands)."""
    open_ids: list[str] = []
    for message in messages:
        if message.role == "tool":
            assert message.tool_call_id in open_ids, f"orphan result {message.tool_call_id}"
            open_ids.remove(message.tool_call_id)
            continue
        assert not open_ids, f"calls without results: {open_ids}"
        open_ids = [call.id for call in message.tool_calls]
    assert not open_ids, f"calls without results: {open_ids}"


async def test_a_tool_call_round_trip_writes_memory(services, conversation, fake_openai):
    fake_openai.tool_call("remember", {"text": "User's favourite tea is sencha"}, arg_pieces=5)
    fake_openai.reply("Noted: sencha.")
    events = await collect(run_turn(services, conversation.id, "remember that I love sencha"))

    done = final(events)
    assert isinstance(done, TurnFinished) and done.stop_reason == "success"
    assert done.reply.content == "Noted: sencha."
    [started] = of_type(events, ToolCallStarted)
    assert started.call.name == "remember"
    assert json.loads(started.call.arguments) == {"text": "User's favourite tea is sencha"}
    [finished] = of_type(events, ToolCallFinished)
    assert finished.ok
    [changed] = of_type(events, MemoryChanged)
    assert changed.action in ("written", "pending")
    assert done.trace.steps[0].tool == "remember" and done.trace.steps[0].ok
    if changed.action == "written":
        assert any("sencha" in item.display for item in services.memory.items())
        assert done.trace.memory_written

    stored = services.history.messages(conversation.id)
    assert [m.role for m in stored] == ["user", "assistant", "tool", "assistant"]
    assert stored[1].tool_calls[0].name == "remember"
    assert_history_is_valid(stored)
    # the second request carried the call and its result back to the model
    second = fake_openai.chat_requests[1]["messages"]
    assert second[-2]["tool_calls"][0]["id"] == second[-1]["tool_call_id"]
    assert {t["function"]["name"] for t in fake_openai.chat_requests[0]["tools"]} >= {"remember", "recall"}


async def test_parallel_tool_calls_all_get_results_in_order(services, conversation, fake_openai):
    (services.paths.project_dir(services.profile_name)).mkdir(parents=True, exist_ok=True)
    fake_openai.tool_calls([("recall", {"query": "tea"}), ("read_learnings", {})])
    fake_openai.reply("Done.")
    events = await collect(run_turn(services, conversation.id, "what do you know?"))

    assert final(events).stop_reason == "success"
    assert [e.call.name for e in of_type(events, ToolCallFinished)] == ["recall", "read_learnings"]
    second = fake_openai.chat_requests[1]["messages"]
    calls = second[-3]["tool_calls"]
    assert [c["function"]["name"] for c in calls] == ["recall", "read_learnings"]
    assert [m["tool_call_id"] for m in second[-2:]] == [c["id"] for c in calls]
    assert_history_is_valid(services.history.messages(conversation.id))


async def test_shell_approval_granted_runs_the_command(services, conversation, fake_openai):
    fake_openai.tool_call("run_shell", {"command": "echo approved-run"})
    fake_openai.reply("It printed.")
    events = await collect(run_turn(services, conversation.id, "run echo"), approve=True)

    [request] = of_type(events, ApprovalRequested)
    assert "echo approved-run" in request.summary and request.risk in ("low", "medium", "high")
    [finished] = of_type(events, ToolCallFinished)
    assert finished.ok and not finished.denied and "approved-run" in finished.output
    assert final(events).stop_reason == "success"


async def test_shell_approval_denied_tells_the_model(services, conversation, fake_openai, tmp_path):
    victim = tmp_path / "keep-me"
    victim.write_text("precious")
    fake_openai.tool_call("run_shell", {"command": f"rm -rf {victim}"})
    fake_openai.reply("Understood, I did not delete it.")
    events = await collect(run_turn(services, conversation.id, "delete it"), approve=False)

    [request] = of_type(events, ApprovalRequested)
    assert request.risk == "high" and f"rm -rf {victim}" in request.summary
    [finished] = of_type(events, ToolCallFinished)
    assert finished.denied and not finished.ok and "Denied" in finished.output
    assert victim.exists()
    done = final(events)
    assert done.stop_reason == "success" and done.trace.steps[0].denied
    assert "Denied" in fake_openai.chat_requests[1]["messages"][-1]["content"]


async def test_approval_timeout_counts_as_denial(services, conversation, fake_openai):
    fake_openai.tool_call("run_shell", {"command": "echo never"})
    fake_openai.reply("ok")
    events = await collect(run_turn(services, conversation.id, "x", approver_timeout=0.05))
    [finished] = of_type(events, ToolCallFinished)
    assert finished.denied and final(events).stop_reason == "success"


async def test_max_steps_stops_the_turn_and_keeps_history_valid(services, conversation, fake_openai):
    services.settings.agent.max_steps = 2
    for _ in range(3):
        fake_openai.tool_call("recall", {"query": "anything"})
    events = await collect(run_turn(services, conversation.id, "loop forever"))

    done = final(events)
    assert done.stop_reason == "max_steps"
    assert len(fake_openai.chat_requests) == 2
    assert len(of_type(events, ToolCallFinished)) == 1  # the second step's call was not run
    stored = services.history.messages(conversation.id)
    assert_history_is_valid(stored)
    assert "step limit" in stored[-1].content


async def test_invalid_tool_json_goes_back_to_the_model(services, conversation, fake_openai):
    fake_openai.bad_tool_args("remember", '{"text": "unterminated')
    fake_openai.reply("Sorry, fixed.")
    events = await collect(run_turn(services, conversation.id, "remember something"))

    [finished] = of_type(events, ToolCallFinished)
    assert not finished.ok and "invalid JSON" in finished.output and "`remember`" in finished.output
    done = final(events)
    assert done.stop_reason == "success" and not done.trace.steps[0].ok
    assert "invalid JSON" in fake_openai.chat_requests[1]["messages"][-1]["content"]
    assert services.memory.items() == []
    assert_history_is_valid(services.history.messages(conversation.id))


async def test_tool_output_is_truncated(services, conversation, fake_openai):
    services.settings.agent.max_tool_output = 300
    fake_openai.tool_call("run_shell", {"command": "python3 -c \"print('x' * 5000)\""})
    fake_openai.reply("long")
    events = await collect(run_turn(services, conversation.id, "print a lot"), approve=True)
    [finished] = of_type(events, ToolCallFinished)
    assert len(finished.output) < 500 and "truncated" in finished.output
    tool_row = [m for m in services.history.messages(conversation.id) if m.role == "tool"][0]
    assert len(tool_row.content) < 500
