"""What every part of the chat (branch actions, incognito, the turn's end, slash commands)
reads of the Chat pane: the protocol the narrower ones extend, so each part names only what
it adds and the pane's shared surface is stated once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel

    from agenttui.ui.widgets.chat_log import ChatLog


class ChatPart(Protocol):
    @property
    def app(self) -> App[Any]: ...
    @property
    def chat_log(self) -> ChatLog: ...
    @property
    def streaming(self) -> bool: ...

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None: ...
