"""The ``message_usage`` table (history schema v9): write one reply's row, read rows back.

Called by :class:`agenttui.core.history.store.HistoryStore` inside its transactions;
the totals over many rows are :mod:`agenttui.core.usage.totals`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from agenttui.core.usage.message_usage import MessageUsage

_COLUMNS = ("model, prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens, "
            "estimated, cost, priced_as, endpoint")
_IN_BATCH = 500  # ids per IN (...): far below SQLite's variable limit


def insert(db: sqlite3.Connection, message_id: int, conversation_id: str, created: str,
           usage: MessageUsage) -> None:
    db.execute(
        f"INSERT INTO message_usage (message_id, conversation_id, created, {_COLUMNS}) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (message_id, conversation_id, created, usage.model, int(usage.prompt_tokens),
         int(usage.completion_tokens), int(usage.cached_tokens), int(usage.reasoning_tokens),
         int(usage.estimated), usage.cost, usage.priced_as, usage.endpoint))


def for_ids(db: sqlite3.Connection, ids: Sequence[int]) -> dict[int, MessageUsage]:
    """The usage of those messages that have one, by message id."""
    found: dict[int, MessageUsage] = {}
    wanted = [int(i) for i in ids]
    for start in range(0, len(wanted), _IN_BATCH):
        chunk = wanted[start:start + _IN_BATCH]
        rows = db.execute(f"SELECT message_id, {_COLUMNS} FROM message_usage "
                          f"WHERE message_id IN ({', '.join('?' * len(chunk))})", chunk)
        for mid, *values in rows:
            found[mid] = _usage(values)
    return found


def _usage(values: Sequence[Any]) -> MessageUsage:
    model, prompt, completion, cached, reasoning, estimated, cost, priced_as, endpoint = values
    return MessageUsage(model=model, prompt_tokens=prompt, completion_tokens=completion, cached_tokens=cached,
                        reasoning_tokens=reasoning, estimated=bool(estimated), cost=cost, priced_as=priced_as,
                        endpoint=endpoint)


def unpriced(db: sqlite3.Connection, limit: int) -> list[tuple[int, MessageUsage, str]]:
    """(message id, usage, created) of replies whose price was not looked up yet, oldest first."""
    rows = db.execute(f"SELECT message_id, created, {_COLUMNS} FROM message_usage "
                      "WHERE priced_as IS NULL ORDER BY message_id LIMIT ?", (int(limit),)).fetchall()
    return [(mid, _usage(values), created) for mid, created, *values in rows]


def set_prices(db: sqlite3.Connection, prices: Sequence[tuple[int, float | None, str]]) -> None:
    """Record looked-up prices: (message id, cost or None, priced_as -- "" when unknown)."""
    db.executemany("UPDATE message_usage SET cost = ?, priced_as = ? WHERE message_id = ?",
                   [(cost, priced_as, mid) for mid, cost, priced_as in prices])


def for_turn(db: sqlite3.Connection, conversation_id: str, turn_id: str) -> list[tuple[int, MessageUsage]]:
    """(message id, usage) of a turn's replies, in order (through the conversation's index)."""
    ids = [row[0] for row in db.execute(
        "SELECT id FROM messages WHERE conversation_id = ? AND turn_id = ? AND role = 'assistant' ORDER BY id",
        (conversation_id, turn_id))]
    found = for_ids(db, ids)
    return [(mid, found[mid]) for mid in ids if mid in found]
