"""PLACEHOLDER History pane (U4) -- replaced by the history-pane builder.

Contract the main screen relies on: ``HistoryPane(services, id=...)`` is a
container with ``border_title = "History"`` and a ``reload()`` method it calls
after a ``messages.ConversationsChanged`` or ``ProfileSwitched``; to open a
conversation it posts ``messages.ConversationRequested(cid, message_id)``.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static


class HistoryPane(Vertical):
    def __init__(self, services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self.border_title = "History"

    def compose(self) -> ComposeResult:
        yield Static("(history pane)")

    def reload(self) -> None:
        pass
