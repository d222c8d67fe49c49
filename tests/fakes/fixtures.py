"""Pytest fixtures for the fake OpenAI server (imported by tests/conftest.py)."""

from __future__ import annotations

import pytest

from tests.fakes.openai_server import FakeOpenAI


@pytest.fixture
def fake_openai(monkeypatch):
    """A running :class:`FakeOpenAI`; OPENAI_BASE_URL / OPENAI_API_KEY point at it."""
    with FakeOpenAI() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-fake")
        yield server
