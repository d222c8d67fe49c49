"""A reasoning model's thinking, shown live but out of the way.

A collapsed, dim block above the reply: its title counts the words while the
model thinks ("thinking… 120 words"), so a reasoning model never looks stalled;
Enter or a click expands it. The text is the model's, so it passes
:mod:`agenttui.ui.inert` and is shown as literal text, never Markdown or markup.
Updates are batched like the reply's (``STREAM_INTERVAL``): a title and a
Static per delta would spend the CPU on frames nobody reads.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Collapsible, Static

from agenttui.ui.inert import inert
from agenttui.ui.one_shot import OneShot, set_timer
from agenttui.ui.widgets.message_view import STREAM_INTERVAL


class ThinkingBlock(Collapsible):
    DEFAULT_CSS = """
    ThinkingBlock { margin: 1 0 0 0; padding: 0; border-top: none; background: transparent; color: $text-muted; }
    ThinkingBlock CollapsibleTitle { color: $text-muted; text-style: italic; padding: 0 1; }
    ThinkingBlock Static.thinking-text { color: $text-muted; padding: 0 1; }
    """

    def __init__(self, text: str = "", *, done: bool = False) -> None:
        self.text = text
        self.done = done
        self._timer: OneShot | None = None
        super().__init__(Static(Content(inert(text)), classes="thinking-text"),
                         title=self._heading(), collapsed=True)

    def _heading(self) -> str:
        words = len(self.text.split())
        count = f" ({words} word{'' if words == 1 else 's'})" if words else ""
        return f"thought{count}" if self.done else f"thinking…{count}"

    @property
    def body(self) -> Static:
        return self.query_one(".thinking-text", Static)

    def write(self, delta: str) -> None:
        """Append streamed thinking; shown at most every ``STREAM_INTERVAL``."""
        self.text += delta
        if self._timer is None:
            self._timer = set_timer(self, STREAM_INTERVAL, self._show)

    def _show(self) -> None:
        self._timer = None
        self.title = self._heading()
        if self.is_mounted:
            self.body.update(Content(inert(self.text)))

    def finish(self) -> None:
        """The model moved on (text, a tool call, the end of the turn)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.done = True
        self._show()
