"""The header's line, fitted to the room the terminal gives it.

What it says, most important first: the incognito badge, the model, the conversation's
usage total (cost, then tokens), the context meter, the profile. The whole line is
``profile: work · model: gpt-4o · context 1.2k/16k · Σ 12.3k tok · $0.0214``; when it
does not fit, the labels shorten first (``work · gpt-4o · ctx 1.2k/16k · Σ 12.3k · $0.0214``),
then the least important items go one at a time (the profile, the context meter, the
token count, the usage total). A number is never cut: an item is shown whole or not at
all. Only the model name, text, is cut with "…" when even it alone does not fit.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len

SEPARATOR = " · "
ELLIPSIS = "…"


@dataclass(frozen=True)
class UsageLabel:
    """The usage total's parts (:mod:`agenttui.ui.widgets.usage_total`)."""

    tokens: str  # "12.3k", "~366" (some counts are estimates)
    cost: str | None = None  # "$0.0214", "$0.0214+" (some replies unpriced); None: none priced

    def long(self) -> str:
        """``Σ 12.3k tok · $0.0214``"""
        return f"Σ {self.tokens} tok" + (f"{SEPARATOR}{self.cost}" if self.cost else "")

    def short(self) -> str:
        """``Σ 12.3k · $0.0214``"""
        return f"Σ {self.tokens}" + (f"{SEPARATOR}{self.cost}" if self.cost else "")

    def least(self) -> str:
        """``Σ $0.0214`` (the cost says more than the tokens), else ``Σ 12.3k``."""
        return f"Σ {self.cost}" if self.cost else f"Σ {self.tokens}"


def short_meter(meter: str) -> str:
    """``context 1.2k/16k`` -> ``ctx 1.2k/16k``."""
    return "ctx " + meter.removeprefix("context ") if meter.startswith("context ") else meter


def header_line(room: int, *, profile: str, model: str, incognito: bool = False,
                meter: str | None = None, usage: UsageLabel | None = None) -> str:
    """The fullest line of at most ``room`` cells (see the module doc)."""
    badge = ["INCOGNITO"] if incognito else []
    ctx = [meter] if meter else []
    ctx_short = [short_meter(meter)] if meter else []
    total = [usage.long()] if usage else []
    total_short = [usage.short()] if usage else []
    total_least = [usage.least()] if usage else []
    candidates = [
        [*(["INCOGNITO · not saved"] if incognito else []), f"profile: {profile}", f"model: {model}", *ctx, *total],
        [*badge, profile, model, *ctx, *total],
        [*badge, profile, model, *ctx_short, *total_short],
        [*badge, model, *ctx_short, *total_short],
        [*badge, model, *total_short],
        [*badge, model, *total_least],
        [*badge, model],
    ]
    for items in candidates:
        line = SEPARATOR.join(items)
        if cell_len(line) <= room:
            return line
    lead = "".join(f"{item}{SEPARATOR}" for item in badge)
    return lead + _cut(model, max(1, room - cell_len(lead)))


def _cut(text: str, cells: int) -> str:
    if cell_len(text) <= cells:
        return text
    kept = ""
    for char in text:
        if cell_len(kept + char) + len(ELLIPSIS) > cells:
            break
        kept += char
    return kept + ELLIPSIS
