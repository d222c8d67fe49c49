"""Shared steps of the conformance tests."""

from __future__ import annotations

from agenttui.agent.events import TurnFailed, TurnFinished
from agenttui.agent.loop import run_turn
from agenttui.core.context.assemble import INTERRUPTED_MARK

from .conftest import FAST_RETRIES

__all__ = ["INTERRUPTED_MARK", "assistant_rows", "of_type", "turn"]


async def turn(services, conversation, text: str) -> list:
    events = [e async for e in run_turn(services, conversation.id, text, retry_policy=FAST_RETRIES)]
    assert isinstance(events[-1], TurnFinished | TurnFailed), events[-1]
    return events


def of_type(events: list, kind) -> list:
    return [e for e in events if isinstance(e, kind)]


def assistant_rows(services, conversation) -> list:
    return [m for m in services.history.messages(conversation.id) if m.role == "assistant"]


async def follow_up_succeeds(services, conversation, fake_openai, checks=None) -> list[dict]:
    """A later turn works: the provider's own request checks pass and it answers normally."""
    from . import formats

    fake_openai.validator = checks or formats.openai_checks
    fake_openai.raw(formats.openai_text(["All", " good", " now."]))
    events = await turn(services, conversation, "shall we go on?")
    done = events[-1]
    assert isinstance(done, TurnFinished) and done.stop_reason == "success", done
    assert done.reply.content == "All good now."
    return fake_openai.last_messages()
