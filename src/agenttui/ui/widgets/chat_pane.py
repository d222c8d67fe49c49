"""The Chat pane: the message log, slash-command suggestions and the prompt.

A thin container of parts, each in its own module:

* :class:`~.turn_view.TurnView` -- what a turn shows (the reply streaming, tools,
  approvals, the "used" line); the pane's handler matches each agent event
  (exhaustive by ``assert_never``) and calls it;
* :class:`~.context_meter.ContextMeter` -- the header's context meter, "older
  turns not sent", /compact (a hidden child widget);
* :class:`~.usage_total.UsageTotal` -- the header's running usage total of the
  conversation, read when it opens and when a turn ends (a hidden child widget);
* :class:`~.conversation_model.ConversationModel` -- /model: this conversation's model;
* :class:`~.draft_recall.DraftRecall` -- the draft's recall worked out while
  typing pauses (a hidden child widget);
* :class:`~.branch_actions.BranchActions` -- edit, regenerate, branch, fork;
* :class:`~.incognito_mode.IncognitoMode` -- /incognito and back;
* :class:`~.slash_runner.SlashRunner` -- a slash command running as a worker, and
  what is typed meanwhile (held, then handled in order);
* :mod:`agenttui.ui.slash` -- the slash commands (the pane is their
  :class:`~agenttui.ui.slash.context.SlashContext`).

The turn worker iterates ``agent.loop.run_turn`` through the UI-free turn
controller (:mod:`agenttui.agent.turn`: what is sent, retry-of, stopping, the
message kept on failure) and posts each event as ``AgentEventReceived``; the
loop and the openai client are imported in the worker, after the first frame.

An empty chat shows a welcome (:mod:`.chat_welcome`); a cold start shows the
latest conversation (:mod:`.latest_conversation`); messages sent while a reply
streams, or while a slash command runs (:mod:`.slash_runner`), are
queued (:mod:`.queued_line`); messages the history refused are
retried (:mod:`.unsaved_retry`).

A conversation deleted while it is open (the History pane, clear history)
is left at once: the chat shows a new, empty conversation and says so. One
deleted elsewhere (another window, ``agenttui history delete``) is noticed
when the next message is sent: that message starts a new conversation.

The footer's "esc Stop" appears ``STOP_KEY_AFTER_S`` after Enter (Esc works at
once): recomposing the footer as the first words arrive delayed them by a frame.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, assert_never

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message as TextualMessage
from textual.reactive import reactive

from agenttui.agent import events as ev
from agenttui.agent.chat_session import ChatSession, Field
from agenttui.agent.turn import Turn
from agenttui.ui import messages as app_messages
from agenttui.ui.host import app_parts
from agenttui.ui.inert import inert_line
from agenttui.ui.one_shot import OneShot, set_timer
from agenttui.ui.slash.table import completions, parse
from agenttui.ui.survivable_errors import dispatch_guarded
from agenttui.ui.widgets.branch_actions import BranchActions
from agenttui.ui.widgets.chat_log import ChatLog, PageLoaded, last_shown_id
from agenttui.ui.widgets.chat_welcome import ChatWelcome
from agenttui.ui.widgets.context_meter import ContextMeter
from agenttui.ui.widgets.conversation_model import ConversationModel
from agenttui.ui.widgets.draft_recall import DraftRecall
from agenttui.ui.widgets.incognito_mode import ENTER_QUEUED, IncognitoMode
from agenttui.ui.widgets.latest_conversation import LatestConversation
from agenttui.ui.widgets.message_cursor import MessageAction
from agenttui.ui.widgets.message_view import UserMessage
from agenttui.ui.widgets.prompt_input import PromptInput
from agenttui.ui.widgets.queued_line import QueuedLine, back_to_prompt
from agenttui.ui.widgets.slash_runner import SlashRunner
from agenttui.ui.widgets.slash_suggestions import SlashSuggestions
from agenttui.ui.widgets.turn_end import TurnEnd
from agenttui.ui.widgets.turn_view import TurnView, bug_text
from agenttui.ui.widgets.unsaved_retry import UnsavedRetry
from agenttui.ui.widgets.usage_total import UsageTotal
from agenttui.ui.widgets.used_line import UsedLine

if TYPE_CHECKING:
    from textual.worker import Worker

    from agenttui.bootstrap import Services


LOOKUP_WAIT = 5.0  # seconds a message waits for the latest-conversation lookup at most
SWITCH_WAIT_S = 10.0  # a profile switch waits this long at most for the stopped turn to save what came
STOP_KEY_AFTER_S = 0.25  # "esc Stop" shows in the footer this long after Enter (see the module doc)


class ChatPane(Vertical):
    streaming: reactive[bool] = reactive(False, bindings=True)
    can_retry: reactive[bool] = reactive(False, bindings=True)

    class AgentEventReceived(TextualMessage, bubble=False):  # for this pane only: no hops up the DOM
        def __init__(self, event: ev.AgentEvent, turn: int) -> None:
            super().__init__()
            self.event = event
            self.turn = turn

    class _ConversationGone(TextualMessage):
        """The turn's conversation no longer exists: the pane moves to a new one, then sets ``moved``."""

        def __init__(self, turn: Turn, moved: asyncio.Event) -> None:
            super().__init__()
            self.turn, self.moved = turn, moved

    async def _on_message(self, message: TextualMessage) -> None:
        # a bug in one handler is a notice; this widget keeps its loop and stays (survivable_errors)
        await dispatch_guarded(self, message, super()._on_message)

    def __init__(self, services: Services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self.border_title = "Chat"
        self.conversation_id: str | None = None
        # What the chat shows (a turn runs, it can be retried, incognito) and the turns' own
        # state (what is sent, retry-of, the lookup, stopping, /attach, the queue): UI-free.
        # The reactives below follow the session (_session_changed), never set on their own.
        self.session = ChatSession(self._session_changed)
        self.turns = self.session.turns
        self.turn_view = TurnView(self)
        self.turn_end = TurnEnd(self)
        self.branches = BranchActions(self)
        self.incognito_mode = IncognitoMode(self)
        self.meter = ContextMeter(self)
        self.usage_total = UsageTotal(self)
        self.conversation_model = ConversationModel(self)
        self.draft_recall = DraftRecall(self)
        self.unsaved = UnsavedRetry(self)
        self._stop_key_timer: OneShot | None = None  # shows "esc Stop" in the footer (_set_streaming)
        self.commands = SlashRunner(self)  # a slash command running, and what is typed meanwhile
        self._turn_worker: Worker[None] | None = None  # the running turn's (a profile switch waits for it)

    DEFAULT_CSS = """
    ChatPane > #chat-welcome { display: none; height: 1fr; padding: 1 2; color: $text-muted; }
    ChatPane > #chat-queued { display: none; height: auto; max-height: 4; padding: 0 1; color: $text-muted; }
    ChatPane > #chat-queued.-shown { display: block; }
    ChatPane.-incognito { border: round $warning; border-title-color: $warning; }
    """

    def compose(self) -> ComposeResult:
        yield ChatWelcome(id="chat-welcome", markup=False)
        yield ChatLog(self.services, id="chat-log")
        yield SlashSuggestions(id="slash-suggestions")
        yield QueuedLine(id="chat-queued", markup=False)
        yield PromptInput(id="prompt", placeholder="Message… (Enter sends, /help)")
        yield self.meter
        yield self.usage_total
        yield self.draft_recall
        yield self.unsaved
        yield LatestConversation(self)

    @property
    def chat_log(self) -> ChatLog:  # not `log`: that is Textual's logger on every widget
        return self.query_one(ChatLog)

    @property
    def prompt(self) -> PromptInput:
        return self.query_one(PromptInput)

    @property
    def incognito(self) -> bool:
        return self.session.incognito

    @property
    def editing(self) -> int | None:
        """The earlier question being edited in the prompt (its id)."""
        return self.branches.editing

    def on_mount(self) -> None:
        self.watch(self.chat_log, "empty", self.update_welcome, init=False)
        self.open_latest(if_untouched=True)

    # -- welcome (empty state) -------------------------------------------------
    def update_welcome(self, _empty: bool = True) -> None:
        show = self.chat_log.empty and self.conversation_id is None and not self.turns.lookup.pending
        if show == self.has_class("-welcome"):
            return
        # The class marks the state only: styling by it restyled the whole pane (prompt, log and
        # all) when the first message hid the welcome, ~10 ms before the reply could show.
        self.set_class(show, "-welcome", update=False)
        self.query_one(ChatWelcome).show(show)
        self.chat_log.styles.height = 0 if show else None  # None: the log's own CSS height again

    # -- conversations ---------------------------------------------------------
    def open_latest(self, *, if_untouched: bool = False) -> None:
        """Show the profile's latest conversation once looked up (:mod:`.latest_conversation`)."""
        self.query_one(LatestConversation).look_up(if_untouched=if_untouched)

    async def open_conversation(self, conversation_id: str | None, message_id: int | None = None,
                                *, from_lookup: bool = False) -> None:
        if not from_lookup:  # the lookup's own opening keeps its number (its handler marks it done)
            self.turns.lookup.supersede()
        self.cancel_turn()
        self._unqueue_to_prompt()
        self.branches.cancel_edit(keep_text=True)  # an edit of the conversation left behind
        self.conversation_id = conversation_id
        self.session.conversation_left()
        self.turn_view.forget_reply()
        await self.chat_log.show_conversation(conversation_id, message_id)
        self.update_welcome()
        self.meter.figures = None
        self.meter.measure()  # the header's meter for this conversation (a thread; sends nothing)
        await self.conversation_model.load(conversation_id)  # the model it records; a new one: the default
        self.usage_total.measure()

    # -- prompt --------------------------------------------------------------
    @on(PromptInput.Changed)
    def _prompt_changed(self, event: PromptInput.Changed) -> None:
        self.query_one(SlashSuggestions).show(completions(event.text_area.text))
        self.draft_recall.later(self.prompt.message_text())  # long pastes as they will be sent

    @on(PromptInput.CompletionRequested)
    def _complete(self) -> None:
        suggestions = self.query_one(SlashSuggestions)
        name = suggestions.selected_name
        if name is None:
            self.screen.focus_next()
            return
        self.prompt.load_text(f"/{name} ")
        self.prompt.move_cursor(self.prompt.document.end)

    @on(PromptInput.Submitted)
    async def _submitted(self, event: PromptInput.Submitted) -> None:
        self.query_one(SlashSuggestions).show([])
        await self.submit(event.text)

    async def submit(self, text: str) -> None:
        """What Enter sent: a command, an edit, a message now or after the reply."""
        if self.commands.running:  # after the command, in order (the note first, then the question)
            self.commands.hold(text)
            return
        if parse(text) is not None:
            self.commands.run(text)
            return
        if self.editing is not None and not self.streaming:  # a new version of an earlier question
            await self.branches.send_edit(text)
            return
        if self.streaming or self.turns.queued:  # after the reply (and what was queued before it)
            self.turns.queued.append(text)
            self.show_queued()
            return
        await self.send(text)

    def show_queued(self) -> None:
        self.query_one(QueuedLine).show(self.turns.queued, self.turns.held, self.commands.label)

    def waiting_for(self) -> str:
        """What the unsent messages wait for, in words: "the reply", "/remember", or both."""
        running = self.commands.label
        command = (f"/{inert_line(running, 30)}" if running else "a command") if self.turns.held else ""
        return " and ".join(part for part in ("the reply" if self.turns.queued else "", command) if part) \
            or "the reply"

    async def _send_queued(self) -> None:
        text = None if self.streaming else self.turns.take_queued()
        if text is None:
            return
        self.show_queued()
        if text == ENTER_QUEUED:  # /incognito asked while the reply streamed
            await self.incognito_mode.enter_from_queue()
            await self._send_queued()
            return
        await self.send(text)

    def _unqueue_to_prompt(self) -> None:
        """Another conversation opens: queued text goes back to the prompt, not to that one.

        So do the messages held behind a command, unless the command itself opens it
        (``/new``, ``/incognito``, its dialog's answer): what was typed after those is
        meant for the conversation they open. Held commands stay held (no conversation's).
        """
        held = [] if self.commands.opened_by_command() else [text for text in self.turns.held if parse(text) is None]
        if not self.turns.queued and not held:
            return
        texts, self.turns.queued = self.turns.queued + held, []
        self.turns.held = [text for text in self.turns.held if text not in held]
        back_to_prompt(texts, self.prompt)
        self.show_queued()

    # -- turns ---------------------------------------------------------------
    async def send(self, text: str, *, show: bool = True, retry_of: int | None = None,
                   edit_of: int | None = None, then_archive: bool = False) -> None:
        """Send ``text`` (``retry_of``: answer that stored question again; ``edit_of``: a new
        version of that question; ``then_archive``: /end archives the session after it)."""
        if self.streaming:
            self.notify("A reply is still streaming: Esc cancels it.", severity="warning")
            return
        # Sent while the latest conversation is still being looked up (a cold start):
        # the turn waits for the lookup and continues that conversation. The wait is
        # in the turn worker, never here: this pane handles the lookup's answer only
        # after this handler returns.
        turn = self.turns.start(text, conversation_known=self.conversation_id is not None,
                                retry_of=retry_of, edit_of=edit_of, then_archive=then_archive)
        if retry_of is None and edit_of is None:  # another window may have gone on past it
            turn.seen = last_shown_id(list(self.chat_log.children), self.chat_log.has_newer)
        if show:
            await self.chat_log.add(UserMessage(text, image=turn.image is not None))
        self.chat_log.anchor()
        self.turn_view.reset()
        self.session.turn_started()
        self._turn_worker = self._run_turn(turn, self.conversation_id)

    @work(group="chat-turn", exclusive=True, exit_on_error=False)
    async def _run_turn(self, turn: Turn, sent_in: str | None) -> None:
        """``sent_in``: the conversation shown when Enter sent it (None: a new one, or the one the
        cold start's lookup finds). Read here instead, after the waits below, it was the one shown
        by then: a message sent, then /new (or another conversation opened) at once, went into a
        new conversation of its own that nobody had opened, or into the one opened."""
        try:
            await app_parts(self).first_turn_ready()  # being prepared: wait rather than race it
            await self.turns.conversation_ready(turn, LOOKUP_WAIT)
            # a turn that waited for the lookup continues what it found, unless the user left first
            turn_cid = sent_in if sent_in is not None or turn.cancel.is_set() else self.conversation_id
            if turn_cid is not None:
                cid = turn_cid
                existing = await asyncio.to_thread(self.services.history.get_conversation, cid)
                if existing is None:
                    turn_cid = None  # deleted meanwhile: the message starts a new conversation
                    if self.conversation_id == cid:  # still shown: the chat leaves it and says so
                        moved = asyncio.Event()
                        self.post_message(self._ConversationGone(turn, moved))
                        await moved.wait()
                    else:  # left already: kept in a conversation of its own, as a new question
                        self.turns.conversation_lost(turn)
                elif not self.conversation_model.knows(cid) and self.conversation_id == cid:
                    self.conversation_model.adopt(existing)  # continued before it was opened (a cold start)
            if turn_cid is None:
                conversation = await asyncio.to_thread(
                    self.services.history.create_conversation, None, self.conversation_model.in_use)
                turn_cid = conversation.id
                # Left while it was made (/new, another conversation opened: the turn is cancelled):
                # the message is kept there, but the chat shows what it was left for, and the next
                # message goes there, not into this one.
                if not turn.cancel.is_set():
                    self.conversation_id = turn_cid
                    self.chat_log.conversation_id = turn_cid
                    self.conversation_model.adopt(conversation)
            await self.conversation_model.record_use(turn_cid)
            async for event in self.turns.events(self.services, turn_cid, turn, model=self.conversation_model.name):
                self.post_message(self.AgentEventReceived(event, turn.number))
        except Exception as exc:  # the loop reports faults as TurnFailed; this is a bug guard
            from agenttui.core.errors import explain  # e.g. no conversation: the disk is full

            why = explain(exc)
            if not why:  # a bug: where its crash log is, never a class name
                why = await asyncio.to_thread(bug_text, exc, self.services.environ, self.incognito)
            self.post_message(self.AgentEventReceived(
                ev.TurnFailed("llm_error", why, ev.Trace(turn_id=""), None), turn.number))

    @on(_ConversationGone)
    async def _conversation_gone(self, message: _ConversationGone) -> None:
        turn = message.turn
        try:
            if self.turns.is_current(turn.number):
                await self._leave_deleted("This conversation was deleted elsewhere (another window or "
                                          "a command): your message starts a new one.")
                await self.chat_log.add(UserMessage(turn.text, image=turn.image is not None))
                self.chat_log.anchor()
        finally:
            self.turns.conversation_lost(turn)  # its message went with the conversation: sent afresh
            message.moved.set()

    async def conversation_deleted(self, conversation_id: str | None) -> None:
        """``conversation_id`` (``None``: every one) was deleted: leave it if it is open here."""
        if self.conversation_id is None or conversation_id not in (None, self.conversation_id):
            return
        if self.streaming:  # its turn is abandoned: nothing of it may land in the next conversation
            self.turns.abandon()
            self.session.turn_over()
        await self._leave_deleted("This conversation was deleted: what you send next starts a new one.")

    async def stop_for_profile_switch(self) -> None:
        """Before the profile switches: the running turn stops (as with Esc) and its loop is
        waited for, so what came is saved in the profile it was asked in. Switched under it, the
        turn wrote to the other profile's history, which has no such conversation: the reply on
        screen was dropped. What was queued behind it goes back to the prompt, unsent."""
        if not self.streaming:
            return
        self._unqueue_to_prompt()
        self.stop_turn()
        worker = self._turn_worker
        if worker is not None:
            with contextlib.suppress(Exception):  # failed or cancelled: it ended all the same
                await asyncio.wait_for(worker.wait(), SWITCH_WAIT_S)
        if self.streaming:  # its end is not shown yet: the chat opens the other profile's latest
            self.turns.abandon()
            self.session.turn_over()

    async def _leave_deleted(self, notice: str) -> None:
        self._unqueue_to_prompt()
        self.turns.lookup.supersede()  # a latest-conversation lookup still running must not reopen anything
        self.conversation_id = None
        self.session.conversation_left()
        self.turn_view.forget_reply()
        await self.chat_log.show_conversation(None)
        await self.chat_log.notice(notice)

    @on(AgentEventReceived)
    async def _agent_event(self, message: AgentEventReceived) -> None:
        turn = self.turns.turn
        if turn is None or turn.number != message.turn:  # an abandoned turn's events are ignored
            return
        event = message.event
        if turn.stopped and isinstance(event, ev.TextDelta | ev.ReasoningDelta):
            return  # Esc was pressed: the text stops there (the saved reply is shown at the end)
        self.turns.observe(event)
        match event:
            case ev.TurnStarted():
                asked = self.chat_log.query(UserMessage)
                if asked and asked.last().message_id is None:  # its id places "older turns not sent"
                    asked.last().message_id = event.user_message.id
            case ev.ReasoningDelta():
                await self.turn_view.show_reasoning(event.text)
            case ev.TextDelta():
                await self.turn_view.show_text(event.text)
            case ev.ToolCallStarted():
                await self.turn_view.tool_started(event)
            case ev.ToolCallFinished():
                self.turn_view.tool_finished(event)
            case ev.ApprovalRequested():
                self.turn_view.ask_approval(event)
            case ev.MemoryChanged():
                self.turn_view.memory_event(event)
            case ev.RetryScheduled():  # one toast, the latest attempt's (earlier ones dismissed)
                from agenttui.ui.toasts import dismiss_toasts

                dismiss_toasts(self.app, "Model call failed")
                self.notify(f"{event.reason}\nRetrying in {event.delay:.0f} s (attempt {event.attempt}).",
                            title="Model call failed", severity="warning")
            case ev.PersistWarning():
                self.notify(event.text, title="History not saved yet", severity="warning")
            case ev.RequestFallback():  # once per endpoint and model: in the chat
                await self.chat_log.notice(event.text)
            case ev.TurnFinished():
                await self.turn_end.finished(turn, event)
            case ev.TurnFailed():
                await self.turn_end.failed(turn, event)
            case _:
                assert_never(event)
        if isinstance(event, ev.TurnFinished | ev.TurnFailed) and self.turns.is_current(message.turn):
            self.branches.turn_ended(event)  # after the end is shown: stored ids, then the navigators

    # -- what a reply used: the prompt inspector -------------------------------
    @on(UsedLine.Selected)
    def _used_selected(self, event: UsedLine.Selected) -> None:
        event.stop()
        self.turn_view.open_inspector(event.usage)

    def _session_changed(self, name: Field, value: bool) -> None:
        if name == "streaming":
            self._set_streaming(value)
        elif name == "can_retry":
            self.can_retry = value

    def _set_streaming(self, on: bool) -> None:
        """``streaming``; the footer shows "esc Stop" ``STOP_KEY_AFTER_S`` after Enter (module doc)."""
        if self._stop_key_timer is not None:
            self._stop_key_timer.stop()
            self._stop_key_timer = None
        if on:
            self.set_reactive(ChatPane.streaming, True)  # Esc stops it now; the footer is told later
            self._stop_key_timer = set_timer(self, STOP_KEY_AFTER_S, self._show_stop_key)
        else:
            self.streaming = False  # the footer recomposes only if it showed Esc (AppFooter)

    def _show_stop_key(self) -> None:
        self._stop_key_timer = None
        self.refresh_bindings()

    async def turn_over(self) -> None:
        """The turn's end, whatever it was: the reply closed, Esc off, the queue sent next."""
        await self.turn_view.close_reply()
        self.session.turn_over()
        self.unsaved.show()
        self.usage_total.measure()  # this turn's replies are stored by now
        if self.turns.queued:
            self.call_later(self._send_queued)  # once this turn's end is shown
        self.post_message(app_messages.ConversationsChanged(self.conversation_id))

    # -- actions reached through App bindings --------------------------------
    def cancel_turn(self) -> bool:
        return self.turns.cancel()

    def stop_turn(self) -> None:
        """The user's Esc (:meth:`.turn_end.TurnEnd.stop`)."""
        self.turn_end.stop()

    async def retry(self) -> None:
        """ctrl+r (:meth:`.turn_end.TurnEnd.retry`)."""
        await self.turn_end.retry()

    def copy_last_reply(self) -> None:
        self.turn_view.copy_last_reply()

    def edit_draft(self, text: str | None = None) -> None:
        """alt+e: the prompt's draft, or ``/edit TEXT``: TEXT, composed in the user's editor
        (:mod:`agenttui.ui.external_editor`) and put back in the prompt, not sent: Enter sends it.
        An editor that fails or quits with an error leaves the prompt as it was."""
        from agenttui.ui.external_editor import edit_draft

        prompt = self.prompt
        edited, problem = edit_draft(self.app, prompt.text if text is None else text)
        if edited is None:
            self.notify(problem or "", title="$EDITOR", severity="error")
            return
        prompt.load_text(edited)
        prompt.move_cursor(prompt.document.end)
        prompt.focus()

    async def toggle_incognito(self) -> None:
        await self.incognito_mode.toggle()

    async def new_conversation(self, archive_current: bool = False) -> None:
        current = self.conversation_id
        if archive_current and current is not None:
            await asyncio.to_thread(self.services.history.archive, current)
        await self.open_conversation(None)
        self.post_message(app_messages.ConversationsChanged(current))
        await self.chat_log.notice("Archived; new conversation." if archive_current else "New conversation.")
        self.prompt.focus()

    @work(thread=True, group="chat-end")
    def archive_session(self, cid: str) -> None:
        transcript = self.services.history.export_markdown(cid)
        path: Path = self.services.project.archive_session(transcript)
        self.app.call_from_thread(self.notify, str(path), title="Session archived")

    # -- parts' messages -----------------------------------------------------------
    @on(MessageAction)
    async def _message_action(self, event: MessageAction) -> None:
        event.stop()
        await self.branches.act(event)

    @on(LatestConversation.Found)
    async def _latest_found(self, event: LatestConversation.Found) -> None:
        await self.query_one(LatestConversation).found(event)

    @on(ContextMeter.Measured)
    async def _context_measured(self, event: ContextMeter.Measured) -> None:
        await self.meter.measured(event)

    @on(PageLoaded)
    async def _page_loaded(self) -> None:
        await self.meter.place_marker()  # after the log mounted the page (it handled the message first)
