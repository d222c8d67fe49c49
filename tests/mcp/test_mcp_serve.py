"""``agenttui mcp serve`` driven by the SDK's own client over stdio."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def params(isolated_home, *extra: str):
    from mcp import StdioServerParameters

    env = {"AGENTTUI_HOME": str(isolated_home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
           "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])}
    return StdioServerParameters(command=sys.executable, args=["-m", "agenttui", "mcp", "serve", *extra],
                                 env=env)


@pytest.fixture
def seeded(paths):
    from agenttui.bootstrap import build_services
    from agenttui.core.models import Message

    services = build_services(paths)
    assert services.memory.add_note("I deploy with make deploy-staging", scope="profile").ok
    assert services.memory.set_fact("editor", "helix", source="explicit").ok
    chat = services.history.create_conversation("Database")
    services.history.append(chat.id, Message(role="user", content="We chose PostgreSQL 16 for the billing service"))
    services.close()
    return paths


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


@pytest.mark.slow
async def test_sdk_client_searches_lists_and_adds(seeded, isolated_home):
    from mcp_types import Implementation

    from agenttui.bootstrap import build_services
    from mcp import Client

    async with Client(params(isolated_home), client_info=Implementation(name="claude-code", version="9.9")) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == {"memory_search", "memory_list", "memory_add", "history_search"}
        assert tools["memory_search"].annotations.read_only_hint
        found = text_of(await client.call_tool("memory_search", {"query": "deploy staging"}))
        assert "make deploy-staging" in found
        listed = text_of(await client.call_tool("memory_list", {"scope": "user"}))
        assert "editor" in listed and "helix" in listed and "deploy-staging" not in listed
        hits = text_of(await client.call_tool("history_search", {"query": "which database for billing"}))
        assert "PostgreSQL 16" in hits
        added = await client.call_tool("memory_add", {"text": "The user reviews pull requests after lunch"})
        assert not added.is_error, text_of(added)
        # the gate still binds it: a secret is refused, an instruction too
        secret = text_of(await client.call_tool(
            "memory_add", {"text": "my api key is sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9kLm2nOp5qRs8t"}))
        assert "sk-proj-" not in secret
        bad = await client.call_tool("memory_list", {"scope": "everything"})
        assert bad.is_error
        assert "held for the user's review" in text_of(added)
        # held, not memory: another agent's search does not see it either
        found = text_of(await client.call_tool("memory_search", {"query": "pull requests"}))
        assert "after lunch" not in found
    services = build_services(seeded)
    try:
        assert not any("pull requests" in i.display for i in services.memory.items("all"))
        (held,) = services.memory.reviews()
        assert held.text == "The user reviews pull requests after lunch"
        assert held.source == "mcp" and held.origin.client == "claude-code 9.9" and held.scope == "profile"
        assert services.memory.accept_review(held.id).status == "added"
        assert services.memory.reviews() == []
        notes = {i.text: i for i in services.memory.items("all") if i.kind == "note"}
        note = notes["The user reviews pull requests after lunch"]
        assert note.source == "mcp" and note.origin.client == "claude-code 9.9" and note.scope == "profile"
        assert not any("sk-proj-" in t for t in notes)
    finally:
        services.close()


@pytest.mark.slow
async def test_a_held_note_reaches_no_request_until_accepted_and_a_rejected_one_never(
        seeded, isolated_home, fake_openai):
    from mcp_types import Implementation

    from agenttui.agent.loop import run_turn
    from agenttui.bootstrap import build_services
    from mcp import Client

    async with Client(params(isolated_home), client_info=Implementation(name="other-agent", version="1")) as client:
        for text in ("The user's cat is called Miso", "The user's dog is called Tofu"):
            assert not (await client.call_tool("memory_add", {"text": text})).is_error

    async def system_prompt(services) -> str:
        chat = services.history.create_conversation()
        async for _event in run_turn(services, chat.id, "what are my pets called?"):
            pass
        return fake_openai.last_system_prompt()

    services = build_services(seeded)
    try:
        assert "Miso" not in await system_prompt(services) and "Tofu" not in fake_openai.last_system_prompt()
        cat, dog = services.memory.reviews()
        services.memory.accept_review(cat.id)
        assert services.memory.reject_review(dog.id) is not None
        prompt = await system_prompt(services)
        assert "The user's cat is called Miso" in prompt and "Tofu" not in prompt
        assert services.memory.reviews() == []
    finally:
        services.close()


@pytest.mark.slow
async def test_trusted_clients_and_accept_store_at_once(seeded, isolated_home):
    from mcp_types import Implementation

    from agenttui.bootstrap import build_services
    from mcp import Client

    config = seeded.config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    with config.open("a", encoding="utf-8") as f:
        f.write('\n[mcp.serve]\ntrusted_clients = ["Claude-Code"]\n')
    for name, text in (("claude-code", "The user writes tests first"), ("stranger", "The user likes tabs")):
        async with Client(params(isolated_home), client_info=Implementation(name=name, version="2")) as client:
            assert not (await client.call_tool("memory_add", {"text": text})).is_error
    services = build_services(seeded)
    try:
        stored = {i.text for i in services.memory.items("all")}
        assert "The user writes tests first" in stored and "The user likes tabs" not in stored
        assert [i.text for i in services.memory.reviews()] == ["The user likes tabs"]
    finally:
        services.close()
    config.write_text(config.read_text(encoding="utf-8").replace(
        'trusted_clients = ["Claude-Code"]', 'memory_add = "accept"'), encoding="utf-8")
    async with Client(params(isolated_home), client_info=Implementation(name="stranger", version="2")) as client:
        assert not (await client.call_tool("memory_add", {"text": "The user prefers dark themes"})).is_error
    services = build_services(seeded)
    try:
        assert "The user prefers dark themes" in {i.text for i in services.memory.items("all")}
    finally:
        services.close()


@pytest.mark.slow
async def test_read_only_offers_only_reading_tools(seeded, isolated_home):
    from mcp import Client

    async with Client(params(isolated_home, "--read-only")) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert names == {"memory_search", "memory_list", "history_search"}
        refused = await client.call_tool("memory_add", {"text": "x"})
        assert refused.is_error
