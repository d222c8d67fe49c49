"""Small Pilot helpers shared by the UI tests."""

from __future__ import annotations

import time
from collections.abc import Callable


async def wait_until(pilot, predicate: Callable[[], object], timeout: float = 30.0) -> None:
    """Let the app run until ``predicate()`` is true (fails the test on timeout).

    The timeout is generous on purpose: CI machines are shared, and a Pilot step
    under load can take seconds; a passing test never waits for it.
    """
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        await pilot.pause(0.02)


def chat(app):
    from agenttui.ui.widgets.chat_pane import ChatPane

    return app.screen.query_one(ChatPane)


def replies(app) -> list[str]:
    from agenttui.ui.widgets.message_view import AssistantMessage

    return [view.text for view in app.screen.query(AssistantMessage)]


def notifications(app) -> list[tuple[str, str, str]]:
    """(severity, title, message) of the toasts raised so far."""
    return list(app.notices)


async def send(pilot, text: str) -> None:
    prompt = chat(pilot.app).prompt
    prompt.focus()
    prompt.load_text(text)
    await pilot.press("enter")
