"""The chat pane's side of branches and forks (issue 15): what a message action does.

Mixed into :class:`~agenttui.ui.widgets.chat_pane.ChatPane`; the chat log says
which message and what (:class:`~.message_cursor.MessageAction`):

* **edit** (a question): its text goes into the prompt and a line above the
  prompt says so; ``Enter`` sends it as a sibling of the old question (a new
  branch; the old one and what followed are kept), ``Esc`` gives up the edit.
  The log drops the old question and what followed it, the turn streams below.
  A draft that was in the prompt is put back afterwards (sent or given up).
* **regenerate**: the message's question is answered again; the new answer is a
  sibling of the old ones. ``ctrl+r`` after a finished reply does it for the
  last question (:meth:`ChatBranchesMixin.regenerate_last`).
* **previous / next**: the message's previous/next version becomes the active
  branch (in a thread) and the conversation is shown again at it.
* **fork**: the conversation up to the message is copied into a new one, which
  opens (the original is unchanged).

Nothing of this runs while a reply streams (it says so). After every turn the
log re-reads its navigators (``‹ 2/3 ›``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from agenttui.agent import events as ev
from agenttui.ui import messages as app_messages
from agenttui.ui.widgets.message_cursor import MessageAction
from agenttui.ui.widgets.message_view import AssistantMessage, UserMessage

if TYPE_CHECKING:
    from textual.widget import Widget

    from agenttui.agent.turn import TurnController
    from agenttui.bootstrap import Services
    from agenttui.ui.widgets.chat_log import ChatLog
    from agenttui.ui.widgets.prompt_input import PromptInput

    _Base = Widget
else:
    _Base = object  # at run time the widget half is ChatPane's other base

EDITING_ID = "chat-editing"


class ChatBranchesMixin(_Base):
    if TYPE_CHECKING:  # what ChatPane provides (ChatPane subclasses this: it cannot be the base here)
        services: Services
        conversation_id: str | None
        streaming: bool
        turns: TurnController

        @property
        def chat_log(self) -> ChatLog: ...
        @property
        def prompt(self) -> PromptInput: ...
        async def send(self, text: str, *, show: bool = True, retry_of: int | None = None,
                       edit_of: int | None = None, then_archive: bool = False) -> None: ...
        async def open_conversation(self, conversation_id: str | None, message_id: int | None = None,
                                    *, _lookup: bool = False) -> None: ...

    _editing: int | None = None  # the question being edited (its id), while the prompt holds it
    _draft_before_edit = ""  # what the prompt held when the edit began: it comes back after

    @property
    def editing(self) -> int | None:
        return self._editing

    # -- what the log asked for ----------------------------------------------------
    async def on_message_action(self, event: MessageAction) -> None:
        event.stop()
        if event.action == "prompt":
            self.prompt.focus()
            return
        if event.message_id is None or self.conversation_id is None:
            self.notify("Select a message first: ↑/↓ in the chat.", severity="warning")
            return
        if self.streaming:
            self.notify("A reply is still streaming: Esc stops it first.", severity="warning")
            return
        if event.action == "edit":
            await self.start_edit(event.message_id, event.question_id, event.text)
        elif event.action == "regenerate":
            if event.question_id is None:
                self.notify("No question above this message to answer again.", severity="warning")
                return
            await self.regenerate(event.question_id, event.text)
        elif event.action in ("previous", "next"):
            await self.switch_branch(event.message_id, -1 if event.action == "previous" else 1)
        elif event.action == "fork":
            await self.fork_at(event.message_id)

    # -- edit ------------------------------------------------------------------------
    async def start_edit(self, message_id: int, question_id: int | None, text: str) -> None:
        if question_id != message_id:
            self.notify("Only your own messages can be edited; r regenerates a reply.", severity="warning")
            return
        from textual.widgets import Static

        prompt = self.prompt
        if self._editing is None:
            self._draft_before_edit = prompt.text
        self._editing = message_id
        prompt.load_text(text)
        prompt.move_cursor(prompt.document.end)
        line = f"✎ Editing message #{message_id}: Enter sends it as a new branch (the old one is kept) · Esc gives up"
        for old in self.query(f"#{EDITING_ID}"):
            await old.remove()
        await self.mount(Static(line, id=EDITING_ID, markup=False, classes="chat-editing"), before=prompt)
        prompt.focus()
        self.app.refresh_bindings()  # Esc now gives up the edit

    def cancel_edit(self, *, keep_text: bool = False) -> bool:
        """Give up the edit (Esc): the prompt gets back the draft it held before, unless
        ``keep_text``. False if no edit was going on."""
        if self._editing is None:
            return False
        self._editing = None
        self.query(f"#{EDITING_ID}").remove()
        if not keep_text:
            self.prompt.load_text(self._draft_before_edit)
            self.prompt.move_cursor(self.prompt.document.end)
        self._draft_before_edit = ""
        self.app.refresh_bindings()
        return True

    async def send_edit(self, text: str) -> None:
        """Send ``text`` as the new version of the question being edited."""
        edited, draft = self._editing, self._draft_before_edit
        self.cancel_edit(keep_text=True)
        if edited is None:
            return
        await self.chat_log.remove_from(edited)  # that branch is not the active one any more
        await self.send(text, edit_of=edited)
        if draft and not self.prompt.text:  # the draft the edit pushed aside
            self.prompt.load_text(draft)
            self.prompt.move_cursor(self.prompt.document.end)

    # -- regenerate ----------------------------------------------------------------
    async def regenerate(self, question_id: int, text: str) -> None:
        """Answer question ``question_id`` again: a sibling of its answers."""
        await self.chat_log.remove_from(question_id, keep_it=True)
        await self.send(text, show=False, retry_of=question_id)

    async def regenerate_last(self) -> bool:
        """``ctrl+r`` after a finished reply: the last question shown is answered again.
        False when no stored question is shown."""
        questions = [w for w in self.chat_log.query(UserMessage) if w.message_id is not None]
        if not questions:
            return False
        await self.regenerate(questions[-1].message_id, questions[-1].text)  # type: ignore[arg-type]
        return True

    # -- switch, fork ------------------------------------------------------------------
    async def switch_branch(self, message_id: int, step: int) -> None:
        cid = self.conversation_id
        if cid is None:  # a message's action: its conversation is open
            return
        shown = await asyncio.to_thread(self.services.history.switch_sibling, cid, message_id, step)
        if shown is None:
            self.notify("This message has no other version.", severity="information")
            return
        await self.open_conversation(cid, shown)
        self.post_message(app_messages.ConversationsChanged(cid))

    async def fork_at(self, message_id: int) -> None:
        from agenttui.core.history.store import HistoryError

        cid = self.conversation_id
        if cid is None:
            return
        try:
            fork = await asyncio.to_thread(self.services.history.fork, cid, message_id)
        except HistoryError as exc:
            self.notify(str(exc), title="Fork failed", severity="error")
            return
        await self.open_conversation(fork.id)
        self.post_message(app_messages.ConversationsChanged(fork.id))
        self.notify(f"“{fork.title}” holds this conversation up to message #{message_id}; "
                    "the original is unchanged.", title="Forked")
        self.prompt.focus()

    # -- after a turn ------------------------------------------------------------------
    async def on_chat_pane_agent_event_received(self, message) -> None:
        """Runs after the pane's own handler: ids for what the turn stored, then the navigators."""
        if not self.turns.is_current(message.turn):
            return
        event = message.event
        if isinstance(event, ev.TurnFailed) and event.partial is not None and event.partial.id is not None:
            replies = self.chat_log.query(AssistantMessage)
            if replies and replies.last().message_id is None:
                replies.last().message_id = event.partial.id
        if isinstance(event, ev.TurnFinished | ev.TurnFailed):
            self.chat_log.refresh_branches()
