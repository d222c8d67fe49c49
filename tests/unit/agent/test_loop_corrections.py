"""Correction wiring: a correction in the user's message is offered or saved, per setting."""

from __future__ import annotations

from agenttui.agent.events import MemoryChanged
from agenttui.agent.loop import run_turn

from .conftest import collect, final, of_type


async def test_a_correction_is_offered_by_default(services, conversation, fake_openai):
    events = await collect(run_turn(services, conversation.id, "Stop using emojis in your answers."))
    [offer] = of_type(events, MemoryChanged)
    assert offer.action == "offered" and "emojis" in offer.text
    assert offer.result.item.source == "correction"
    assert services.memory.items() == []  # nothing stored until the user says yes
    assert final(events).stop_reason == "success"


async def test_a_correction_is_saved_when_set_to_save(services, conversation, fake_openai):
    services.settings.memory.corrections = "save"
    events = await collect(run_turn(services, conversation.id, "jangan pakai bahasa formal"))
    [saved] = of_type(events, MemoryChanged)
    assert saved.action == "written"
    [item] = services.memory.items()
    assert item.source == "correction" and "formal" in item.text
    assert item.origin.conversation_id == conversation.id
    assert final(events).trace.memory_written == [item.id]


async def test_no_offer_for_ordinary_messages_or_when_off(services, conversation, fake_openai):
    events = await collect(run_turn(services, conversation.id, "What is the weather like?"))
    assert not of_type(events, MemoryChanged)
    services.settings.memory.corrections = "off"
    events = await collect(run_turn(services, conversation.id, "Stop using emojis."))
    assert not of_type(events, MemoryChanged)
