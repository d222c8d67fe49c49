"""A compact running total of this session's replies for a header or footer: ``Σ 12.3k tok · $0.0214``.

Self-contained: given the history store, it re-reads the total of the replies stored
since the widget was mounted (``HistoryStore.usage_totals(since=…)``: the day's running
sums plus that day's rows, a few milliseconds) in a thread worker every
``REFRESH_SECONDS``, so it needs no event from the chat pane. Hidden until a reply with
usage exists. Costs say ``+`` when some replies' models have no price (tokens counted,
cost unknown) and ``~`` when some counts are estimates.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from textual import work
from textual.widgets import Static

from agenttui.core.usage.message_usage import format_cost

REFRESH_SECONDS = 2.0


def compact_tokens(count: int) -> str:
    if count < 1_000:
        return str(count)
    if count < 1_000_000:
        return f"{count / 1_000:.1f}k"
    return f"{count / 1_000_000:.1f}M"


def total_label(total: Any) -> str:
    """``Σ 12.3k tok · $0.0214`` for a :class:`~agenttui.core.usage.totals.UsageTotal` ("" if empty)."""
    if not total.replies:
        return ""
    tokens = compact_tokens(total.prompt_tokens + total.completion_tokens)
    approx = "~" if total.estimated else ""
    if total.replies == total.unpriced:
        return f"Σ {approx}{tokens} tok"
    more = "+" if total.unpriced else ""
    return f"Σ {approx}{tokens} tok · {format_cost(total.cost)}{more}"


class UsageTotal(Static):
    DEFAULT_CSS = "UsageTotal { width: auto; height: 1; padding: 0 1; color: $text-muted; }"

    def __init__(self, history: Any, *, since: datetime | None = None, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        from agenttui.core.history.rows import to_ts
        from agenttui.core.models import utcnow

        self.history = history
        self.since = to_ts(since or utcnow())
        self.display = False

    def on_mount(self) -> None:
        self.set_interval(REFRESH_SECONDS, self.refresh_total)

    @work(thread=True, exclusive=True, group="usage-total")
    def refresh_total(self) -> None:
        try:
            (total,) = self.history.usage_totals(since=self.since)
        except Exception:  # noqa: BLE001 -- a busy or damaged store costs the label, never the app
            return
        label = total_label(total)
        self.app.call_from_thread(self._show, label)

    def _show(self, label: str) -> None:
        self.update(label)
        self.display = bool(label)
