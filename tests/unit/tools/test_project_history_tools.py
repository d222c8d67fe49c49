"""Project memory tools and history search through the real stores."""

from __future__ import annotations

from agenttui.agent.tools.registry import ToolRegistry
from agenttui.core.models import Message
from tests.unit.tools.conftest import run


async def test_append_decision_and_learning_land_in_their_files(services):
    registry = ToolRegistry(services)
    outcome = await run(registry, "append_decision",
                        {"title": "Use SQLite", "body": "One file, WAL, FTS5."})
    assert outcome.ok and "Use SQLite" in outcome.output
    assert any("Use SQLite" in d for d in services.project.decisions())
    await run(registry, "append_learning", {"title": "Locks", "body": "Re-read inside the lock."})
    outcome = await run(registry, "read_learnings")
    assert outcome.ok and "Re-read inside the lock." in outcome.output


async def test_read_learnings_when_empty(services):
    outcome = await run(ToolRegistry(services), "read_learnings")
    assert outcome.ok and outcome.output == "learnings.md is empty"


async def test_update_context_rewrites_context_md(services):
    services.project.write_context("old state")
    outcome = await run(ToolRegistry(services), "update_context", {"text": "Focus: v2 release."})
    assert outcome.ok
    assert services.project.context().strip() == "Focus: v2 release."
    assert "Focus: v2 release." in services.project.prompt_section()


async def test_read_learnings_keeps_the_newest_entries_when_long(services):
    services.settings.agent.max_tool_output = 500
    for k in range(40):
        services.project.append_learning(f"lesson {k}", "x" * 40)
    outcome = await run(ToolRegistry(services), "read_learnings")
    assert "lesson 39" in outcome.output and "lesson 0:" not in outcome.output
    assert outcome.output.startswith("[… older entries omitted]")


async def test_project_writes_are_redacted(services):
    secret = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAB7CD0EF"
    await run(ToolRegistry(services), "append_decision", {"title": "Key", "body": f"use {secret}"})
    assert secret not in services.project.files()["decisions"].read_text()


async def test_search_history_finds_messages(services):
    conversation = services.history.create_conversation("Cats")
    services.history.append(conversation.id, Message(role="user", content="my cat Miso likes tuna"))
    services.history.append(conversation.id, Message(role="assistant", content="tuna is fine"))
    registry = ToolRegistry(services, conversation_id=conversation.id)
    outcome = await run(registry, "search_history", {"query": "Miso"})
    assert outcome.ok
    assert "Cats" in outcome.output and "user" in outcome.output and "Miso" in outcome.output
    outcome = await run(registry, "search_history", {"query": "giraffe"})
    assert outcome.output == "nothing remembered matches 'giraffe'"


async def test_search_history_can_stay_in_this_conversation(services):
    one = services.history.create_conversation("one")
    two = services.history.create_conversation("two")
    services.history.append(one.id, Message(role="user", content="banana bread recipe"))
    services.history.append(two.id, Message(role="user", content="banana smoothie"))
    registry = ToolRegistry(services, conversation_id=two.id)
    everywhere = await run(registry, "search_history", {"query": "banana"})
    assert "bread" in everywhere.output and "smoothie" in everywhere.output
    here = await run(registry, "search_history",
                     {"query": "banana", "this_conversation_only": True})
    assert "smoothie" in here.output and "bread" not in here.output
