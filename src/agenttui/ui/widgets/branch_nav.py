"""The branch navigator under a message that has siblings: ``‹ 2/3 ›``.

A line of its own, mounted right after its message in the chat log (the
message widgets stay as they are): which version of the message this is and
how many there are. ``←``/``→`` on the selected message switch versions
(:mod:`.message_cursor`); a click on ``‹`` or ``›`` does the same.
"""

from __future__ import annotations

from textual import events
from textual.message import Message as TextualMessage
from textual.widgets import Static


def nav_text(position: int, count: int) -> str:
    return f"‹ {position}/{count} ›"


class BranchNav(Static):
    DEFAULT_CSS = """
    BranchNav { height: 1; width: auto; padding: 0 1; color: $text-muted; }
    """

    class Step(TextualMessage):
        """Show the previous (-1) or next (+1) version of ``message_id``."""

        def __init__(self, message_id: int, step: int) -> None:
            super().__init__()
            self.message_id = message_id
            self.step = step

    def __init__(self, message_id: int, position: int, count: int) -> None:
        super().__init__(nav_text(position, count), markup=False)
        self.message_id = message_id
        self.position = position
        self.count = count

    def show(self, position: int, count: int) -> None:
        self.position, self.count = position, count
        self.update(nav_text(position, count))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        text = nav_text(self.position, self.count)
        column = event.x - 1  # padding
        if 0 <= column < len(text):
            self.post_message(self.Step(self.message_id, -1 if column < len(text) / 2 else 1))
