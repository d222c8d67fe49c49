"""App-level messages (past tense; they bubble to the main screen).

The main screen routes them between panes, so panes never reach into each
other:

- ``MemoryChanged``        -> ``MemoryPane.reload()``
- ``ConversationsChanged`` -> ``HistoryPane.reload()``
- ``ConversationDeleted``  -> the chat leaves it if it is open there
- ``ConversationRequested``-> the chat opens that conversation (at a message)
- ``ProfileSwitched``      -> every pane reloads; the header updates
- ``MemoryOffered``        -> ``MemoryPane.offer()`` (Remember/Dismiss, or Undo)
"""

from __future__ import annotations

import asyncio

from textual.message import Message


class MemoryChanged(Message):
    """The memory store was written (by /remember, /forget, a tool, the memory pane)."""


class ConversationsChanged(Message):
    """A conversation was created, renamed, archived, deleted or got a new message."""

    def __init__(self, conversation_id: str | None = None) -> None:
        super().__init__()
        self.conversation_id = conversation_id


class ConversationDeleted(Message):
    """A conversation was deleted (``conversation_id``), or all of them (``None``: history cleared)."""

    def __init__(self, conversation_id: str | None) -> None:
        super().__init__()
        self.conversation_id = conversation_id


class ConversationRequested(Message):
    """Open a conversation in the chat (from the history pane or a search hit)."""

    def __init__(self, conversation_id: str, message_id: int | None = None) -> None:
        super().__init__()
        self.conversation_id = conversation_id
        self.message_id = message_id


class ProfileSwitched(Message):
    """``services.switch_profile`` ran; stores now point at the new profile. ``shown`` is set
    once the panes show it (what was typed during the switch is sent after that)."""

    def __init__(self, profile: str) -> None:
        super().__init__()
        self.profile = profile
        self.shown = asyncio.Event()


class MemoryOffered(Message):
    """A detected correction or model proposal to show as an offer.

    ``result`` is the gate's ``WriteResult``: pending -> Remember/Dismiss;
    already stored -> Undo.
    """

    def __init__(self, text: str, result) -> None:
        super().__init__()
        self.text = text
        self.result = result
