"""The "used: 3 notes · 4 past messages (12 Mar – 2 Apr)" line under a reply.

One row, always: the widget picks the longest form of the line that fits its
width (:func:`agenttui.core.recall.usage.used_line`), so it reads in full in
a wide chat and shortens ("used 3 notes · 4 msgs (12 Mar–2 Apr)") in a
40-column one. Clicking it, or Enter/Space while it has focus (Tab or
Shift+Tab reaches it), posts :class:`UsedLine.Selected`; the chat pane opens
the prompt inspector at what was used.

Shown for replies of this session only: the usage is kept in memory (the
chat log's ``used`` map), never written to history.
"""

from __future__ import annotations

from datetime import date

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from agenttui.core.recall.usage import RecallUsage, UsageCounts, count_usage, used_line

TOOLTIP = "What this reply used from memory and past conversations.\nClick (or Enter) to inspect, edit or forget."


class UsedLine(Widget, can_focus=True):
    DEFAULT_CSS = """
    UsedLine { height: 1; width: 1fr; padding: 0 1; color: $text-muted; }
    UsedLine:hover { color: $text; text-style: underline; }
    UsedLine:focus { color: $text; background: $boost; text-style: underline; }
    """
    BINDINGS = [Binding("enter,space", "select", "What was used", show=False, id="reply.used")]

    class Selected(Message):
        """The user asked to inspect what ``usage`` was."""

        def __init__(self, line: UsedLine, usage: RecallUsage) -> None:
            super().__init__()
            self.line = line
            self.usage = usage

    def __init__(self, usage: RecallUsage, **kwargs) -> None:
        super().__init__(**kwargs)
        self.usage = usage
        self.counts: UsageCounts = count_usage(usage)
        self.tooltip = TOOLTIP

    @property
    def text(self) -> str:
        """The line's longest form (for tests and the inspector's title)."""
        return used_line(self.counts)

    def render(self) -> Content:
        return Content(used_line(self.counts, self.content_size.width or None, date.today()))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.action_select()

    def action_select(self) -> None:
        self.post_message(self.Selected(self, self.usage))
