"""The open conversation's running usage total in the header: ``Σ 12.3k tok · $0.0214``.

A hidden child widget of the Chat pane, as the context meter is: the pane calls
:meth:`UsageTotal.measure` when a conversation opens and when a turn ends; the total
is read in a thread from the conversation's running sums
(``HistoryStore.conversation_usage``: one row, kept by schema v9's triggers) and
handed to the header (``AppParts.usage_total``). Nothing shows until the conversation
has a reply with usage. Costs say ``+`` when some replies' models have no price
(tokens counted, cost unknown) and ``~`` when some counts are estimates.

A reply is priced after it is stored (the price table loads off the turn's way,
``core/usage/pricing``): while some replies of the conversation are still unpriced the
total is read again a few times, ``REPRICE_AFTER_S`` apart, so the cost appears once known.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from textual import work
from textual.widget import Widget

from agenttui.core.usage.message_usage import format_cost
from agenttui.ui.header_line import UsageLabel
from agenttui.ui.host import app_parts

REPRICE_AFTER_S = 2.0
REPRICE_READS = 5  # then the next turn's end or opening reads it again


class TotalledChat(Protocol):
    """What the total reads of the Chat pane (its services are the incognito twin while incognito)."""

    services: Any
    conversation_id: str | None


def compact_tokens(count: int) -> str:
    if count < 1_000:
        return str(count)
    if count < 1_000_000:
        return f"{count / 1_000:.1f}k"
    return f"{count / 1_000_000:.1f}M"


def usage_label(total: Any) -> UsageLabel | None:
    """The parts of a :class:`~agenttui.core.usage.totals.UsageTotal` the header shows (None: no reply)."""
    if not total.replies:
        return None
    approx = "~" if total.estimated else ""
    tokens = approx + compact_tokens(total.prompt_tokens + total.completion_tokens)
    if total.replies == total.unpriced:
        return UsageLabel(tokens)
    more = "+" if total.unpriced else ""
    return UsageLabel(tokens, f"{format_cost(total.cost)}{more}")


def total_label(total: Any) -> str:
    """``Σ 12.3k tok · $0.0214`` for a :class:`~agenttui.core.usage.totals.UsageTotal` ("" if empty)."""
    label = usage_label(total)
    return label.long() if label is not None else ""


class UsageTotal(Widget):
    DEFAULT_CSS = "UsageTotal { display: none; }"

    def __init__(self, chat: TotalledChat, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._chat = chat
        self.label = ""  # what the header shows when there is room ("" : nothing)

    def measure(self) -> None:
        """Read the open conversation's total again (a thread worker; the header follows)."""
        self._measure(self._chat.conversation_id)

    @work(group="usage-total", exclusive=True, exit_on_error=False)
    async def _measure(self, conversation_id: str | None) -> None:
        history = self._chat.services.history
        for read in range(REPRICE_READS + 1):
            if read:
                await asyncio.sleep(REPRICE_AFTER_S)
            total = None
            if conversation_id is not None:
                try:
                    total = await asyncio.to_thread(history.conversation_usage, conversation_id)
                except Exception:  # noqa: BLE001 -- a busy, old or damaged store costs the label, never the app
                    total = None
            if conversation_id != self._chat.conversation_id:
                return  # another conversation opened meanwhile: its own read shows it
            self._show(usage_label(total) if total is not None else None)
            if total is None or not total.unpriced:
                return  # unpriced after every read: models the price table does not know ('+' says so)

    def _show(self, usage: UsageLabel | None) -> None:
        label = usage.long() if usage is not None else ""
        if label == self.label:
            return
        self.label = label
        parts = app_parts(self)
        parts.usage_total = usage
        parts.refresh_header()
