"""What one assistant message cost: the model that answered, its tokens, its price.

Tokens are the provider's own counts from the stream's usage chunk
(``stream_options.include_usage``). A provider that sends none gets our estimate
(:mod:`agenttui.core.tokens`) and ``estimated`` is set, so a total never passes an
estimate off as a bill. ``cost`` is in US dollars from the offline price table
(:mod:`agenttui.core.usage.pricing`); None when the table does not know the model:
the tokens still show.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass
class MessageUsage:
    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0  # of prompt_tokens, read from the provider's prompt cache
    reasoning_tokens: int = 0  # of completion_tokens, spent thinking
    estimated: bool = False  # the provider sent no counts: ours
    cost: float | None = None  # USD; None: the price table does not know the model
    # "provider/model" the price table matched; "" looked up and unknown; None not looked up yet
    priced_as: str | None = None
    endpoint: str | None = None  # the base URL that answered (picks the provider's price)

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    def describe(self) -> str:
        """One line for people: "gpt-4o-mini · 1,234 in (200 cached) · 56 out · $0.0012"."""
        tokens = f"{self.prompt_tokens:,} in"
        if self.cached_tokens:
            tokens += f" ({self.cached_tokens:,} cached)"
        tokens += f" · {self.completion_tokens:,} out"
        if self.reasoning_tokens:
            tokens += f" ({self.reasoning_tokens:,} thinking)"
        if self.estimated:
            tokens += " (estimated)"
        parts = [self.model or "unknown model", tokens]
        if self.cost is not None:
            parts.append(format_cost(self.cost))
        else:
            parts.append("not priced yet" if self.priced_as is None else "no price known")
        return " · ".join(parts)


def format_cost(cost: float | None) -> str:
    """"$0.0012", "$1.23"; "-" when unknown. Small sums keep four decimals: cents hide them."""
    if cost is None:
        return "-"
    return f"${cost:,.2f}" if cost >= 1 else f"${cost:.4f}"
