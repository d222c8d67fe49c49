"""A minimal host App for the data-side widgets and screens.

The panes and screens take ``services`` and nothing else, so they can be
mounted in this tiny app with real services (isolated AGENTTUI_HOME) and
driven by Pilot without the full main screen. Messages they post up are
recorded in ``app.posted`` so tests can assert on them.
"""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import App, ComposeResult
from textual.message import Message

from agenttui.bootstrap import build_services
from tests.ui.helpers import foreground_complete


def services_for(tmp_path: Path, profile: str | None = None):
    project = tmp_path / "cwd"
    project.mkdir(exist_ok=True)
    return build_services(profile=profile, cwd=project)


class Harness(App):
    """Composes ``factory(services)`` (or nothing) and records bubbled messages."""

    def __init__(self, services, factory=None) -> None:
        super().__init__()
        self.services = services
        self.factory = factory
        self.posted: list[Message] = []

    def compose(self) -> ComposeResult:
        if self.factory is not None:
            yield self.factory(self.services)

    @on(Message)
    def _record(self, message: Message) -> None:  # everything that bubbles up to the app
        self.posted.append(message)

    def posted_of(self, kind: type) -> list:
        return [m for m in self.posted if isinstance(m, kind)]


async def settle(pilot, app) -> None:
    """Let workers finish and their messages be handled."""
    for _ in range(3):
        await foreground_complete(app)
        await pilot.pause()
