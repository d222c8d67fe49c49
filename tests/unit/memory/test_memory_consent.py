"""Consent for model-written memory: "ask" by default, and a
proposal made after an untrusted read waits whatever the setting says."""

from __future__ import annotations

import json

import pytest

from agenttui.agent.extraction import apply_extraction
from agenttui.core.config.settings import MemorySettings
from agenttui.core.memory.gate import check_write


def note(source: str, settings: MemorySettings, **kw):
    return check_write("note", "user", source, settings=settings, text="User likes green tea", **kw)


def test_model_memory_waits_by_default():
    assert MemorySettings().model_consent == "ask"
    for source in ("model", "extraction"):
        decision = note(source, MemorySettings())
        assert decision.action == "pending" and "needs your yes" in decision.reason


@pytest.mark.parametrize("consent", ["save", "ask"])
def test_untrusted_proposals_wait_whatever_the_setting(consent):
    decision = note("model", MemorySettings(model_consent=consent), untrusted=True)
    assert decision.action == "pending"
    assert "untrusted" in decision.reason if consent == "save" else True


def test_save_setting_saves_a_trusted_proposal_and_the_users_yes_stores_an_untrusted_one():
    save = MemorySettings(model_consent="save")
    assert note("model", save).action == "add"
    assert note("model", save, untrusted=True, confirmed=True).action == "add"


def test_user_sources_are_never_held():
    for source in ("explicit", "manual", "correction", "import"):
        assert note(source, MemorySettings(), untrusted=True).action == "add"


def test_extraction_after_an_untrusted_read_waits(services):
    services.settings.memory.model_consent = "save"
    raw = json.dumps({"items": [{"key": "editor", "value": "ed", "scope": "user", "ttl_days": None,
                                 "confidence": 0.9}]})
    assert [r.status for r in apply_extraction(services, raw, untrusted=True)] == ["pending"]
    assert [r.status for r in apply_extraction(services, raw)] == ["added"]
