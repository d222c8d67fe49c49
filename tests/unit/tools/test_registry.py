"""The registry: schemas per profile, argument validation, never an exception."""

from __future__ import annotations

import pytest

from agenttui.agent.tools.registry import ToolRegistry, all_tools
from agenttui.core.config.settings import DEFAULT_TOOLS, Settings
from tests.unit.tools.conftest import call, run


def test_every_default_tool_exists_with_a_strict_object_schema():
    tools = all_tools(Settings())
    assert set(DEFAULT_TOOLS) <= set(tools)
    for name, spec in tools.items():
        schema = spec.schema()
        assert schema["type"] == "function"
        assert schema["function"]["name"] == name
        assert schema["function"]["description"]
        params = schema["function"]["parameters"]
        assert params["type"] == "object"
        assert params["additionalProperties"] is False
        for required in params.get("required", []):
            assert required in params["properties"]


def test_schemas_follow_the_enabled_tools_in_order(services):
    services.settings.agent.tools = ["recall", "run_shell", "no_such_tool", "recall"]
    registry = ToolRegistry(services)
    assert [s["function"]["name"] for s in registry.schemas()] == ["recall", "run_shell"]
    assert registry.unknown == ["no_such_tool"]


def test_profile_override_enables_tools_per_profile(paths, tmp_path):
    from agenttui.bootstrap import build_services
    from agenttui.core.config.profiles import ProfileStore

    store = ProfileStore(paths)
    profile = store.create("readonly")
    profile.tools = ["recall", "search_history"]
    store.save(profile)
    built = build_services(profile="readonly", cwd=tmp_path)
    try:
        names = [s["function"]["name"] for s in ToolRegistry(built).schemas()]
        assert names == ["recall", "search_history"]
    finally:
        built.close()


def test_remember_scope_enum_follows_model_scopes(services):
    services.settings.memory.model_scopes = ["user"]
    schema = next(s for s in ToolRegistry(services).schemas()
                  if s["function"]["name"] == "remember")
    assert schema["function"]["parameters"]["properties"]["scope"]["enum"] == ["user"]


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("recall", "{not json", "not valid JSON"),
        ("recall", "[1, 2]", "must be a JSON object"),
        ("search_history", {}, "missing required argument 'query'"),
        ("search_history", {"query": 5}, "'query' must be a string, not an integer"),
        ("search_history", {"query": "x", "limit": True}, "'limit' must be an integer, not a boolean"),
        ("search_history", {"query": "x", "limit": 500}, "'limit' must be at most 20"),
        ("recall", {"scope": "galaxy"}, "'scope' must be one of"),
        ("recall", {"bogus": 1}, "unknown argument 'bogus'"),
        ("search_history", {"query": ""}, "'query' must not be empty"),
        ("remember", {"text": "a", "key": "k", "value": "v"}, "not both"),
        ("remember", {"key": "language"}, "give 'text'"),
        ("forget", {}, "give 'id' or 'query'"),
        ("definitely_not_a_tool", {}, "unknown or disabled tool"),
    ],
)
async def test_invalid_calls_fail_cleanly(services, name, arguments, message):
    outcome = await run(ToolRegistry(services), name, arguments)
    assert outcome.ok is False
    assert message in outcome.output
    assert outcome.output.startswith("error: ")


async def test_disabled_tool_is_not_executed(services):
    services.settings.agent.tools = ["recall"]
    outcome = await run(ToolRegistry(services), "run_shell", {"command": "touch /tmp/x"})
    assert not outcome.ok and "unknown or disabled tool 'run_shell'" in outcome.output


async def test_integral_floats_are_accepted_as_integers(services):
    outcome = await run(ToolRegistry(services), "recall", {"limit": 3.0})
    assert outcome.ok


def test_invalid_calls_need_no_approval(services):
    registry = ToolRegistry(services)
    needed, _summary, risk = registry.needs_approval(call("run_shell", {"command": 7}))
    assert (needed, risk) == (False, "low")


def test_ordinary_tools_need_no_approval(services):
    needed, summary, risk = ToolRegistry(services).needs_approval(call("recall", {"query": "tea"}))
    assert (needed, risk) == (False, "low")
    assert "recall" in summary and "tea" in summary
