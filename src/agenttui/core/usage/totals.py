"""Totals of tokens and cost over a profile's replies: ``agenttui usage``.

Read from the running sums that schema v9's triggers keep (``usage_daily`` per UTC
day and model, ``usage_by_conversation``), so a total costs the same over 200,000
replies as over 200; only ``since`` reads ``message_usage`` rows, those of its first
day after the given time (and all its rows, by conversation). Costs were stored with
each reply: a total never loads the price table. A group's cost counts only the priced replies; ``unpriced`` says
how many of its replies the price table did not know (their tokens are counted).
Days are UTC days, as stored (``created`` is UTC): the same reply always falls on
the same day wherever the command runs.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import date, timedelta
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


_SUMS = ("SUM(replies), SUM(prompt_tokens), SUM(completion_tokens), SUM(cached_tokens), "
         "SUM(reasoning_tokens), SUM(estimated), SUM(unpriced), SUM(cost)")
_RAW_SUMS = ("COUNT(*), SUM(prompt_tokens), SUM(completion_tokens), SUM(cached_tokens), "
             "SUM(reasoning_tokens), SUM(estimated), COUNT(*) - COUNT(cost), TOTAL(cost)")
_DAY_KEYS = {None: "''", "day": "day", "model": "model"}
_RAW_KEYS = {None: "''", "day": "substr(created, 1, 10)", "model": "model", "conversation": "conversation_id"}


def totals(db: sqlite3.Connection, *, since: str | None = None,
           by: By | None = None) -> list[UsageTotal]:
    """Totals since ``since`` (a stored timestamp, inclusive), one per group, in key order
    (by model and conversation: costliest first); ``by=None``: one grand total."""
    groups: dict[str, UsageTotal] = {}
    if by == "conversation":
        if since:
            _fold(groups, db.execute(f"SELECT conversation_id, {_RAW_SUMS} FROM message_usage "
                                     "WHERE created >= ? GROUP BY 1", (since,)))
        else:
            _fold(groups, db.execute(f"SELECT conversation_id, {_SUMS} FROM usage_by_conversation GROUP BY 1"))
    else:
        key = _DAY_KEYS[by]
        if since:  # whole days after since's day from the sums, since's own day from its rows
            first_day = since[:10]
            _fold(groups, db.execute(f"SELECT {key}, {_SUMS} FROM usage_daily WHERE day > ? GROUP BY 1",
                                     (first_day,)))
            _fold(groups, db.execute(
                f"SELECT {_RAW_KEYS[by]}, {_RAW_SUMS} FROM message_usage "
                "WHERE created >= ? AND created < ? GROUP BY 1", (since, _next_day(first_day))))
        else:
            _fold(groups, db.execute(f"SELECT {key}, {_SUMS} FROM usage_daily GROUP BY 1"))
    found = sorted(groups.values(), key=lambda t: t.key)
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


def conversation_total(db: sqlite3.Connection, conversation_id: str) -> UsageTotal:
    """The total of one conversation's replies (the chat's running total), from its running sums."""
    groups: dict[str, UsageTotal] = {}
    _fold(groups, db.execute(f"SELECT conversation_id, {_SUMS} FROM usage_by_conversation "
                             "WHERE conversation_id = ? GROUP BY 1", (conversation_id,)))
    return groups.get(conversation_id, UsageTotal(conversation_id))


def _fold(groups: dict[str, UsageTotal], rows: Iterable[Sequence[Any]]) -> None:
    for key, n, prompt, completion, cached, reasoning, estimated, unpriced, cost in rows:
        if not n:
            continue
        row = UsageTotal(str(key), int(n), int(prompt or 0), int(completion or 0), int(cached or 0),
                         int(reasoning or 0), int(estimated or 0), int(unpriced or 0),
                         max(0.0, float(cost or 0.0)))  # running sums: float dust below zero
        if row.key in groups:
            groups[row.key].add(row)
        else:
            groups[row.key] = row


def _next_day(day: str) -> str:
    """The stored-time form of the midnight (UTC) after ``day`` (YYYY-MM-DD)."""
    following = date.fromisoformat(day) + timedelta(days=1)
    return following.isoformat()


def _all_titles(db: sqlite3.Connection) -> dict[str, str]:
    return dict(db.execute("SELECT id, title FROM conversations").fetchall())


def grand_total(groups: list[UsageTotal]) -> UsageTotal:
    total = UsageTotal("")
    for group in groups:
        total.add(group)
    return total
