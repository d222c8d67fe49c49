"""Totals of tokens and cost over a profile's replies: ``agenttui usage``.

One ``GROUP BY`` over ``message_usage`` (schema v9), whose short rows hold the day
(``created``) and the conversation beside the counts, so no total reads a message's
text or joins ``messages``. Costs were stored with each reply: a total never loads
the price table. A group's cost counts only the priced replies; ``unpriced`` says
how many of its replies the price table did not know (their tokens are counted).
Days are UTC days, as stored (``created`` is UTC): the same reply always falls on
the same day wherever the command runs.
"""

from __future__ import annotations

import sqlite3
from dataclasses import asdict, dataclass
from typing import Any, Literal

By = Literal["day", "model", "conversation"]
_KEYS: dict[str, str] = {"day": "substr(created, 1, 10)", "model": "model",
                         "conversation": "conversation_id"}


@dataclass
class UsageTotal:
    key: str  # the day, model or conversation id; "" for the grand total
    replies: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    reasoning_tokens: int = 0
    estimated: int = 0  # replies whose counts are our estimate
    unpriced: int = 0  # replies the price table did not know: no cost in ``cost``
    cost: float = 0.0  # USD, of the priced replies
    title: str | None = None  # by conversation: its title

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        if self.title is None:
            del data["title"]
        return data

    def add(self, other: UsageTotal) -> None:
        for name in ("replies", "prompt_tokens", "completion_tokens", "cached_tokens",
                     "reasoning_tokens", "estimated", "unpriced", "cost"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def totals(db: sqlite3.Connection, *, since: str | None = None,
           by: By | None = None) -> list[UsageTotal]:
    """Totals since ``since`` (a stored timestamp, inclusive), one per group, in key order
    (by model and conversation: costliest first); ``by=None``: one grand total."""
    key = _KEYS[by] if by else "''"
    where, params = ("WHERE created >= ?", [since]) if since else ("", [])
    rows = db.execute(
        f"SELECT {key}, COUNT(*), TOTAL(prompt_tokens), TOTAL(completion_tokens), "
        "TOTAL(cached_tokens), TOTAL(reasoning_tokens), TOTAL(estimated), "
        "COUNT(*) - COUNT(cost), TOTAL(cost) "
        f"FROM message_usage {where} GROUP BY 1 ORDER BY 1", params).fetchall()
    found = [UsageTotal(str(k), int(n), int(p), int(c), int(ca), int(r), int(e), int(u), float(cost))
             for k, n, p, c, ca, r, e, u, cost in rows]
    if by is None and not found:
        found = [UsageTotal("")]
    if by in ("model", "conversation"):
        found.sort(key=lambda t: (-t.cost, -(t.prompt_tokens + t.completion_tokens), t.key))
    if by == "conversation" and found:
        titles = dict(db.execute(
            f"SELECT id, title FROM conversations WHERE id IN ({', '.join('?' * len(found))})",
            [t.key for t in found]).fetchall()) if len(found) <= 900 else _all_titles(db)
        for total in found:
            total.title = titles.get(total.key, "")
    return found


def _all_titles(db: sqlite3.Connection) -> dict[str, str]:
    return dict(db.execute("SELECT id, title FROM conversations").fetchall())


def grand_total(groups: list[UsageTotal]) -> UsageTotal:
    total = UsageTotal("")
    for group in groups:
        total.add(group)
    return total
