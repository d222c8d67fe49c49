"""This conversation's own model: ``/model NAME`` and the picker of ``/model``.

A part of the Chat pane. The model chosen is used for this conversation's turns only
(``run_turn(model=…)``, as ``ask --model``): each reply stores the model that answered
with its usage, and the conversation records it (``HistoryStore.set_model``; a
conversation not started yet gets it when it is created). Another conversation opened,
or a new one, goes back to the default model (``settings.model``, F9); the header
shows the model in use either way (``AppParts.chat_model``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol

from agenttui.ui.host import app_parts
from agenttui.ui.inert import inert_line
from agenttui.ui.widgets.chat_part import ChatPart

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

NAME_LIMIT = 200  # characters: model ids are short; a paste by mistake is refused


class ModelledChat(ChatPart, Protocol):
    services: Services  # the incognito twin while incognito
    conversation_id: str | None


class ConversationModel:
    def __init__(self, chat: ModelledChat) -> None:
        self._chat = chat
        self.name: str | None = None  # None: the default model

    @property
    def in_use(self) -> str:
        return self.name or self._chat.services.model

    def reset(self) -> None:
        """Another conversation opens (or a new one): the default model again."""
        if self.name is not None:
            self.name = None
            self._show()

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
