"""The Chat pane: the message log, slash-command suggestions and the prompt.

Workers compute, messages carry, handlers mutate: the turn worker iterates
``agent.loop.run_turn`` through the turn controller (:mod:`agenttui.agent.turn`,
which holds the turn's state: what is sent, retry-of, the lookup it waits for,
stopping, the message kept on failure) and posts each event as
``AgentEventReceived``; the handler tells the controller and renders it (one
``match``, exhaustive by ``assert_never``). Text deltas go to the reply's view
(:class:`~agenttui.ui.widgets.message_view.AssistantMessage`: batched, appended
in order). The loop and the openai client are imported in the worker, after
the first frame.

An empty chat (no conversation open, nothing in the log) shows a short
welcome: what to type, where help is, that memory is used. It goes as soon as
anything is in the log.

A message sent while the profile's latest conversation is still being looked
up (a cold start opens the history store) waits for that lookup -- a few
milliseconds -- and goes into the latest conversation, as ``agenttui ask``
does, instead of starting a new one.

At the end of a turn the reply gets its "used: …" line from ``Trace.used``
(:mod:`.used_line`); selecting it opens the prompt inspector at those items,
and the inspector's answer (memory changed, open a past message) is carried
back as app messages. The usage is kept by the chat log for this session.

Once typing pauses for ``PREPARE_AFTER_S`` on a draft of a few words, a
thread worker works out its recall (:func:`agenttui.core.context.assemble.prepare`:
the lexical search is kept) and, with ``[recall] semantic`` on, embeds and
ranks it (:func:`agenttui.core.recall.semantic.prepare`), so the turn that sends it
goes from Enter to the request without searching or waiting for an embedding
round trip. With semantic off, nothing is sent anywhere.

A conversation deleted while it is open (the History pane, clear history)
is left at once: the chat shows a new, empty conversation and says so. One
deleted elsewhere (another window, ``agenttui history delete``) is noticed
when the next message is sent: that message starts a new conversation.

Enter -> the reply's first words is kept short (issue 9): the reply is mounted
with its first words in it (:meth:`AssistantMessage.streaming`); a short reply's
end (footer, history list, "used" line) is handled once the frame with its
first words is drawn; and the footer's "esc Stop" appears ``STOP_KEY_AFTER_S``
after Enter rather than at once (Esc works from Enter on): recomposing the
footer and laying the screen out again right as the first words arrive delayed
them by a frame or two. A reply over by then never shows it.

A message sent (Enter) while a reply streams is queued, not dropped: a line
above the prompt shows it, and it is sent when the reply ends (finished,
cancelled or failed), the next one after that reply, and so on. Opening or
starting another conversation puts queued text back into the prompt instead
of sending it somewhere the user did not write it for. Slash commands run at
once, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, assert_never

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message as TextualMessage
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Static

from agenttui.agent import events as ev
from agenttui.agent.turn import Turn, TurnController
from agenttui.core.recall.usage import RecallUsage
from agenttui.ui import messages as app_messages
from agenttui.ui.survivable_errors import dispatch_guarded
from agenttui.ui.widgets.chat_branches import ChatBranchesMixin
from agenttui.ui.widgets.chat_commands import SlashCommandsMixin, parse
from agenttui.ui.widgets.chat_context import ContextMixin
from agenttui.ui.widgets.chat_incognito import IncognitoMixin
from agenttui.ui.widgets.chat_log import ChatLog
from agenttui.ui.widgets.message_view import AssistantMessage, UserMessage
from agenttui.ui.widgets.prompt_input import PromptInput
from agenttui.ui.widgets.slash_commands import SlashSuggestions, completions
from agenttui.ui.widgets.thinking_block import ThinkingBlock
from agenttui.ui.widgets.tool_call_view import ToolCallView
from agenttui.ui.widgets.used_line import UsedLine

if TYPE_CHECKING:
    from agenttui.bootstrap import Services


LOOKUP_WAIT = 5.0  # seconds a message waits for the latest-conversation lookup at most
PREPARE_AFTER_S = 0.4  # a pause in typing this long embeds the draft ([recall] semantic)
PREPARE_MIN_WORDS = 3  # "ok thanks" is not worth a request; a question is
PREPARE_WAIT_S = 5.0  # the draft worker ends by then (the query timeout is 2 s)
UNSAVED_RETRY_S = 15.0  # how often messages the history refused are tried again
FIRST_WORDS_WAIT_S = 1.0  # the turn's end waits at most this long for the reply's first frame
STOP_KEY_AFTER_S = 0.25  # "esc Stop" shows in the footer this long after Enter (see the module doc)


def worth_preparing(text: str) -> bool:
    """A draft that will be sent as a message of a few words (not a slash command).

    Runs on every key: the split stops after ``PREPARE_MIN_WORDS`` words, so a
    pasted megabyte of prose costs no list of all its words per key.
    """
    return len(text.split(maxsplit=PREPARE_MIN_WORDS - 1)) >= PREPARE_MIN_WORDS and parse(text) is None


class ChatPane(ContextMixin, IncognitoMixin, ChatBranchesMixin, SlashCommandsMixin, Vertical):
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

    class ConversationStarted(TextualMessage):
        def __init__(self, conversation_id: str | None, opening: int = 0, if_untouched: bool = False) -> None:
            super().__init__()
            self.conversation_id = conversation_id
            self.opening = opening  # which open_latest call found it
            self.if_untouched = if_untouched

    async def _on_message(self, message: TextualMessage) -> None:
        # a bug in one handler is a notice; this widget keeps its loop and stays (survivable_errors)
        await dispatch_guarded(self, message, super()._on_message)

    def __init__(self, services: Services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self.border_title = "Chat"
        self.conversation_id: str | None = None
        # The turn's state (what is sent, retry-of, the lookup it waits for, stopping, the
        # message kept on failure, /attach, the queue): UI-free, shared with `agenttui ask`.
        self.turns = TurnController()
        self._reply: AssistantMessage | None = None
        self._reply_drawn: asyncio.Event | None = None  # set once the reply's first frame is drawn
        self._thinking: ThinkingBlock | None = None  # the reasoning streaming now (issue 9)
        self._tool_views: dict[str, ToolCallView] = {}
        self.last_reply_text = ""
        self.last_used: RecallUsage | None = None  # what the last turn used (F4 opens at it)
        self._prepare_timer: Timer | None = None  # [recall] semantic: the draft's debounce
        self.draft_prepared = ""  # the last draft whose preparation started (the debounce ran out)
        self._unsaved_timer: Timer | None = None  # retries messages the history refused
        self._stop_key_timer: Timer | None = None  # shows "esc Stop" in the footer (_set_streaming)

    DEFAULT_CSS = """
    ChatPane > #chat-welcome { display: none; height: 1fr; padding: 1 2; color: $text-muted; }
    ChatPane > #chat-queued { display: none; height: auto; max-height: 4; padding: 0 1; color: $text-muted; }
    ChatPane > #chat-queued.-shown { display: block; }
    ChatPane.-incognito { border: round $warning; border-title-color: $warning; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="chat-welcome", markup=False)
        yield ChatLog(self.services, id="chat-log")
        yield SlashSuggestions(id="slash-suggestions")
        yield Static(id="chat-queued", markup=False)
        yield PromptInput(id="prompt", placeholder="Message… (Enter sends, /help)")

    @property
    def chat_log(self) -> ChatLog:  # not `log`: that is Textual's logger on every widget
        return self.query_one(ChatLog)

    @property
    def prompt(self) -> PromptInput:
        return self.query_one(PromptInput)

    @property
    def stopping(self) -> bool:
        """Esc pressed: the turn is winding down (shown as cancelled already)."""
        return self.turns.stopping

    def on_mount(self) -> None:
        self.watch(self.chat_log, "empty", self._update_welcome, init=False)
        self.open_latest(if_untouched=True)

    # -- welcome (empty state) -------------------------------------------------
    def welcome_text(self) -> str:
        key = self.app.key_for if hasattr(self.app, "key_for") else (lambda _id: "")
        lines = [
            f"Type below; Enter sends ({key('chat.newline').split(',')[-1]}: new line).",
            f"/help or {key('app.help')}: commands and keys · ctrl+p: command palette.",
            "/remember <something> keeps a note that every later answer uses "
            f"(Memory pane: {key('app.toggle_memory')} · the prompt sent: {key('chat.inspect_prompt')}).",
            f"Past conversations: History pane ({key('app.toggle_history')}).",
        ]
        return "Welcome to agenttui.\n\n" + "\n".join(f"• {line}" for line in lines)

    def _update_welcome(self, _empty: bool = True) -> None:
        show = self.chat_log.empty and self.conversation_id is None and not self.turns.lookup.pending
        if show == self.has_class("-welcome"):
            return
        welcome = self.query_one("#chat-welcome", Static)
        if show:
            welcome.update(self.welcome_text())
        # The class marks the state only: styling by it restyled the whole pane (prompt, log and
        # all) when the first message hid the welcome, ~10 ms before the reply could show.
        self.set_class(show, "-welcome", update=False)
        welcome.display = show
        self.chat_log.styles.height = 0 if show else None  # None: the log's own CSS height again

    # -- conversations ---------------------------------------------------------
    def open_latest(self, *, if_untouched: bool = False) -> None:
        """Show the profile's latest conversation (looked up in a thread).

        The lookup may be slow on a cold start (it opens the history store); if
        the user opens a conversation or sends a message meanwhile, its answer
        is dropped rather than replacing what they started (or cancelling it).
        ``if_untouched`` (start-up): dropped too if anything is in the chat
        already, such as /help's text.
        """
        self._find_latest(self.turns.lookup.begin(), if_untouched)

    @work(thread=True, group="chat-open")
    def _find_latest(self, opening: int, if_untouched: bool) -> None:
        latest = self.services.history.latest_conversation()
        self.post_message(self.ConversationStarted(latest.id if latest else None, opening, if_untouched))

    @on(ConversationStarted)
    async def _conversation_started(self, event: ConversationStarted) -> None:
        try:
            await self._adopt_latest(event)
        finally:
            if self.turns.lookup.current(event.opening):
                self.turns.lookup.answered(event.opening)
                self._update_welcome()

    async def _adopt_latest(self, event: ConversationStarted) -> None:
        if not self.turns.lookup.current(event.opening):
            return
        if self.turns.waiting or (event.if_untouched and (self.conversation_id is not None or self.chat_log.children)):
            # Something is shown already (a message waiting to be sent, /help's text):
            # keep it, continue the latest conversation, its last page above it.
            if self.conversation_id is None and event.conversation_id is not None:
                self.conversation_id = event.conversation_id
                await self.chat_log.prepend_conversation(event.conversation_id)
            return
        await self.open_conversation(event.conversation_id, _lookup=True)

    async def open_conversation(self, conversation_id: str | None, message_id: int | None = None,
                                *, _lookup: bool = False) -> None:
        if not _lookup:  # the lookup's own opening keeps its number (its handler marks it done)
            self.turns.lookup.supersede()
        self.cancel_turn()
        self._unqueue_to_prompt()
        self.cancel_edit(keep_text=True)  # an edit of the conversation left behind
        self.conversation_id = conversation_id
        self.turns.forget_kept()
        self.can_retry = False
        self._reply = None
        self._thinking = None
        await self.chat_log.show_conversation(conversation_id, message_id)
        self._update_welcome()
        self.context_figures = None
        self.measure_context()  # the header's meter for this conversation (a thread; sends nothing)

    # -- prompt --------------------------------------------------------------
    @on(PromptInput.Changed)
    def _prompt_changed(self, event: PromptInput.Changed) -> None:
        self.query_one(SlashSuggestions).show(completions(event.text_area.text))
        self._prepare_later(self.prompt.message_text())  # long pastes as they will be sent

    def _prepare_later(self, text: str) -> None:
        """Work out the draft's recall once typing pauses (and embed it with ``[recall] semantic``)."""
        if self._prepare_timer is not None:
            self._prepare_timer.stop()
            self._prepare_timer = None
        if self.services.settings.recall.enabled and worth_preparing(text):
            self._prepare_timer = self.set_timer(PREPARE_AFTER_S, partial(self._draft_due, text))

    def _draft_due(self, text: str) -> None:
        self._prepare_timer = None
        self.draft_prepared = text
        self._prepare_draft(text)

    @work(thread=True, group="semantic-draft", exclusive=True, exit_on_error=False)
    def _prepare_draft(self, text: str) -> None:
        """The draft's recall, worked out in a thread before Enter (the module doc).

        Bounded by the draft's size, not by the paste: recall searches for a
        long message by its head and tail only (``recall_query``, at most
        ``RECALL_QUERY_MAX_CHARS``; the turn does the same, so what is kept here
        is what it looks up), the word count on each key stops at a few words
        (:func:`worth_preparing`), and the regexes on the way run in linear
        time. A thread alone would not do: ``re`` holds the GIL for a whole
        match, so a slow one froze the screen from a worker too. Exclusive: a
        new pause in typing cancels the previous draft's worker instead of
        queueing behind it.
        """
        from agenttui.core.context.assemble import prepare as prepare_recall
        from agenttui.core.recall.semantic import prepare
        from agenttui.core.recall.text import recall_query

        with contextlib.suppress(Exception):  # a warm-up only: the turn reports its own failures
            prepare_recall(self.services, self.conversation_id, text)  # as the turn will send it
        ready = prepare(self.services, recall_query(text.strip()))
        if ready is not None:  # waited for so the worker's end means "ready" (or given up)
            with contextlib.suppress(Exception):  # a failure is the turn's to report
                ready.result(timeout=PREPARE_WAIT_S)

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
        if await self.run_slash_command(event.text):
            return
        if self.editing is not None and not self.streaming:  # a new version of an earlier question
            await self.send_edit(event.text)
            return
        if self.streaming or self.turns.queued:  # after the reply (and what was queued before it)
            self.turns.queued.append(event.text)
            self._show_queued()
            return
        await self.send(event.text)

    def _show_queued(self) -> None:
        from agenttui.ui.inert import inert_line

        line = self.query_one("#chat-queued", Static)
        queued = self.turns.queued
        if queued:
            what = " · ".join(f"“{inert_line(text, 80)}”" for text in queued)
            head = "Queued" if len(queued) == 1 else f"{len(queued)} queued"
            line.update(f"⏳ {head}, sent when this reply ends: {what}")
        line.set_class(bool(queued), "-shown")

    async def _send_queued(self) -> None:
        text = None if self.streaming else self.turns.take_queued()
        if text is not None:
            self._show_queued()
            await self.send(text)

    def _unqueue_to_prompt(self) -> None:
        """Another conversation opens: queued text goes back to the prompt, not to that one."""
        if not self.turns.queued:
            return
        texts, self.turns.queued = self.turns.queued, []
        prompt = self.prompt
        draft = prompt.text
        prompt.load_text("\n".join(texts + ([draft] if draft.strip() else [])))
        prompt.move_cursor(prompt.document.end)
        self._show_queued()

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
        if show:
            await self.chat_log.add(UserMessage(text, image=turn.image is not None))
        self.chat_log.anchor()
        self.can_retry = False
        self._reply = None
        self._reply_drawn = None
        self._thinking = None
        self._tool_views = {}
        self._set_streaming(True)
        self._run_turn(turn)

    @work(group="chat-turn", exclusive=True, exit_on_error=False)
    async def _run_turn(self, turn: Turn) -> None:
        try:
            ready = getattr(self.app, "first_turn_ready", None)
            if ready is not None:  # the app is preparing the first turn: wait rather than race it
                await ready()
            await self.turns.conversation_ready(turn, LOOKUP_WAIT)
            if self.conversation_id is not None and not await asyncio.to_thread(
                    self._conversation_exists, self.conversation_id):
                moved = asyncio.Event()
                self.post_message(self._ConversationGone(turn, moved))
                await moved.wait()
            if self.conversation_id is None:
                conversation = await asyncio.to_thread(
                    self.services.history.create_conversation, None, self.services.model)
                self.conversation_id = conversation.id
                self.chat_log.conversation_id = conversation.id
            async for event in self.turns.events(self.services, self.conversation_id, turn):
                self.post_message(self.AgentEventReceived(event, turn.number))
        except Exception as exc:  # the loop reports faults as TurnFailed; this is a bug guard
            from agenttui.core.errors import explain  # e.g. no conversation: the disk is full

            why = explain(exc)
            if not why:  # a bug: where its crash log is, never a class name
                why = await asyncio.to_thread(_bug_text, exc, self.services.environ, self.incognito)
            self.post_message(self.AgentEventReceived(
                ev.TurnFailed("llm_error", why, ev.Trace(turn_id=""), None), turn.number))

    def _conversation_exists(self, conversation_id: str) -> bool:
        return self.services.history.get_conversation(conversation_id) is not None

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
            self._set_streaming(False)
        await self._leave_deleted("This conversation was deleted: what you send next starts a new one.")

    async def _leave_deleted(self, notice: str) -> None:
        self._unqueue_to_prompt()
        self.turns.lookup.supersede()  # a latest-conversation lookup still running must not reopen anything
        self.conversation_id = None
        self.turns.forget_kept()
        self.can_retry = False
        self._reply = None
        self._thinking = None
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
                if self._thinking is None:
                    self._thinking = await self.chat_log.add(ThinkingBlock())
                self._thinking.write(event.text)
            case ev.TextDelta():
                await self._show_text(event.text)
            case ev.ToolCallStarted():
                await self._close_reply()
                view = ToolCallView(event.call)
                self._tool_views[event.call.id] = view
                await self.chat_log.add(view)
            case ev.ToolCallFinished():
                finished = self._tool_views.get(event.call.id)
                status = "denied" if event.denied else ("ok" if event.ok else "failed")
                if finished is not None:
                    finished.set_status(status, event.output)
            case ev.ApprovalRequested():
                self._ask_approval(event)
            case ev.MemoryChanged():
                self._memory_event(event)
            case ev.RetryScheduled():  # one toast, the latest attempt's (issue 12 item 18)
                from agenttui.ui.toasts import dismiss_toasts

                dismiss_toasts(self.app, "Model call failed")
                self.notify(f"{event.reason}\nRetrying in {event.delay:.0f} s (attempt {event.attempt}).",
                            title="Model call failed", severity="warning")
            case ev.PersistWarning():
                self.notify(event.text, title="History not saved yet", severity="warning")
            case ev.RequestFallback():  # once per endpoint and model: in the chat
                await self.chat_log.notice(event.text)
            case ev.TurnFinished():
                await self._turn_finished(turn, event)
            case ev.TurnFailed():
                await self._turn_failed(turn, event)
            case _:
                assert_never(event)

    async def _show_text(self, text: str) -> None:
        self._end_thinking()
        if self._reply is None:  # mounted with its first words: one parse, one frame
            self._reply = await self.chat_log.add(AssistantMessage.streaming(text))
            self._reply_drawn = asyncio.Event()
            self._reply.call_after_refresh(self._reply_drawn.set)
        else:
            await self._reply.write(text)

    async def _turn_ended(self, event: ev.TurnFinished | ev.TurnFailed) -> AssistantMessage | None:
        """What both ends show: the reply closed, the "used" line, the context meter. The reply's view."""
        reply = self._reply
        stored = event.reply if isinstance(event, ev.TurnFinished) else event.partial
        await self._first_words_drawn()
        await self._turn_over()
        await self._show_used(reply, stored, event.trace)
        if isinstance(event, ev.TurnFinished) and reply is not None and stored is not None \
                and reply.message_id is None:
            reply.message_id = stored.id
        if event.trace.context is not None:  # the header's meter, "older turns not sent"
            await self.show_context(event.trace.context)
        return reply

    async def _turn_finished(self, turn: Turn, event: ev.TurnFinished) -> None:
        reply = await self._turn_ended(event)
        saved = await self._show_as_saved(reply, event.reply)
        if event.stop_reason == "cancelled":
            if turn.stopped:  # marked when Esc was pressed: one marker
                self._cancel_shown(turn)
            else:
                if reply is not None:
                    reply.mark_incomplete("cancelled")
                await self._cancelled_notice()
        elif event.stop_reason != "success":
            await self.chat_log.notice(f"Stopped: {event.stop_reason.replace('_', ' ')}.", error=True)
        if saved:
            self.last_reply_text = saved
        # /end: only a turn that ran to its end (not stopped, not cut by a limit) archives the
        # session, and it archives its own conversation, whatever is open by then
        if turn.then_archive and event.stop_reason == "success" and turn.conversation_id is not None:
            self._archive_session(turn.conversation_id)

    async def _turn_failed(self, turn: Turn, event: ev.TurnFailed) -> None:
        reply = await self._turn_ended(event)
        await self._show_as_saved(reply, event.partial)
        shown = turn.stopped and event.stop_reason == "cancelled"  # marked when Esc was pressed
        if reply is not None and event.partial is not None and not shown:
            reply.mark_incomplete(event.partial.incomplete_reason or event.stop_reason)
        if shown:
            self._cancel_shown(turn)
        elif event.stop_reason == "cancelled":
            await self._cancelled_notice()
        else:
            hint = f"  Press {self._retry_key()} to retry." if event.retryable else ""
            await self.chat_log.notice(f"{event.error}{hint}", error=True)
            self.can_retry = self.turns.kept is not None  # the message is kept: it can be sent again

    async def _first_words_drawn(self) -> None:
        """Wait (at most ``FIRST_WORDS_WAIT_S``) for the frame showing the reply's first words.

        A fast endpoint sends a short reply's end right behind its first words: the
        turn's end (footer, history list, "used" line, the saved text) was handled
        before that frame was drawn and delayed it by tens of ms. Text comes first;
        a reply already on screen does not wait at all.
        """
        drawn = self._reply_drawn
        if drawn is not None and not drawn.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(drawn.wait(), FIRST_WORDS_WAIT_S)

    async def _show_as_saved(self, view: AssistantMessage | None, stored) -> str | None:
        """The reply as history keeps it, secrets marked (issue 12 item 14); its text, or None."""
        if stored is None or not stored.content:
            return None
        from agenttui.security import redact_secrets

        saved = redact_secrets(stored.content, tuple(self.services.history.redact_patterns))
        if view is not None:
            await view.show_saved(saved)
        return saved

    async def _show_used(self, view: AssistantMessage | None, stored, trace: ev.Trace) -> None:
        """The "used: …" line under the turn's reply, kept for this session (see ``used_line``)."""
        usage = trace.used
        if usage is None:
            return
        self.last_used = usage
        if view is None:
            return
        await view.show_used(usage)
        reply_id = getattr(stored, "id", None)
        if reply_id is not None and self.conversation_id is not None:
            self.chat_log.remember_used(self.conversation_id, reply_id, usage)

    # -- what a reply used: the prompt inspector -------------------------------
    @on(UsedLine.Selected)
    def _used_selected(self, event: UsedLine.Selected) -> None:
        event.stop()
        self.open_inspector(event.usage)

    def open_inspector(self, usage: RecallUsage | None = None, *, last: bool = False) -> None:
        """The prompt inspector at what ``usage`` (or, with ``last``, the last turn) used."""
        from agenttui.agent.prompt_capture import last_prompt
        from agenttui.ui.screens.prompt_inspector import InspectorResult, PromptInspectorScreen

        if usage is None and last:
            usage = self.last_used

        async def closed(result: InspectorResult | None) -> None:
            if result is None:
                return
            if result.memory_changed:
                self.post_message(app_messages.MemoryChanged())
            if result.open_message is not None:
                conversation_id, message_id = result.open_message
                self.post_message(app_messages.ConversationRequested(conversation_id, message_id))

        screen = PromptInspectorScreen(last_prompt(self.services), usage, services=self.services)
        self.app.push_screen(screen, closed)

    def _end_thinking(self) -> None:
        if self._thinking is not None:
            self._thinking.finish()
            self._thinking = None

    async def _close_reply(self) -> None:
        self._end_thinking()
        if self._reply is not None:
            await self._reply.finish()
            self._reply = None

    def _set_streaming(self, on: bool) -> None:
        """``streaming``; the footer shows "esc Stop" ``STOP_KEY_AFTER_S`` after Enter (module doc)."""
        if self._stop_key_timer is not None:
            self._stop_key_timer.stop()
            self._stop_key_timer = None
        if on:
            self.set_reactive(ChatPane.streaming, True)  # Esc stops it now; the footer is told later
            self._stop_key_timer = self.set_timer(STOP_KEY_AFTER_S, self._show_stop_key)
        else:
            self.streaming = False  # the footer recomposes only if it showed Esc (AppFooter)

    def _show_stop_key(self) -> None:
        self._stop_key_timer = None
        self.refresh_bindings()

    async def _turn_over(self) -> None:
        await self._close_reply()
        self._set_streaming(False)
        self._show_unsaved()
        if self.turns.queued:
            self.call_later(self._send_queued)  # once this turn's end is shown
        self.post_message(app_messages.ConversationsChanged(self.conversation_id))

    def _show_unsaved(self) -> None:
        """Messages the history refused (full disk, locked) stay visible as unsaved, and
        are retried every UNSAVED_RETRY_S, until they are saved (issue 11)."""
        from agenttui.agent.loop import pending_count

        count = pending_count(self.services)
        self.border_subtitle = f"⚠ {count} message(s) not saved to history yet, retrying" if count else ""
        if count and self._unsaved_timer is None:
            self._unsaved_timer = self.set_interval(UNSAVED_RETRY_S, self._retry_unsaved)
        elif not count and self._unsaved_timer is not None:
            self._unsaved_timer.stop()
            self._unsaved_timer = None

    @work(thread=True, group="chat-unsaved", exclusive=True, exit_on_error=False)
    def _retry_unsaved(self) -> None:
        from agenttui.agent.loop import flush_pending

        if not self.streaming:  # a turn flushes by itself first
            flush_pending(self.services)
        self.app.call_from_thread(self._show_unsaved)

    def _ask_approval(self, request: ev.ApprovalRequested) -> None:
        from agenttui.ui.screens.approval import ApprovalScreen

        view = self._tool_views.get(request.call.id)
        if view is not None:
            view.set_status("waiting")

        def answered(approved: bool | None) -> None:
            if not request.future.done():
                request.future.set_result(bool(approved))

        self.app.push_screen(ApprovalScreen(request), answered)

    def _memory_event(self, event: ev.MemoryChanged) -> None:
        if event.action == "written":
            self.notify(event.text, title="Remembered")
            self.post_message(app_messages.MemoryChanged())
            item = event.result.item
            if item is not None and item.source in ("correction", "model", "extraction"):
                self.post_message(app_messages.MemoryOffered(event.text, event.result))  # Undo row
        elif event.action == "blocked":
            self.notify(f"{event.text}\n{event.result.reason}", title="Memory write blocked", severity="error")
        elif event.action in ("offered", "pending"):
            self.post_message(app_messages.MemoryOffered(event.text, event.result))

    # -- actions reached through App bindings --------------------------------
    def cancel_turn(self) -> bool:
        return self.turns.cancel()

    def stop_turn(self) -> None:
        """The user's Esc: cancel, and show it at once with one marker (issue 12 item 15).

        The loop takes a moment to wind down (it closes the stream, saves what came);
        meanwhile the reply is marked cancelled (or, before any reply text, one notice
        says so), no more text is shown and Esc leaves the footer.
        """
        if not self.streaming and self.cancel_edit():  # Esc while editing an earlier question
            return
        if not self.streaming or not self.turns.stop():
            return
        self.app.refresh_bindings()
        hint = f"{self._retry_key()} asks again"
        if self._reply is not None:
            self._reply.mark_incomplete(f"cancelled · {hint}")
        else:
            self.call_later(self.chat_log.notice, f"Cancelled. {hint}.")

    def _cancel_shown(self, turn: Turn) -> None:
        """The turn Esc stopped has ended: the question can be asked again (now, if ctrl+r waited)."""
        self.can_retry = self.turns.kept is not None
        if turn.retry_when_stopped:
            turn.retry_when_stopped = False
            self.call_later(self.retry)

    def _retry_key(self) -> str:
        return self.app.key_for("chat.retry") if hasattr(self.app, "key_for") else "ctrl+r"

    async def _cancelled_notice(self) -> None:
        self.can_retry = self.turns.kept is not None  # the cut question can be asked again
        await self.chat_log.notice(f"Cancelled. {self._retry_key()} asks again.")

    async def retry(self) -> None:
        """Ask the last message again after a failed or cancelled reply; after a finished one,
        regenerate it (issue 15: the new answer is a sibling, the old one kept); with nothing
        to answer again, say what the key does."""
        turn, kept = self.turns.turn, self.turns.kept
        if self.streaming and turn is not None and turn.stopped:  # Esc was pressed: asked again
            turn.retry_when_stopped = True  # once it has wound down
        elif self.streaming:
            self.notify("A reply is still streaming: Esc stops it, then "
                        f"{self._retry_key()} asks again.", severity="warning")
        elif self.can_retry and kept is not None:
            if kept.retry_of is not None:  # the stored question is answered again; the cut
                await self.regenerate(kept.retry_of, kept.text)  # reply is a sibling now
            else:  # cut before it was stored: sent afresh (it is shown already)
                await self.send(kept.text, show=False)
        elif await self.regenerate_last():  # a finished reply: answered again, both kept
            pass
        else:
            self.notify("Nothing to retry yet: it asks again after a reply that failed or was "
                        "cancelled, and regenerates a finished one.")

    def copy_last_reply(self) -> None:
        reply = self.chat_log.last_reply()
        raw = self.last_reply_text or (reply.text if reply else "")
        if not raw:
            self.notify("No reply to copy yet.", severity="warning")
            return
        # What is copied is what is shown: the raw reply may hold ESC, OSC 52 or C1
        # sequences the screen shows inert, and a later paste into a terminal would run them.
        from agenttui.ui.inert import inert

        text = inert(raw)
        self.app.copy_to_clipboard(text)
        self.notify(f"Copied {len(text)} characters.")

    async def new_conversation(self, archive_current: bool = False) -> None:
        current = self.conversation_id
        if archive_current and current is not None:
            await asyncio.to_thread(self.services.history.archive, current)
        await self.open_conversation(None)
        self.post_message(app_messages.ConversationsChanged(current))
        await self.chat_log.notice("Archived; new conversation." if archive_current else "New conversation.")
        self.prompt.focus()

    @work(thread=True, group="chat-end")
    def _archive_session(self, cid: str) -> None:
        transcript = self.services.history.export_markdown(cid)
        path: Path = self.services.project.archive_session(transcript)
        self.app.call_from_thread(self.notify, str(path), title="Session archived")


def _bug_text(exc: Exception, environ: Mapping[str, str], incognito: bool = False) -> str:
    """What the chat says when a turn broke on a bug: where the details are, not a class name."""
    if incognito:  # incognito writes no file, not even a crash log
        return (f"Something went wrong in agenttui and the reply stopped ({type(exc).__name__}). "
                "Incognito writes no crash log: do the same outside incognito to get one.")
    from agenttui.core.crash_log import write_crash_log

    log = write_crash_log(exc, ("tui",), environ)  # the profile's environment: its state dir
    where = f"The details are in {log} (secrets redacted)." if log else "No crash log could be written."
    return f"Something went wrong in agenttui and the reply stopped. {where}"
