"""Corrections wired per setting: off, offer, save (with undo)."""

from __future__ import annotations

from agenttui.agent.memory_hooks import accept_offer, after_user_message, event_for, undo
from agenttui.core.models import Message, WriteResult

CORRECTION = "stop adding emojis to every answer"


def user(text: str) -> Message:
    return Message(role="user", content=text, id=7, conversation_id="c1")


def test_no_correction_no_event(services):
    assert after_user_message(services, user("what is the weather in Jakarta?")) == []


def test_off_does_nothing(services):
    services.settings.memory.corrections = "off"
    assert after_user_message(services, user(CORRECTION)) == []
    assert services.memory.items() == []


def test_offer_proposes_without_writing_then_accept_writes(services):
    services.settings.memory.corrections = "offer"
    [event] = after_user_message(services, user(CORRECTION))
    assert event.action == "offered"
    assert event.result.pending and event.result.status == "pending"
    assert event.result.item.source == "correction"
    assert "emoji" in event.text.lower()
    assert services.memory.items() == []
    result = accept_offer(services, event)
    assert result.status == "added"
    [stored] = services.memory.items()
    assert stored.source == "correction" and stored.origin.message_id == 7
    assert stored.origin.conversation_id == "c1"


def test_offer_skips_what_is_already_remembered(services):
    [event] = after_user_message(services, user(CORRECTION))
    accept_offer(services, event)
    assert after_user_message(services, user(CORRECTION)) == []


def test_save_writes_at_once_and_can_be_undone(services):
    services.settings.memory.corrections = "save"
    [event] = after_user_message(services, user(CORRECTION))
    assert event.action == "written" and event.result.status == "added"
    assert len(services.memory.items()) == 1
    assert undo(services, event)
    assert services.memory.items() == []


def test_indonesian_correction_is_detected(services):
    [event] = after_user_message(services, user("jangan pakai emoji ya"))
    assert event.action == "offered"


def test_assistant_messages_are_ignored(services):
    message = Message(role="assistant", content=CORRECTION)
    assert after_user_message(services, message) == []


def test_event_for_maps_gate_results():
    assert event_for(WriteResult("rejected", reason="no"), "x").action == "blocked"
    assert event_for(WriteResult("pending", pending=True), "x").action == "pending"
    assert event_for(WriteResult("added"), "x").action == "written"


def test_accepting_a_pending_model_proposal_confirms_it(services):
    services.settings.memory.model_consent = "ask"
    result = services.memory.add_note("User likes dark themes", source="model")
    assert result.pending
    event = event_for(result, "User likes dark themes")
    confirmed = accept_offer(services, event)
    assert confirmed.status == "added"
    assert [i.text for i in services.memory.items()] == ["User likes dark themes"]
