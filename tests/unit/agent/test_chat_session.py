"""The chat's shown state changes in one place and says so (agent/chat_session.py)."""

from __future__ import annotations

from agenttui.agent.chat_session import ChatSession
from agenttui.agent.turn import Phase


def test_changes_are_told_once_and_only_when_the_value_changes() -> None:
    told: list[tuple[str, bool]] = []
    session = ChatSession(lambda name, value: told.append((name, value)))
    session.turn_started()
    session.turn_started()
    session.set_incognito(True)
    session.turn_over()
    assert told == [("streaming", True), ("incognito", True), ("streaming", False)]
    assert not session.streaming and session.incognito and not session.can_retry


def test_retry_follows_the_kept_message_and_goes_with_the_conversation() -> None:
    session = ChatSession()
    turn = session.turns.start("hello", conversation_known=True)
    session.turn_cut()  # still running: nothing kept yet
    assert not session.can_retry
    turn.phase, turn.retryable = Phase.ENDED, True  # failed, its message kept
    session.turn_cut()
    assert session.can_retry
    session.conversation_left()
    assert not session.can_retry and session.turns.kept is None
