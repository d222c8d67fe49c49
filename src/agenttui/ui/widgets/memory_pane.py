"""PLACEHOLDER Memory pane (U3) -- replaced by the memory-pane builder.

Contract the main screen relies on: ``MemoryPane(services, id=...)`` is a
container with ``border_title = "Memory"`` and a ``reload()`` method it calls
after a ``messages.MemoryChanged`` or ``ProfileSwitched``.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static


class MemoryPane(Vertical):
    def __init__(self, services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self.border_title = "Memory"

    def compose(self) -> ComposeResult:
        yield Static("(memory pane)")

    def reload(self) -> None:
        pass
