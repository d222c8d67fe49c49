"""Building blocks of the recall ranking tests: a history of dated turns, a question, what was quoted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from agenttui.core.models import Message
from agenttui.core.recall.retrieval import RecallRequest, RecallResult, recall

NOW = datetime(2026, 11, 23, 12, tzinfo=UTC)


def conversation(history, turns, *, days_ago: float) -> None:
    """One conversation of (role, text) turns, a minute apart, starting ``days_ago`` before NOW."""
    cid = history.create_conversation().id
    start = NOW - timedelta(days=days_ago)
    history.append_many(cid, [Message(role=role, content=text, created=start + timedelta(minutes=k))
                              for k, (role, text) in enumerate(turns)])


def ask(services, question: str, budget: int) -> RecallResult:
    request = RecallRequest(query=question, sources=("message",), limit=0, token_budget=budget, now=NOW)
    return recall(request, history=services.history)


def quoted(result: RecallResult) -> list[str]:
    return [turn.text for s in result.snippets for turn in s.turns]
