"""Messages the history refused (full disk, locked) stay visible as unsaved, and are
retried every ``UNSAVED_RETRY_S`` until they are saved.

:class:`UnsavedRetry` is a hidden child widget of the Chat pane (it owns the
timer and the thread worker); the count is shown in the pane's border.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from textual import work
from textual.timer import Timer
from textual.widget import Widget

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

UNSAVED_RETRY_S = 15.0  # how often messages the history refused are tried again


class UnsavedChat(Protocol):
    services: Services
    border_subtitle: Any

    @property
    def streaming(self) -> bool: ...


class UnsavedRetry(Widget):
    DEFAULT_CSS = "UnsavedRetry { display: none; }"

    def __init__(self, chat: UnsavedChat, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._chat = chat
        self._timer: Timer | None = None

    def show(self) -> None:
        from agenttui.agent.loop import pending_count

        count = pending_count(self._chat.services)
        self._chat.border_subtitle = f"⚠ {count} message(s) not saved to history yet, retrying" if count else ""
        if count and self._timer is None:
            self._timer = self.set_interval(UNSAVED_RETRY_S, self.retry)
        elif not count and self._timer is not None:
            self._timer.stop()
            self._timer = None

    @work(thread=True, group="chat-unsaved", exclusive=True, exit_on_error=False)
    def retry(self) -> None:
        from agenttui.agent.loop import flush_pending

        if not self._chat.streaming:  # a turn flushes by itself first
            flush_pending(self._chat.services)
        self.app.call_from_thread(self.show)
