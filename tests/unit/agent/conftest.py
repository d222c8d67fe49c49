"""Shared helpers for the agent-loop tests: real services against the fake server."""

from __future__ import annotations

import pytest

from agenttui.agent.events import ApprovalRequested, TurnFailed, TurnFinished
from agenttui.agent.retry import RetryPolicy

# Fast backoff so retry tests do not sleep; Retry-After is still honoured.
FAST_RETRIES = RetryPolicy(max_retries=3, base_delay=0.01, max_delay=0.05, max_retry_after=5.0)


@pytest.fixture
def services(services, fake_openai):
    """The shared real services (tests/unit/conftest.py), talking to the fake
    server with a short timeout so fault tests end quickly."""
    services.settings.agent.request_timeout = 5.0
    return services


@pytest.fixture
def conversation(services):
    return services.history.create_conversation()


async def collect(events, approve: bool | None = None) -> list:
    """Drain a turn; answer approval requests with ``approve`` when given."""
    out = []
    async for event in events:
        out.append(event)
        if isinstance(event, ApprovalRequested) and approve is not None:
            event.future.set_result(approve)
    return out


def final(events: list):
    last = events[-1]
    assert isinstance(last, TurnFinished | TurnFailed), last
    return last


def of_type(events: list, kind) -> list:
    return [e for e in events if isinstance(e, kind)]
