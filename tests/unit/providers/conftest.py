"""The conformance suite: real services, the real openai client, provider streams replayed verbatim."""

from __future__ import annotations

import pytest

from agenttui.agent.retry import RetryPolicy

FAST_RETRIES = RetryPolicy(max_retries=1, base_delay=0.01, max_delay=0.05, max_retry_after=1.0)


@pytest.fixture
def services(services, fake_openai):
    services.settings.agent.request_timeout = 10.0
    return services


@pytest.fixture
def conversation(services):
    return services.history.create_conversation()
