"""Incognito in the chat: ``/incognito`` or alt+i, and back.

:class:`IncognitoMode` is a helper the Chat pane holds (``chat.incognito_mode``);
it reads and changes the pane through :class:`IncognitoChat`. Entering swaps the
pane's services (and its log's) for the incognito twin of
:func:`agenttui.core.incognito.incognito_services` and opens a fresh, unsaved
conversation; the other panes keep the real services, so Memory and History
still show (and edit, on the user's own action) what is stored. The header
shows a badge and the pane's border says "incognito · not saved".

Leaving (the same key or command, opening a saved conversation from the
History pane, quitting the app, or switching profile) offers to keep the
conversation when it has any message: "Save" copies it into history (one transaction,
:func:`~agenttui.core.incognito.save_conversation`) and opens it, "Cancel"
(the focused default: incognito's point is to leave nothing) drops it. A
profile switch cannot save into the profile it came from, so it drops the
conversation and says so. ctrl+n while incognito starts another unsaved
conversation (the previous one is dropped, as a private window's tab).

Asked while a reply streams (the user types on: /incognito, then their message), it
takes its place in the queue of messages sent when the reply ends (``ENTER_QUEUED``):
the chat becomes incognito there, and what was queued after it is sent in the
incognito chat. Before, it was refused with a notice while the message typed after
it was queued for the saved chat and stored in history. Asked twice, it is taken back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

from agenttui.ui import messages as app_messages
from agenttui.ui.host import app_parts
from agenttui.ui.widgets.chat_part import ChatPart
from agenttui.ui.widgets.queued_line import back_to_prompt

if TYPE_CHECKING:

    from agenttui.agent.chat_session import ChatSession
    from agenttui.agent.turn import TurnController
    from agenttui.bootstrap import Services
    from agenttui.core.incognito import IncognitoHistory
    from agenttui.ui.widgets.prompt_input import PromptInput

INCOGNITO_TITLE = "Chat · incognito · not saved"
ENTER_NOTICE = ("Incognito: memory and project context are read, nothing is written — no history, "
                "no memory changes or use counts, no files. Leaving offers to save this conversation.")
ENTER_QUEUED = "/incognito"  # in the queue: incognito starts there (module doc)


class IncognitoChat(ChatPart, Protocol):
    """What incognito reads and changes of the Chat pane."""

    services: Services
    conversation_id: str | None
    border_title: Any
    session: ChatSession  # says whether the chat is incognito
    turns: TurnController  # its queue: what is sent when the reply ends

    @property
    def prompt(self) -> PromptInput: ...

    def show_queued(self) -> None: ...

    def post_message(self, message: Any) -> bool: ...
    def set_class(self, add: bool, *class_names: str, update: bool = True) -> Any: ...
    def cancel_turn(self) -> bool: ...
    async def open_conversation(self, conversation_id: str | None, message_id: int | None = None) -> None: ...


class IncognitoMode:
    def __init__(self, chat: IncognitoChat) -> None:
        self._chat = chat
        self._real_services: Services | None = None  # the app's services while incognito (chat's are the twin)
        # One switch at a time: /incognito runs in the slash command's worker while alt+i runs in the
        # app's handler; entering twice at once took the first twin for the real services, and leaving
        # then kept the twin: a chat shown as saved that saved nothing.
        self._switching = asyncio.Lock()

    @property
    def active(self) -> bool:
        return self._chat.session.incognito

    def _twin_history(self) -> IncognitoHistory:
        """While incognito the chat's history is the twin's (memory-only, reads the real one)."""
        return cast("IncognitoHistory", self._chat.services.history)

    async def toggle(self) -> None:
        async with self._switching:
            await self._toggle()

    async def _toggle(self) -> None:
        if self.active:
            await self.leave()
        elif self._chat.streaming or self._chat.turns.queued:
            self._queue_entering()
        else:
            await self.enter()

    def _queue_entering(self) -> None:
        queued = self._chat.turns.queued
        if queued and queued[-1] == ENTER_QUEUED:  # asked twice while it waits: not after all
            queued.pop()
            note = "Incognito will not start after this reply."
        else:
            queued.append(ENTER_QUEUED)
            note = "Incognito starts when this reply ends: what you send after this is not saved."
        self._chat.show_queued()
        self._chat.notify(note)

    async def enter_from_queue(self) -> None:
        """The queue reached ``ENTER_QUEUED``: enter; what was queued after it follows, incognito."""
        chat = self._chat
        after, chat.turns.queued = chat.turns.queued, []  # entering opens a new chat: it would hand them back
        if not self.active:
            async with self._switching:
                if not self.active:
                    await self.enter()
        if self.active:
            chat.turns.queued = after
        else:  # entering failed (and said why): nothing typed for incognito goes to the saved chat
            back_to_prompt(after, chat.prompt)
        chat.show_queued()

    async def enter(self) -> None:
        pane = self._chat
        if pane.streaming:
            pane.notify("A reply is still streaming: Esc cancels it first.", severity="warning")
            return
        from agenttui.core.incognito import incognito_services

        twin = await asyncio.to_thread(incognito_services, pane.services)
        await pane.open_conversation(None)  # before the swap: a queued draft goes back to the prompt
        self._real_services = pane.services
        pane.session.set_incognito(True)
        self._use(twin)
        await pane.chat_log.notice(ENTER_NOTICE)
        for notice in self._twin_history().notices:
            await pane.chat_log.notice(notice)
        pane.prompt.focus()

    async def leave(self, then_open: tuple[str, int | None] | None = None,
                    *, offer_save: bool = True, then: Callable[[], object] | None = None) -> None:
        """Back to the saved chat; offers to save the incognito conversation first (module doc).

        ``then`` runs once it is over, saved or not (quitting: ``App.exit``)."""
        pane = self._chat
        if not self.active:
            return
        twin = pane.services
        cid = pane.conversation_id
        count = 0
        if cid is not None and self._twin_history().owns(cid):
            count = await asyncio.to_thread(twin.history.count_messages, cid)
        if not (offer_save and count):
            await self._finish_leaving(False, then_open, then)
            return
        from agenttui.ui.screens.confirm import ConfirmScreen

        screen = ConfirmScreen(
            "Save this incognito conversation?",
            f"It has {count} message(s). Save puts it in History like any other conversation; "
            "Cancel leaves nothing behind.", confirm_label="Save")

        async def answered(save: bool | None) -> None:
            await self._finish_leaving(bool(save), then_open, then)

        pane.app.push_screen(screen, answered)

    async def _finish_leaving(self, save: bool, then_open: tuple[str, int | None] | None,
                              then: Callable[[], object] | None = None) -> None:
        pane = self._chat
        twin, real = pane.services, self._real_services
        if not self.active or real is None:
            return
        if then is not None:  # quitting: save (or not) and go, no reopening
            if save and pane.conversation_id is not None:
                from agenttui.core.incognito import save_conversation

                await asyncio.to_thread(save_conversation, twin, pane.conversation_id,
                                        real.history)
            self.drop()
            then()
            return
        cid = pane.conversation_id
        pane.cancel_turn()
        saved = None
        if save and cid is not None:
            from agenttui.core.incognito import save_conversation

            saved = await asyncio.to_thread(save_conversation, twin, cid, real.history)
        from agenttui.core.incognito import end_incognito

        end_incognito(twin, real)
        self._real_services = None
        pane.session.set_incognito(False)
        self._use(real)
        target = then_open or ((saved.id, None) if saved is not None else None)
        await pane.open_conversation(*(target or (None,)))
        if saved is not None:
            pane.post_message(app_messages.ConversationsChanged(saved.id))
            await pane.chat_log.notice("Saved to History; incognito is off.")
        else:
            await pane.chat_log.notice("Incognito is off; nothing of it was kept.")
        pane.prompt.focus()

    def drop(self) -> None:
        """Forget the incognito conversation and close its read-only connection (quitting)."""
        if not self.active:
            return
        pane = self._chat
        real = self._real_services
        if real is None:
            return
        pane.cancel_turn()
        from agenttui.core.incognito import end_incognito

        end_incognito(pane.services, real)
        self._real_services = None
        pane.session.set_incognito(False)
        pane.services = real
        pane.chat_log.services = real
        app_parts(pane.app).incognito = False

    async def profile_switched(self) -> None:
        """The twin reads the old profile: drop it (it cannot be saved into the new one)."""
        if self.active:
            pane = self._chat
            await self._finish_leaving(False, None)
            pane.notify("The incognito conversation was dropped with the profile switch.",
                        title="Incognito off", severity="warning")

    def _use(self, services: Services) -> None:
        pane = self._chat
        pane.services = services
        pane.chat_log.services = services
        on = self.active
        pane.set_class(on, "-incognito")
        pane.border_title = INCOGNITO_TITLE if on else "Chat"
        parts = app_parts(pane.app)
        parts.incognito = on
        parts.refresh_header()
