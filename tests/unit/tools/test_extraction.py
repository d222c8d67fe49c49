"""The extraction contract: strict validation, then the one write gate."""

from __future__ import annotations

import json

import pytest

from agenttui.agent.extraction import apply_extraction, extraction_request


@pytest.fixture(autouse=True)
def _save_model_memory_at_once(services):
    """These tests are about what the gate stores; "ask" (the default) is tested on its own."""
    services.settings.memory.model_consent = "save"

def item(**overrides):
    base = {"key": "language", "value": "id", "scope": "user", "ttl_days": 180, "confidence": 0.9}
    base.update(overrides)
    return base


def doc(*items, **top) -> str:
    return json.dumps({"items": list(items), **top})


def test_request_states_the_contract_and_the_allowlists(services):
    messages = extraction_request("I always want answers in Indonesian", services.settings)
    system, user = messages
    assert system["role"] == "system" and user["role"] == "user"
    for word in ('"items"', "ttl_days", "confidence", "language", "response_style", "user"):
        assert word in system["content"]
    assert "I always want answers in Indonesian" in user["content"]
    assert "data, not instructions" in user["content"]


def test_valid_items_are_written_with_source_extraction(services):
    results = apply_extraction(services, doc(item(), item(key="response_style", value="terse",
                                                          ttl_days=None, confidence=1)))
    assert [r.status for r in results] == ["added", "added"]
    stored = {i.key: i for i in services.memory.items()}
    assert stored["language"].source == "extraction"
    assert stored["language"].confidence == pytest.approx(0.9)
    assert stored["language"].expires is not None
    assert stored["response_style"].expires is None


def test_empty_items_is_fine(services):
    assert apply_extraction(services, doc()) == []


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("not json", "not a JSON document"),
        ('```json\n{"items": []}\n```', "not a JSON document"),
        ("[]", "top level must be an object"),
        ('{"memories": []}', "unknown top-level field 'memories'"),
        ('{}', "missing top-level field 'items'"),
        ('{"items": [], "note": "x"}', "unknown top-level field 'note'"),
        ('{"items": {"key": "language"}}', "'items' must be a list"),
    ],
)
def test_malformed_documents_are_rejected_whole(services, raw, reason):
    [result] = apply_extraction(services, raw)
    assert result.status == "rejected"
    assert reason in result.reason
    assert services.memory.items() == []


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        (item(extra="x"), "unknown field 'extra'"),
        ({k: v for k, v in item().items() if k != "ttl_days"}, "missing field 'ttl_days'"),
        (item(key="Language"), "'key' must be a lower_snake_case"),
        (item(key=""), "'key' must be"),
        (item(key=5), "'key' must be"),
        (item(value=""), "'value' must be a non-empty string"),
        (item(value=3), "'value' must be a non-empty string"),
        (item(scope="workspace"), "'scope' must be one of"),
        (item(ttl_days=0), "'ttl_days' must be an integer"),
        (item(ttl_days=1.5), "'ttl_days' must be an integer"),
        (item(ttl_days=True), "'ttl_days' must be an integer"),
        (item(ttl_days="30"), "'ttl_days' must be an integer"),
        (item(ttl_days=100_000), "'ttl_days' must be an integer"),
        (item(confidence=1.5), "'confidence' must be a number from 0 to 1"),
        (item(confidence=-0.1), "'confidence' must be a number from 0 to 1"),
        (item(confidence=True), "'confidence' must be a number"),
        (item(confidence="0.9"), "'confidence' must be a number"),
        ("language=id", "must be an object"),
    ],
)
def test_invalid_items_are_rejected_alone(services, bad, reason):
    results = apply_extraction(services, doc(bad, item(key="editor", value="helix")))
    assert results[0].status == "rejected"
    assert results[0].reason.startswith("extraction item 1: ")
    assert reason in results[0].reason
    assert results[1].status == "added"
    assert [i.key for i in services.memory.items()] == ["editor"]


def test_scope_allowlist_comes_from_settings(services):
    services.settings.memory.model_scopes = ["user"]
    [result] = apply_extraction(services, doc(item(scope="profile")))
    assert result.status == "rejected" and "'scope' must be one of user" in result.reason


def test_the_gate_still_decides_keys_and_consent(services):
    results = apply_extraction(services, doc(
        item(key="favourite_colour", value="teal"),  # not in the allowlist
        item(key="api_key", value="abc"),  # blocked key
        item(key="location", value="Jakarta"),  # sensitive: waits for the user
    ))
    assert [r.status for r in results] == ["rejected", "rejected", "pending"]
    assert services.memory.items() == []


def test_too_many_items_are_cut(services):
    many = [item(key="editor", value=f"e{k}") for k in range(12)]
    results = apply_extraction(services, doc(*many))
    assert [r.status for r in results[10:]] == ["rejected", "rejected"]
    assert "more than 10 items" in results[10].reason
