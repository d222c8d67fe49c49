"""At start-up (and after a profile switch) the chat shows the profile's latest conversation.

The look-up runs in a thread: on a cold start it opens the history store. If
the user opens a conversation or sends a message meanwhile, its answer is
dropped rather than replacing what they started (or cancelling it); a message
sent meanwhile waits for it and goes into the latest conversation, as
``agenttui ask`` does. :class:`LatestConversation` is a hidden child widget of
the Chat pane that owns the worker; its answer is a message handled on the
pane's queue (so it never runs in the middle of one of the pane's handlers),
which hands it back to :meth:`LatestConversation.found`. The look-up's state
is the turn controller's (``turns.lookup``), which the turn also waits on.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from textual import work
from textual.message import Message as TextualMessage
from textual.widget import Widget

from agenttui.core.models import utcnow

if TYPE_CHECKING:
    from agenttui.agent.turn import TurnController
    from agenttui.bootstrap import Services
    from agenttui.ui.widgets.chat_log import ChatLog


class LookingChat(Protocol):
    services: Services
    conversation_id: str | None
    turns: TurnController

    @property
    def chat_log(self) -> ChatLog: ...

    def post_message(self, message: TextualMessage) -> bool: ...
    def update_welcome(self) -> None: ...
    async def open_conversation(self, conversation_id: str | None, message_id: int | None = None,
                                *, from_lookup: bool = False) -> None: ...


class LatestConversation(Widget):
    DEFAULT_CSS = "LatestConversation { display: none; }"

    class Found(TextualMessage, bubble=False):  # posted to the chat pane
        def __init__(self, conversation_id: str | None, opening: int, if_untouched: bool) -> None:
            super().__init__()
            self.conversation_id = conversation_id
            self.opening = opening  # which look-up found it
            self.if_untouched = if_untouched

    def __init__(self, chat: LookingChat, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._chat = chat

    def look_up(self, *, if_untouched: bool = False) -> None:
        """Show the profile's latest conversation once found (``if_untouched``, at start-up:
        not if anything is in the chat already, such as /help's text).

        The latest is the latest *now*: on a busy machine the thread may run after another
        agenttui process on the profile has started a conversation, and a message typed here
        meanwhile would join it (as a sibling branch of that process's own turns)."""
        self._find(self._chat.turns.lookup.begin(), if_untouched, utcnow())

    @work(thread=True, group="chat-open")
    def _find(self, opening: int, if_untouched: bool, asked: datetime) -> None:
        latest = self._chat.services.history.latest_conversation(created_before=asked)
        self._chat.post_message(self.Found(latest.id if latest else None, opening, if_untouched))

    async def found(self, event: Found) -> None:
        lookup = self._chat.turns.lookup
        try:
            await self._adopt(event)
        finally:
            if lookup.current(event.opening):
                lookup.answered(event.opening)
                self._chat.update_welcome()

    async def _adopt(self, event: Found) -> None:
        chat = self._chat
        if not chat.turns.lookup.current(event.opening):
            return
        if chat.turns.waiting or (event.if_untouched and (chat.conversation_id is not None or chat.chat_log.children)):
            # Something is shown already (a message waiting to be sent, /help's text):
            # keep it, continue the latest conversation, its last page above it.
            if chat.conversation_id is None and event.conversation_id is not None:
                chat.conversation_id = event.conversation_id
                await chat.chat_log.prepend_conversation(event.conversation_id)
            return
        await chat.open_conversation(event.conversation_id, from_lookup=True)
