"""What a slash command may use of the chat: a small typed protocol the Chat pane satisfies.

The handlers are plain functions ``(ctx, argument)``; they never see the pane's
other parts, and the pane does not import them one by one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from agenttui.ui.widgets.chat_part import ChatPart

if TYPE_CHECKING:
    from textual.message import Message

    from agenttui.agent.turn import TurnController
    from agenttui.bootstrap import Services
    from agenttui.ui.widgets.context_meter import ContextMeter
    from agenttui.ui.widgets.conversation_model import ConversationModel


class MissingArgument(Exception):  # noqa: N818 -- a signal to dispatch, not an error shown as such
    """Raised by a handler whose argument turned out empty: dispatch shows the usage."""


class SlashContext(ChatPart, Protocol):
    services: Services  # the incognito twin while incognito
    conversation_id: str | None
    turns: TurnController  # /attach sets the next message's image
    conversation_model: ConversationModel  # /model

    @property
    def incognito(self) -> bool: ...
    @property
    def meter(self) -> ContextMeter: ...

    def post_message(self, message: Message) -> bool: ...
    def run_worker(self, work: Any, *, name: str | None = "", group: str = "default", exclusive: bool = False,
                   exit_on_error: bool = True) -> object: ...

    async def send(self, text: str, *, show: bool = True, then_archive: bool = False) -> None: ...
    async def new_conversation(self, archive_current: bool = False) -> None: ...
    async def toggle_incognito(self) -> None: ...
    def edit_draft(self, text: str | None = None) -> None: ...
