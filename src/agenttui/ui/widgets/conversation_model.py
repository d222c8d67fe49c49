"""This conversation's own model: ``/model NAME`` and the picker of ``/model``.

A part of the Chat pane. The model chosen is used for this conversation's turns only
(``run_turn(model=…)``, as ``ask --model``): each reply stores the model that answered
with its usage, and the conversation records it (``HistoryStore.set_model``; a
conversation not started yet gets it when it is created).

The choice sticks to the conversation: opened again (History, a branch, the latest
one at start-up, after a restart) it continues with the model it records, which is
the model its last turn used -- the one ``/model`` chose, else the default of the day
(as ``llm -c`` continues with the conversation's model). A new conversation uses the
default model (``settings.model``, F9) and is created recording it. A conversation
on the default (new, or its record equal to the default when opened) follows the
default while open: a turn sent after F9 changed it uses the new one and brings the
record up to date. The header shows the model in use either way
(``AppParts.chat_model``); ``/model`` changes it.

``agenttui ask`` continuing a conversation does the same: ``--model`` or ``AGENTTUI_MODEL``
(recorded), else the conversation's record (``cli/ask_conversation.turn_model``); a new
one: the default.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol

from agenttui.ui.host import app_parts
from agenttui.ui.inert import inert_line
from agenttui.ui.widgets.chat_part import ChatPart

if TYPE_CHECKING:
    from agenttui.bootstrap import Services
    from agenttui.core.models import Conversation

NAME_LIMIT = 200  # characters: model ids are short; a paste by mistake is refused


class ModelledChat(ChatPart, Protocol):
    services: Services  # the incognito twin while incognito
    conversation_id: str | None


class ConversationModel:
    def __init__(self, chat: ModelledChat) -> None:
        self._chat = chat
        self.name: str | None = None  # None: the default model
        self._recorded: str | None = None  # what the open conversation's record says
        self._of: str | None = None  # the conversation the two above belong to (None: a new one)

    @property
    def in_use(self) -> str:
        return self.name or self._chat.services.model

    def reset(self) -> None:
        """A new conversation: the default model."""
        self._recorded = self._of = None
        if self.name is not None:
            self.name = None
            self._show()

    async def load(self, conversation_id: str | None) -> None:
        """The conversation just opened continues with the model it records (read in a thread)."""
        if conversation_id is None:
            self.reset()
            return
        conversation = await asyncio.to_thread(self._chat.services.history.get_conversation, conversation_id)
        if self._chat.conversation_id == conversation_id:  # not left for another meanwhile
            self.adopt(conversation)

    def adopt(self, conversation: Conversation | None) -> None:
        """Take the model ``conversation`` records (None, or no record: the default)."""
        if conversation is None:
            self.reset()
            return
        recorded = conversation.model
        self._recorded, self._of = recorded, conversation.id
        name = recorded if recorded and recorded != self._chat.services.model else None
        if name != self.name:
            self.name = name
            self._show()

    def knows(self, conversation_id: str) -> bool:
        """Whether the model of ``conversation_id`` is the one loaded (a turn may start before)."""
        return self._of == conversation_id

    async def record_use(self, conversation_id: str) -> None:
        """Before a turn: the record says the model it uses (the default may have changed)."""
        if not self.knows(conversation_id) or self._recorded == self.in_use:
            return
        from agenttui.core.errors import explain
        from agenttui.core.history.store import UnknownConversationError
        from agenttui.core.incognito import IncognitoRefused

        model = self.in_use
        try:
            await asyncio.to_thread(self._chat.services.history.set_model, conversation_id, model)
        except (UnknownConversationError, IncognitoRefused):
            return  # deleted meanwhile (the turn finds out and says so); incognito keeps nothing
        except Exception as exc:
            if explain(exc) is None:
                raise  # a bug
            return  # a busy or full store: the turn's own writes say it
        self._recorded = model

    async def choose(self, name: str | None) -> None:
        """Use ``name`` for this conversation (None: the picker was cancelled)."""
        name = (name or "").strip()
        if not name:
            return
        if len(name) > NAME_LIMIT or any(c.isspace() or not c.isprintable() for c in name):
            self._chat.notify(f"{inert_line(name, 60)!r} is not a model name.", title="/model",
                              severity="error")
            return
        cid = self._chat.conversation_id
        if cid is not None and not await self._record(cid, name):
            return
        if cid is not None:
            self._recorded, self._of = name, cid
        self.name = name  # a conversation not created yet is created with it (the turn worker)
        self._show()
        default = self._chat.services.model
        also = "" if name == default else f" (new conversations use {inert_line(default, 80)})"
        await self._chat.chat_log.notice(f"Model for this conversation: {inert_line(name, 80)}{also}.")

    async def _record(self, cid: str, name: str) -> bool:
        """Store ``name`` on the conversation; False (said in a notice) when it cannot be."""
        from agenttui.core.errors import explain
        from agenttui.core.history.store import UnknownConversationError
        from agenttui.core.incognito import IncognitoRefused

        try:
            await asyncio.to_thread(self._chat.services.history.set_model, cid, name)
        except UnknownConversationError:
            return True  # deleted elsewhere: the next message starts a new one, created with it
        except Exception as exc:  # the picker's answer comes outside slash dispatch: said here too
            message = str(exc) if isinstance(exc, IncognitoRefused) else explain(exc)
            if message is None:
                raise  # a bug: the app's error policy ends it with a crash log
            self._chat.notify(message, title="/model failed", severity="error", timeout=30)
            return False
        return True

    def pick(self) -> None:
        """The picker: configured models first, then the endpoint's (:mod:`..screens.model_picker`)."""
        from agenttui.agent.model_choices import configured_models
        from agenttui.ui.screens.model_picker import ModelPickerScreen

        services = self._chat.services
        screen = ModelPickerScreen(configured_models(services), self.in_use, services.base_url,
                                   lambda: services.api_key().value)
        self._chat.app.push_screen(screen, self.choose)

    def _show(self) -> None:
        parts = app_parts(self._chat.app)
        parts.chat_model = self.name
        parts.refresh_header()
