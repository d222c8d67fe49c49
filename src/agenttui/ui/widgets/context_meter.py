"""Honest context in the chat: the meter, "older turns not sent", /compact.

:class:`ContextMeter` is a hidden child widget of the Chat pane: it owns the
workers, reads the pane through :class:`MeteredChat`, and posts its figures to
the pane (handled on the pane's queue, between its other handlers), which hands
them back to :meth:`ContextMeter.measured`.

* **Meter.** After every request (``Trace.context``, set by the loop from
  context assembly) and when a conversation opens (the same assembly for an
  empty draft, in a thread, sending nothing), the header shows
  ``context 3.2k/16k``: this prompt's tokens against the prompt budget.
* **Not sent.** When older user/assistant messages were left out of that
  prompt, one line -- ``older turns not sent: N`` -- sits in the log right
  above the oldest message that was sent (at the top when that one is not
  loaded); there is never more than one.
* **/compact** summarises every message before the newest two user turns
  through the model (:mod:`agenttui.agent.compact`), shows the summary for
  editing (:class:`~agenttui.ui.screens.compact.CompactScreen`) and, on Save,
  stores it as a message the log shows as a :class:`SummaryView`; from then
  on it is sent instead of the messages it covers.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from textual import work
from textual.message import Message as TextualMessage
from textual.widget import Widget

from agenttui.core.context.compaction import ContextFigures
from agenttui.ui.host import app_parts
from agenttui.ui.inert import inert_line
from agenttui.ui.widgets.chat_context import NotSentMarker, SummaryView

if TYPE_CHECKING:
    from agenttui.bootstrap import Services
    from agenttui.ui.widgets.chat_log import ChatLog

START_UP_POLLS = 40  # x 0.05 s: the app begins preparing the first turn within ~1 s of the first frame


class MeteredChat(Protocol):
    """What the meter reads of the Chat pane."""

    services: Services
    conversation_id: str | None

    @property
    def chat_log(self) -> ChatLog: ...
    @property
    def streaming(self) -> bool: ...

    def post_message(self, message: TextualMessage) -> bool: ...


class ContextMeter(Widget):
    DEFAULT_CSS = "ContextMeter { display: none; }"

    class Measured(TextualMessage, bubble=False):  # posted to the chat pane
        def __init__(self, conversation_id: str | None, figures: ContextFigures | None) -> None:
            super().__init__()
            self.conversation_id = conversation_id
            self.figures = figures

    def __init__(self, chat: MeteredChat, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._chat = chat
        self.figures: ContextFigures | None = None  # of the last prompt measured or sent

    # -- the meter and the marker ------------------------------------------------
    def measure(self) -> None:
        """Work out the figures of the open conversation's prompt (a thread; nothing is sent)."""
        self._measure(self._chat.conversation_id)

    @work(group="chat-context", exclusive=True, exit_on_error=False)
    async def _measure(self, conversation_id: str | None) -> None:
        result = None
        if conversation_id is not None:
            await self._after_start_up()
            result = await asyncio.to_thread(_figures_now, self._chat.services, conversation_id)
        self._chat.post_message(self.Measured(conversation_id, result))

    async def _after_start_up(self) -> None:
        """At start-up the app prepares the first turn (imports, caches: agent/prepare.py); the
        meter waits for that rather than importing context assembly in front of it."""
        parts = app_parts(self)
        for _ in range(START_UP_POLLS):
            if parts.turn_preparation_started:
                break
            await asyncio.sleep(0.05)
        await parts.first_turn_ready()

    async def measured(self, event: Measured) -> None:
        if event.conversation_id == self._chat.conversation_id:
            await self.show(event.figures)

    async def show(self, figures: ContextFigures | None) -> None:
        self.figures = figures
        parts = app_parts(self)
        parts.context_meter = figures.meter() if figures is not None else None
        parts.refresh_header()
        await self.place_marker()

    async def place_marker(self) -> None:
        figures = self.figures
        log = self._chat.chat_log
        for old in list(log.query(NotSentMarker)):
            await old.remove()
        if figures is None or figures.not_sent <= 0 or figures.first_sent_id is None:
            return
        shown = [w for w in log.children if getattr(w, "message_id", None) is not None]
        target = next((w for w in shown if w.message_id == figures.first_sent_id), None)  # type: ignore[attr-defined]
        if target is None and not (shown and shown[0].message_id > figures.first_sent_id):  # type: ignore[attr-defined]
            return  # its page is not loaded yet: placed when it is
        # not loaded because everything shown was sent: the line goes on top, the rest is above
        await log.mount(NotSentMarker(figures.not_sent_text()), before=target or 0)

    # -- /compact -------------------------------------------------------------------
    async def compact(self) -> None:
        chat = self._chat
        if chat.streaming:
            self.notify("A reply is still streaming: /compact after it.", severity="warning")
            return
        if chat.conversation_id is None:
            self.notify("Nothing to compact yet.", severity="warning")
            return
        self.notify("Asking the model for a summary of the older messages…", title="/compact")
        self._summarise(chat.conversation_id)

    @work(group="chat-compact", exclusive=True, exit_on_error=False)
    async def _summarise(self, conversation_id: str) -> None:
        from agenttui.agent.compact import CompactError, plan_for, summarise

        services = self._chat.services
        try:
            plan = await asyncio.to_thread(plan_for, services, conversation_id)
            if plan is None:
                self.notify("Nothing to compact: the conversation has only its newest two turns "
                            "(they stay verbatim).", title="/compact", severity="warning")
                return
            text = await summarise(services, plan)
        except CompactError as exc:
            self.notify(str(exc), title="/compact failed", severity="error", timeout=20)
            return
        from agenttui.ui.screens.compact import CompactScreen

        async def answered(edited: str | None) -> None:
            if edited is None or self._chat.conversation_id != conversation_id:
                return
            await self._keep_summary(services, conversation_id, edited, plan)

        self.app.push_screen(CompactScreen(text, plan.replaced, plan.dropped), answered)

    async def _keep_summary(self, services: Services, conversation_id: str, text: str, plan: Any) -> None:
        from agenttui.agent.compact import store_summary

        stored = await asyncio.to_thread(store_summary, services, conversation_id, text, plan)
        log = self._chat.chat_log
        await log.add(SummaryView(stored.content or "", stored.id))
        log.anchor()
        self.notify(f"Summary kept: sent instead of {plan.replaced} older message(s) "
                    f"({inert_line(str(plan.first_id), 12)}…{plan.last_id}).", title="/compact")
        self.measure()


def _figures_now(services: Services, conversation_id: str) -> ContextFigures | None:
    from agenttui.core.context.assemble import assemble
    from agenttui.core.context.compaction import figures
    from agenttui.core.models import Message

    try:  # a draft with no words: no recall search, nothing sent anywhere, nothing written
        return figures(assemble(services, conversation_id, Message(role="user", content=""),
                                mark_used=False, semantic=False))
    except Exception:  # noqa: BLE001 -- a meter is not worth a failure; the turn reports its own
        return None
