"""What one turn shows in the chat log: the reply as it streams, its reasoning, tool calls,
approvals, memory toasts, the saved text and the "used: …" line.

:class:`TurnView` is a helper the Chat pane holds (``chat.turn_view``); the pane's
event handler (one ``match`` over the agent's events) calls it. Text deltas go
to the reply's view (:class:`~agenttui.ui.widgets.message_view.AssistantMessage`:
batched, appended in order). The reply is mounted with its first words in it
(:meth:`AssistantMessage.streaming`), and a short reply's end waits (at most
``FIRST_WORDS_WAIT_S``) for the frame with its first words to be drawn, so
Enter -> the reply's first words stays short.

At the end of a turn the reply gets its "used: …" line from ``Trace.used``
(:mod:`.used_line`); selecting it opens the prompt inspector at those items,
and the inspector's answer (memory changed, open a past message) is carried
back as app messages. The usage is kept by the chat log for this session.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from agenttui.agent import events as ev
from agenttui.ui import messages as app_messages
from agenttui.ui.widgets.message_view import AssistantMessage
from agenttui.ui.widgets.thinking_block import ThinkingBlock
from agenttui.ui.widgets.tool_call_view import ToolCallView

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel

    from agenttui.bootstrap import Services
    from agenttui.core.recall.usage import RecallUsage
    from agenttui.ui.widgets.chat_log import ChatLog

FIRST_WORDS_WAIT_S = 1.0  # the turn's end waits at most this long for the reply's first frame


class TurnChat(Protocol):
    """What a turn's view reads and uses of the Chat pane."""

    services: Services
    conversation_id: str | None

    @property
    def app(self) -> App[Any]: ...
    @property
    def chat_log(self) -> ChatLog: ...

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None: ...
    def post_message(self, message: Any) -> bool: ...


class TurnView:
    def __init__(self, chat: TurnChat) -> None:
        self._chat = chat
        self.reply: AssistantMessage | None = None  # the reply streaming now
        self._reply_drawn: asyncio.Event | None = None  # set once the reply's first frame is drawn
        self._thinking: ThinkingBlock | None = None  # the reasoning streaming now
        self._tool_views: dict[str, ToolCallView] = {}
        self.last_used: RecallUsage | None = None  # what the last turn used (F4 opens at it)
        self.last_reply_text = ""  # the last reply as history keeps it (ctrl+o copies it)

    def reset(self) -> None:
        """A new turn, or another conversation: nothing of the last turn is written to any more."""
        self.reply = None
        self._reply_drawn = None
        self._thinking = None
        self._tool_views = {}

    def forget_reply(self) -> None:
        """Another conversation opens: the last turn's reply and reasoning are not written to."""
        self.reply = None
        self._thinking = None

    # -- while it streams -----------------------------------------------------------
    async def show_text(self, text: str) -> None:
        self.end_thinking()
        if self.reply is None:  # mounted with its first words: one parse, one frame
            self.reply = await self._chat.chat_log.add(AssistantMessage.streaming(text))
            self._reply_drawn = asyncio.Event()
            self.reply.call_after_refresh(self._reply_drawn.set)
        else:
            await self.reply.write(text)

    async def show_reasoning(self, text: str) -> None:
        if self._thinking is None:
            self._thinking = await self._chat.chat_log.add(ThinkingBlock())
        self._thinking.write(text)

    async def tool_started(self, event: ev.ToolCallStarted) -> None:
        await self.close_reply()
        view = ToolCallView(event.call)
        self._tool_views[event.call.id] = view
        await self._chat.chat_log.add(view)

    def tool_finished(self, event: ev.ToolCallFinished) -> None:
        finished = self._tool_views.get(event.call.id)
        status = "denied" if event.denied else ("ok" if event.ok else "failed")
        if finished is not None:
            finished.set_status(status, event.output)

    def ask_approval(self, request: ev.ApprovalRequested) -> None:
        from agenttui.ui.screens.approval import ApprovalScreen

        view = self._tool_views.get(request.call.id)
        if view is not None:
            view.set_status("waiting")

        def answered(approved: bool | None) -> None:
            if not request.future.done():
                request.future.set_result(bool(approved))
                if approved and view is not None:  # it runs now: no longer "awaiting approval"
                    view.set_status("running")

        self._chat.app.push_screen(ApprovalScreen(request), answered)

    def memory_event(self, event: ev.MemoryChanged) -> None:
        chat = self._chat
        if event.action == "written":
            chat.notify(event.text, title="Remembered")
            chat.post_message(app_messages.MemoryChanged())
            item = event.result.item
            if item is not None and item.source in ("correction", "model", "extraction"):
                chat.post_message(app_messages.MemoryOffered(event.text, event.result))  # Undo row
        elif event.action == "blocked":
            chat.notify(f"{event.text}\n{event.result.reason}", title="Memory write blocked", severity="error")
        elif event.action in ("offered", "pending"):
            chat.post_message(app_messages.MemoryOffered(event.text, event.result))

    def tools_ended(self) -> None:
        """The turn ended: a call still running was stopped mid-way, one still awaiting approval
        never ran (the loop stored the same outcomes; without this they said "…" for good)."""
        for view in self._tool_views.values():
            if view.status in ("running", "waiting"):
                view.set_status("stopped" if view.status == "running" else "not run")

    def end_thinking(self) -> None:
        if self._thinking is not None:
            self._thinking.finish()
            self._thinking = None

    async def close_reply(self) -> None:
        self.end_thinking()
        if self.reply is not None:
            await self.reply.finish()
            self.reply = None

    # -- at its end -------------------------------------------------------------------
    async def first_words_drawn(self) -> None:
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

    async def show_as_saved(self, view: AssistantMessage | None, stored: Any) -> str | None:
        """The reply as history keeps it, secrets marked; its text, or None."""
        if stored is None or not stored.content:
            return None
        from agenttui.security import redact_secrets

        saved = redact_secrets(stored.content, tuple(self._chat.services.history.redact_patterns))
        if view is not None:
            await view.show_saved(saved)
        return saved

    async def show_used(self, view: AssistantMessage | None, stored: Any, trace: ev.Trace) -> None:
        """The "used: …" line under the turn's reply, kept for this session (see ``used_line``)."""
        usage = trace.used
        if usage is None:
            return
        self.last_used = usage
        if view is None:
            return
        await view.show_used(usage)
        reply_id = getattr(stored, "id", None)
        conversation_id = self._chat.conversation_id
        if reply_id is not None and conversation_id is not None:
            self._chat.chat_log.used.remember(conversation_id, reply_id, usage)

    def copy_last_reply(self) -> None:
        chat = self._chat
        reply = chat.chat_log.last_reply()
        raw = self.last_reply_text or (reply.text if reply else "")
        if not raw:
            chat.notify("No reply to copy yet.", severity="warning")
            return
        # What is copied is what is shown: the raw reply may hold ESC, OSC 52 or C1
        # sequences the screen shows inert, and a later paste into a terminal would run them.
        from agenttui.ui.inert import inert

        text = inert(raw)
        chat.app.copy_to_clipboard(text)
        chat.notify(f"Copied {len(text)} characters.")

    def open_inspector(self, usage: RecallUsage | None = None, *, last: bool = False) -> None:
        """The prompt inspector at what ``usage`` (or, with ``last``, the last turn) used."""
        from agenttui.agent.prompt_capture import last_prompt
        from agenttui.ui.screens.prompt_inspector import InspectorResult, PromptInspectorScreen

        chat = self._chat
        if usage is None and last:
            usage = self.last_used

        async def closed(result: InspectorResult | None) -> None:
            if result is None:
                return
            if result.memory_changed:
                chat.post_message(app_messages.MemoryChanged())
            if result.open_message is not None:
                conversation_id, message_id = result.open_message
                chat.post_message(app_messages.ConversationRequested(conversation_id, message_id))

        screen = PromptInspectorScreen(last_prompt(chat.services), usage, services=chat.services)
        chat.app.push_screen(screen, closed)


def bug_text(exc: Exception, environ: Mapping[str, str], incognito: bool = False) -> str:
    """What the chat says when a turn broke on a bug: where the details are, not a class name."""
    if incognito:  # incognito writes no file, not even a crash log
        return (f"Something went wrong in agenttui and the reply stopped ({type(exc).__name__}). "
                "Incognito writes no crash log: do the same outside incognito to get one.")
    from agenttui.core.crash_log import write_crash_log

    log = write_crash_log(exc, ("tui",), environ)  # the profile's environment: its state dir
    where = f"The details are in {log} (secrets redacted)." if log else "No crash log could be written."
    return f"Something went wrong in agenttui and the reply stopped. {where}"
