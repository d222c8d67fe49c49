"""The context lines in the chat log: "older turns not sent" and a stored /compact summary.

The meter that places them and runs /compact is :mod:`.context_meter`.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static


class NotSentMarker(Static):
    """``older turns not sent: N`` above the oldest message the last prompt held."""

    DEFAULT_CSS = "NotSentMarker { margin: 1 0 0 0; padding: 0 1; color: $text-warning; " \
                  "border-top: dashed $warning; }"

    def __init__(self, text: str) -> None:
        super().__init__(Content(text))


class SummaryView(Static):
    """A stored /compact summary in the log (sent instead of the messages before it)."""

    DEFAULT_CSS = "SummaryView { margin: 1 0 0 0; padding: 0 1; background: $surface; " \
                  "border-left: outer $accent; }"

    def __init__(self, text: str, message_id: int | None = None) -> None:
        from agenttui.core.visible_text import inert_text

        head = "Summary (/compact) — sent instead of the older messages above; they stay in History"
        super().__init__(Content.assemble((head, "bold"), "\n", inert_text(text)))
        self.message_id = message_id
