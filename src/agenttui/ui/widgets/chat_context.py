"""Honest context in the chat (issue 15 item 4): the meter, "older turns not sent", /compact.

A mixin of :class:`~agenttui.ui.widgets.chat_pane.ChatPane`.

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
from typing import TYPE_CHECKING, Any

from textual import work
from textual.content import Content
from textual.message import Message as TextualMessage
from textual.widgets import Static

from agenttui.core.context.compaction import ContextFigures
from agenttui.ui.inert import inert_line
from agenttui.ui.widgets.chat_log import ChatLog

if TYPE_CHECKING:
    from agenttui.bootstrap import Services


class NotSentMarker(Static):
    """``older turns not sent: N`` above the oldest message the last prompt held."""

    DEFAULT_CSS = "NotSentMarker { margin: 1 0 0 0; padding: 0 1; color: $text-warning; " \
                  "border-top: dashed $warning; }"

    def __init__(self, text: str) -> None:
        super().__init__(Content(text))


class SummaryView(Static):
    """A stored /compact summary in the log (sent instead of the messages before it)."""

    DEFAULT_CSS = "SummaryView { margin: 1 0 0 0; padding: 0 1; background: $surface; " \
                  "border-left: outer $accent; }"

    def __init__(self, text: str, message_id: int | None = None) -> None:
        from agenttui.core.visible_text import inert_text

        head = "Summary (/compact) — sent instead of the older messages above; they stay in History"
        super().__init__(Content.assemble((head, "bold"), "\n", inert_text(text)))
        self.message_id = message_id


class ContextMixin:
    context_figures: ContextFigures | None = None

    class ContextMeasured(TextualMessage):
        def __init__(self, conversation_id: str | None, figures: ContextFigures | None) -> None:
            super().__init__()
            self.conversation_id = conversation_id
            self.figures = figures

    # -- the meter and the marker ------------------------------------------------
    def measure_context(self) -> None:
        """Work out the figures of the open conversation's prompt (a thread; nothing is sent)."""
        pane: Any = self
        self._measure(pane.conversation_id)

    @work(group="chat-context", exclusive=True, exit_on_error=False)
    async def _measure(self, conversation_id: str | None) -> None:
        pane: Any = self
        result = None
        if conversation_id is not None:
            await self._after_start_up()
            result = await asyncio.to_thread(self._figures_now, pane.services, conversation_id)
        pane.post_message(self.ContextMeasured(conversation_id, result))

    async def _after_start_up(self) -> None:
        """At start-up the app prepares the first turn (imports, caches: agent/prepare.py); the
        meter waits for that rather than importing context assembly in front of it."""
        app: Any = getattr(self, "app", None)
        for _ in range(40):  # its preparation starts within ~1 s of the first frame
            if getattr(app, "_turn_ready", None) is not None or not hasattr(app, "first_turn_ready"):
                break
            await asyncio.sleep(0.05)
        ready = getattr(app, "first_turn_ready", None)
        if ready is not None:
            await ready()

    @staticmethod
    def _figures_now(services: Services, conversation_id: str) -> ContextFigures | None:
        from agenttui.core.context.assemble import assemble
        from agenttui.core.context.compaction import figures
        from agenttui.core.models import Message

        try:  # a draft with no words: no recall search, nothing sent anywhere, nothing written
            return figures(assemble(services, conversation_id, Message(role="user", content=""),
                                    mark_used=False, semantic=False))
        except Exception:  # noqa: BLE001 -- a meter is not worth a failure; the turn reports its own
            return None

    # Handlers by name: ``@on`` in a plain mixin is not collected (Textual reads it from
    # MessagePump subclasses' own namespaces only).
    async def on_context_mixin_context_measured(self, event: ContextMeasured) -> None:
        pane: Any = self
        if event.conversation_id == pane.conversation_id:
            await self.show_context(event.figures)

    async def show_context(self, figures: ContextFigures | None) -> None:
        pane: Any = self
        self.context_figures = figures
        app = pane.app
        app.context_meter = figures.meter() if figures is not None else None
        refresh = getattr(app, "refresh_header", None)
        if callable(refresh):
            refresh()
        await self._place_marker()

    async def on_chat_log_page_loaded(self, event: ChatLog.PageLoaded) -> None:
        await self._place_marker()  # after the log mounted the page (it handled the message first)

    async def _place_marker(self) -> None:
        pane: Any = self
        figures = self.context_figures
        log = pane.chat_log
        for old in list(log.query(NotSentMarker)):
            await old.remove()
        if figures is None or figures.not_sent <= 0 or figures.first_sent_id is None:
            return
        shown = [w for w in log.children if getattr(w, "message_id", None) is not None]
        target = next((w for w in shown if w.message_id == figures.first_sent_id), None)
        if target is None and not (shown and shown[0].message_id > figures.first_sent_id):
            return  # its page is not loaded yet: placed when it is
        # not loaded because everything shown was sent: the line goes on top, the rest is above
        await log.mount(NotSentMarker(figures.not_sent_text()), before=target or 0)

    # -- /compact -------------------------------------------------------------------
    async def compact(self) -> None:
        pane: Any = self
        if pane.streaming:
            pane.notify("A reply is still streaming: /compact after it.", severity="warning")
            return
        if pane.conversation_id is None:
            pane.notify("Nothing to compact yet.", severity="warning")
            return
        pane.notify("Asking the model for a summary of the older messages…", title="/compact")
        self._summarise(pane.conversation_id)

    @work(group="chat-compact", exclusive=True, exit_on_error=False)
    async def _summarise(self, conversation_id: str) -> None:
        from agenttui.agent.compact import CompactError, plan_for, summarise

        pane: Any = self
        services = pane.services
        try:
            plan = await asyncio.to_thread(plan_for, services, conversation_id)
            if plan is None:
                pane.notify("Nothing to compact: the conversation has only its newest two turns "
                            "(they stay verbatim).", title="/compact", severity="warning")
                return
            text = await summarise(services, plan)
        except CompactError as exc:
            pane.notify(str(exc), title="/compact failed", severity="error", timeout=20)
            return
        from agenttui.ui.screens.compact import CompactScreen

        async def answered(edited: str | None) -> None:
            if edited is None or pane.conversation_id != conversation_id:
                return
            await self._keep_summary(services, conversation_id, edited, plan)

        pane.app.push_screen(CompactScreen(text, plan.replaced, plan.dropped), answered)

    async def _keep_summary(self, services: Services, conversation_id: str, text: str, plan: Any) -> None:
        from agenttui.agent.compact import store_summary

        pane: Any = self
        stored = await asyncio.to_thread(store_summary, services, conversation_id, text, plan)
        await pane.chat_log.add(SummaryView(stored.content or "", stored.id))
        pane.chat_log.anchor()
        pane.notify(f"Summary kept: sent instead of {plan.replaced} older message(s) "
                    f"({inert_line(str(plan.first_id), 12)}…{plan.last_id}).", title="/compact")
        self.measure_context()
