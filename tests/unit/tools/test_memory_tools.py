"""remember / forget / recall through the real MemoryStore and its write gate."""

from __future__ import annotations

from datetime import timedelta

import pytest

from agenttui.agent.tools.registry import ToolRegistry
from agenttui.core.models import utcnow
from tests.unit.tools.conftest import call, run

SECRET = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAB7CD0EF"



@pytest.fixture(autouse=True)
def _save_model_memory_at_once(services):
    """These tests are about what the gate stores; "ask" (the default) is tested on its own."""
    services.settings.memory.model_consent = "save"

async def test_remember_a_note_is_stored_with_source_model(services):
    outcome = await run(ToolRegistry(services, conversation_id="conv-1"), "remember",
                        {"text": "User prefers short answers"})
    assert outcome.ok
    assert outcome.output.startswith("remembered [id ")
    [result] = outcome.memory
    assert result.status == "added"
    stored = services.memory.get(result.item.id)
    assert stored.text == "User prefers short answers"
    assert stored.source == "model"
    assert stored.origin.conversation_id == "conv-1"
    assert stored.origin.profile == services.profile_name


async def test_remember_a_fact_with_ttl(services):
    outcome = await run(ToolRegistry(services), "remember",
                        {"key": "language", "value": "id", "ttl_days": 30})
    assert outcome.ok
    item = services.memory.get(outcome.memory[0].item.id)
    assert (item.key, item.value, item.source) == ("language", "id", "model")
    assert item.expires is not None
    assert timedelta(days=29) < item.expires - utcnow() <= timedelta(days=30)


async def test_remembering_twice_refreshes(services):
    registry = ToolRegistry(services)
    await run(registry, "remember", {"text": "User prefers short answers"})
    outcome = await run(registry, "remember", {"text": "User prefers short answers"})
    assert outcome.memory[0].status == "refreshed"
    assert "already remembered" in outcome.output
    assert len(services.memory.items()) == 1


async def test_blocked_key_is_reported_to_the_model_and_not_stored(services):
    outcome = await run(ToolRegistry(services), "remember", {"key": "api_key", "value": "abc"})
    assert outcome.ok is False
    assert outcome.output.startswith("blocked: ")
    assert "api_key" in outcome.output
    assert [r.status for r in outcome.memory] == ["rejected"]
    assert services.memory.items() == []


async def test_a_secret_from_the_model_is_blocked(services):
    outcome = await run(ToolRegistry(services), "remember",
                        {"text": f"the user's OpenAI key is {SECRET}"})
    assert outcome.output.startswith("blocked: ")
    assert outcome.memory[0].status == "rejected"
    assert services.memory.items() == []
    assert SECRET not in outcome.output


async def test_fact_key_outside_the_allowlist_is_blocked(services):
    outcome = await run(ToolRegistry(services), "remember",
                        {"key": "favourite_colour", "value": "teal"})
    assert outcome.output.startswith("blocked: ")
    assert services.memory.items() == []


async def test_consent_ask_leaves_the_proposal_pending(services):
    services.settings.memory.model_consent = "ask"
    outcome = await run(ToolRegistry(services), "remember", {"text": "User likes dark themes"})
    assert outcome.ok
    assert outcome.output.startswith("waiting for the user's approval")
    assert outcome.memory[0].pending
    assert services.memory.items() == []
    assert [i.text for i in services.memory.pending()] == ["User likes dark themes"]


async def test_sensitive_keys_always_wait(services):
    outcome = await run(ToolRegistry(services), "remember", {"key": "location", "value": "Jakarta"})
    assert "waiting for the user's approval" in outcome.output
    assert services.memory.items() == []


async def test_forget_by_substring_removes_exactly_one(services):
    services.memory.add_note("likes green tea")
    services.memory.add_note("uses fish shell")
    outcome = await run(ToolRegistry(services), "forget", {"query": "green tea"})
    assert outcome.ok and "likes green tea" in outcome.output
    assert [i.text for i in services.memory.items()] == ["uses fish shell"]


async def test_forget_with_several_matches_removes_nothing_and_lists_ids(services):
    a = services.memory.add_note("likes green tea").item
    b = services.memory.add_note("dislikes black tea with sugar").item
    outcome = await run(ToolRegistry(services), "forget", {"query": "tea"})
    assert not outcome.ok
    assert a.id in outcome.output and b.id in outcome.output
    assert len(services.memory.items()) == 2
    outcome = await run(ToolRegistry(services), "forget", {"id": b.id})
    assert outcome.ok
    assert [i.id for i in services.memory.items()] == [a.id]


async def test_forget_refuses_pinned_items_and_unknown_ids(services):
    item = services.memory.add_note("always reply in English", pinned=True).item
    outcome = await run(ToolRegistry(services), "forget", {"id": item.id})
    assert not outcome.ok and "pinned" in outcome.output
    assert services.memory.get(item.id) is not None
    outcome = await run(ToolRegistry(services), "forget", {"id": "nope"})
    assert not outcome.ok and "no memory item matches" in outcome.output


def test_forget_needs_approval_when_consent_is_ask(services):
    services.memory.add_note("likes green tea")
    registry = ToolRegistry(services)
    assert registry.needs_approval(call("forget", {"query": "green"}))[0] is False
    services.settings.memory.model_consent = "ask"
    needed, summary, risk = registry.needs_approval(call("forget", {"query": "green"}))
    assert needed and risk == "medium"
    assert summary == "Forget memory: likes green tea"


async def test_recall_ranks_by_relevance_and_hides_expired(services):
    services.memory.add_note("deploys go through the staging cluster")
    services.memory.add_note("likes green tea")
    services.memory.add_note("staging password rotates monthly", ttl_days=1)
    store_file = services.memory.files()["user"]
    # expire the last one by hand, as a user editing the file would
    import json

    data = json.loads(store_file.read_text())
    for item in data["items"]:
        if "rotates" in item.get("text", ""):
            item["expires"] = (utcnow() - timedelta(days=1)).isoformat()
    store_file.write_text(json.dumps(data))

    outcome = await run(ToolRegistry(services), "recall", {"query": "staging cluster"})
    assert outcome.ok
    lines = outcome.output.splitlines()
    assert len(lines) == 1 and "staging cluster" in lines[0]
    everything = await run(ToolRegistry(services), "recall", {})
    assert "green tea" in everything.output and "rotates" not in everything.output


async def test_recall_with_nothing_stored(services):
    outcome = await run(ToolRegistry(services), "recall", {"query": "anything"})
    assert outcome.ok and outcome.output == "no memory matches 'anything'"
