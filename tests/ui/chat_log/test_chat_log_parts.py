"""The chat log is a scroll view that owns its message cursor (a part it passes keys to),
not a subclass of a cursor base class: no mixins in the UI."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widget import Widget

from agenttui.ui.widgets.chat_log import ChatLog
from agenttui.ui.widgets.message_cursor import CURSOR_BINDINGS, MessageCursor


def test_the_chat_log_inherits_the_scroll_view_and_owns_its_cursor() -> None:
    assert ChatLog.__bases__ == (VerticalScroll,)
    assert not issubclass(MessageCursor, Widget)
    assert "ChatLog:focus > .-selected" in ChatLog.DEFAULT_CSS  # the selection still shows
    keys = {binding.key for binding in ChatLog.BINDINGS if not isinstance(binding, tuple)}
    assert {binding.key for binding in CURSOR_BINDINGS if not isinstance(binding, tuple)} <= keys
