"""The chat pane's side of branches and forks: what a message action does.

:class:`BranchActions` is a helper the Chat pane holds (``chat.branches``) and
hands each :class:`~.message_cursor.MessageAction` the chat log posts (which
message, and what); it reads and drives the pane through :class:`BranchChat`:

* **edit** (a question): its text goes into the prompt and a line above the
  prompt says so; ``Enter`` sends it as a sibling of the old question (a new
  branch; the old one and what followed are kept), ``Esc`` gives up the edit.
  The log drops the old question and what followed it, the turn streams below.
  A draft that was in the prompt is put back afterwards (sent or given up).
* **regenerate**: the message's question is answered again; the new answer is a
  sibling of the old ones. ``ctrl+r`` after a finished reply does it for the
  last question (:meth:`BranchActions.regenerate_last`).
* **previous / next**: the message's previous/next version becomes the active
  branch (in a thread) and the conversation is shown again at it.
* **fork**: the conversation up to the message is copied into a new one, which
  opens (the original is unchanged).

Nothing of this runs while a reply streams (it says so). After every turn the
log re-reads its navigators (``‹ 2/3 ›``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from textual.widgets import Static

from agenttui.agent import events as ev
from agenttui.ui import messages as app_messages
from agenttui.ui.widgets.chat_part import ChatPart
from agenttui.ui.widgets.message_view import AssistantMessage, UserMessage

if TYPE_CHECKING:
    from textual.widget import Widget

    from agenttui.bootstrap import Services
    from agenttui.ui.widgets.message_cursor import MessageAction
    from agenttui.ui.widgets.prompt_input import PromptInput

EDITING_ID = "chat-editing"


class BranchChat(ChatPart, Protocol):
    """What branch actions read and drive of the Chat pane."""

    services: Services
    conversation_id: str | None

    @property
    def prompt(self) -> PromptInput: ...

    def post_message(self, message: Any) -> bool: ...
    def mount(self, *widgets: Widget, before: int | str | Widget | None = None) -> Any: ...
    async def send(self, text: str, *, show: bool = True, retry_of: int | None = None,
                   edit_of: int | None = None) -> None: ...
    async def open_conversation(self, conversation_id: str | None, message_id: int | None = None) -> None: ...


class BranchActions:
    def __init__(self, chat: BranchChat) -> None:
        self._chat = chat
        self._editing: int | None = None  # the question being edited (its id), while the prompt holds it
        self._draft_before_edit = ""  # what the prompt held when the edit began: it comes back after
        self._line: Static | None = None  # "✎ Editing message #…" above the prompt

    @property
    def editing(self) -> int | None:
        return self._editing

    # -- what the log asked for ----------------------------------------------------
    async def act(self, event: MessageAction) -> None:
        chat = self._chat
        if event.action == "prompt":
            chat.prompt.focus()
            return
        if event.message_id is None or chat.conversation_id is None:
            chat.notify("Select a message first: ↑/↓ in the chat.", severity="warning")
            return
        if chat.streaming:
            chat.notify("A reply is still streaming: Esc stops it first.", severity="warning")
            return
        if event.action == "edit":
            await self.start_edit(event.message_id, event.question_id, event.text)
        elif event.action == "regenerate":
            if event.question_id is None:
                chat.notify("No question above this message to answer again.", severity="warning")
                return
            await self.regenerate(event.question_id, event.text)
        elif event.action in ("previous", "next"):
            await self.switch(event.message_id, -1 if event.action == "previous" else 1)
        elif event.action == "fork":
            await self.fork_at(event.message_id)

    # -- edit ------------------------------------------------------------------------
    async def start_edit(self, message_id: int, question_id: int | None, text: str) -> None:
        if question_id != message_id:
            self._chat.notify("Only your own messages can be edited; r regenerates a reply.", severity="warning")
            return
        prompt = self._chat.prompt
        if self._editing is None:
            self._draft_before_edit = prompt.text
        self._editing = message_id
        prompt.load_text(text)
        prompt.move_cursor(prompt.document.end)
        line = f"✎ Editing message #{message_id}: Enter sends it as a new branch (the old one is kept) · Esc gives up"
        if self._line is not None:
            await self._line.remove()
        self._line = Static(line, id=EDITING_ID, markup=False, classes="chat-editing")
        await self._chat.mount(self._line, before=prompt)
        prompt.focus()
        self._chat.app.refresh_bindings()  # Esc now gives up the edit

    def cancel_edit(self, *, keep_text: bool = False) -> bool:
        """Give up the edit (Esc): the prompt gets back the draft it held before, unless
        ``keep_text``. False if no edit was going on."""
        if self._editing is None:
            return False
        self._editing = None
        if self._line is not None:
            self._line.remove()
            self._line = None
        prompt = self._chat.prompt
        if not keep_text:
            prompt.load_text(self._draft_before_edit)
            prompt.move_cursor(prompt.document.end)
        self._draft_before_edit = ""
        self._chat.app.refresh_bindings()
        return True

    async def send_edit(self, text: str) -> None:
        """Send ``text`` as the new version of the question being edited."""
        edited, draft = self._editing, self._draft_before_edit
        self.cancel_edit(keep_text=True)
        if edited is None:
            return
        chat = self._chat
        await chat.chat_log.cursor.remove_from(edited)  # that branch is not the active one any more
        await chat.send(text, edit_of=edited)
        if draft and not chat.prompt.text:  # the draft the edit pushed aside
            chat.prompt.load_text(draft)
            chat.prompt.move_cursor(chat.prompt.document.end)

    # -- regenerate ----------------------------------------------------------------
    async def regenerate(self, question_id: int, text: str) -> None:
        """Answer question ``question_id`` again: a sibling of its answers."""
        await self._chat.chat_log.cursor.remove_from(question_id, keep_it=True)
        await self._chat.send(text, show=False, retry_of=question_id)

    async def regenerate_last(self) -> bool:
        """``ctrl+r`` after a finished reply: the last question shown is answered again.
        False when no stored question is shown."""
        questions = [w for w in self._chat.chat_log.query(UserMessage) if w.message_id is not None]
        if not questions:
            return False
        await self.regenerate(questions[-1].message_id, questions[-1].text)  # type: ignore[arg-type]
        return True

    # -- switch, fork ------------------------------------------------------------------
    async def switch(self, message_id: int, step: int) -> None:
        chat = self._chat
        cid = chat.conversation_id
        if cid is None:  # a message's action: its conversation is open
            return
        shown = await asyncio.to_thread(chat.services.history.switch_sibling, cid, message_id, step)
        if shown is None:
            chat.notify("This message has no other version.", severity="information")
            return
        await chat.open_conversation(cid, shown)
        chat.post_message(app_messages.ConversationsChanged(cid))

    async def fork_at(self, message_id: int) -> None:
        from agenttui.core.history.store import HistoryError

        chat = self._chat
        cid = chat.conversation_id
        if cid is None:
            return
        try:
            fork = await asyncio.to_thread(chat.services.history.fork, cid, message_id)
        except HistoryError as exc:
            chat.notify(str(exc), title="Fork failed", severity="error")
            return
        await chat.open_conversation(fork.id)
        chat.post_message(app_messages.ConversationsChanged(fork.id))
        chat.notify(f"“{fork.title}” holds this conversation up to message #{message_id}; "
                    "the original is unchanged.", title="Forked")
        chat.prompt.focus()

    # -- after a turn ------------------------------------------------------------------
    def turn_ended(self, event: ev.TurnFinished | ev.TurnFailed) -> None:
        """After the pane showed the turn's end: ids for what the turn stored, then the navigators."""
        log = self._chat.chat_log
        if isinstance(event, ev.TurnFailed) and event.partial is not None and event.partial.id is not None:
            replies = log.query(AssistantMessage)
            if replies and replies.last().message_id is None:
                replies.last().message_id = event.partial.id
        log.cursor.refresh_branches()
