"""The extraction pass inside a real turn, against the fake server."""

from __future__ import annotations

import json

from agenttui.agent.events import MemoryChanged, TurnFinished
from agenttui.agent.loop import run_turn


async def drain(events):
    return [event async for event in events]


async def test_extraction_pass_writes_through_the_gate(fake_openai, tmp_path):
    from agenttui.bootstrap import build_services

    services = build_services(cwd=tmp_path)
    services.settings.memory.extraction = True
    services.settings.memory.model_consent = "save"  # what is stored, not when ("ask" is the default)
    services.settings.agent.request_timeout = 5.0
    try:
        conversation = services.history.create_conversation()
        fake_openai.reply("Noted, I will answer in Indonesian.")
        fake_openai.reply(json.dumps({"items": [
            {"key": "language", "value": "id", "scope": "user", "ttl_days": None,
             "confidence": 0.9},
            {"key": "api_key", "value": "x", "scope": "user", "ttl_days": None,
             "confidence": 0.9},
        ]}))
        events = await drain(run_turn(services, conversation.id, "Please answer in Indonesian"))

        assert isinstance(events[-1], TurnFinished) and events[-1].stop_reason == "success"
        changes = [e for e in events if isinstance(e, MemoryChanged)]
        assert [c.action for c in changes] == ["written", "blocked"]
        assert [(i.key, i.source) for i in services.memory.items()] == [("language", "extraction")]
        trace = events[-1].trace
        assert len(trace.memory_written) == 1 and len(trace.memory_blocked) == 1
        extraction_request = fake_openai.chat_requests[-1]
        assert extraction_request.get("stream") in (None, False)
        assert "Please answer in Indonesian" in extraction_request["messages"][-1]["content"]
    finally:
        services.close()


async def test_extraction_off_by_default_makes_no_extra_call(fake_openai, tmp_path):
    from agenttui.bootstrap import build_services

    services = build_services(cwd=tmp_path)
    try:
        conversation = services.history.create_conversation()
        fake_openai.reply("hi")
        await drain(run_turn(services, conversation.id, "hello"))
        assert len(fake_openai.chat_requests) == 1
    finally:
        services.close()
