"""Widening: budget the matches leave over is spent on the turns around them, ring by ring."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime, timedelta

from agenttui.core.models import Message
from agenttui.core.recall.retrieval import WIDEN_RINGS, RecallRequest, recall

NOW = datetime(2026, 11, 23, 12, tzinfo=UTC)
_IN_LIST = re.compile(r"WHERE m\.id IN \(([^)]*)\)")


def conversation(services, texts, *, start):
    cid = services.history.create_conversation().id
    services.history.append_many(cid, [
        Message(role="user" if k % 2 == 0 else "assistant", content=text, created=start + timedelta(minutes=k))
        for k, text in enumerate(texts)])
    return cid


def neighbour_asks(services, run) -> Counter[tuple[int, bool]]:
    """(message id, after) of every neighbour look-up the batched statement makes while ``run`` runs."""
    asked: Counter[tuple[int, bool]] = Counter()

    def seen(sql: str) -> None:
        if "LEFT JOIN messages n ON n.id =" not in sql:
            return
        after = "ORDER BY id DESC LIMIT 1" in sql  # the newest child: the turn after
        for listed in _IN_LIST.findall(sql):
            asked.update((int(mid), after) for mid in listed.split(","))

    db = services.history._db()  # the store's own connection: the statements recall runs
    db.set_trace_callback(seen)
    try:
        run()
    finally:
        db.set_trace_callback(None)
    return asked


def test_a_lone_match_is_widened_ring_by_ring_and_each_edge_is_asked_once(services):
    long_talk = [f"filler turn number {k} about weather and gardens" for k in range(30)]
    long_talk[15] = "the rescue shelter called about the zephyrine kitten"
    conversation(services, long_talk, start=NOW - timedelta(days=40))
    # a match that cannot grow: a conversation of one turn
    conversation(services, ["zephyrine is a lovely word"], start=NOW - timedelta(days=20))
    request = RecallRequest(query="zephyrine?", sources=("message",), limit=0, token_budget=2_000, now=NOW)
    found = []
    asked = neighbour_asks(services, lambda: found.append(recall(request, history=services.history)))
    snippets = found[0].snippets
    widened = next(s for s in snippets if any("rescue shelter" in t.text for t in s.turns))
    texts = [t.text for t in widened.turns]
    # the matched turn with WIDEN_RINGS turns each side (one more on the side its neighbour took)
    assert len(texts) >= 1 + 2 * WIDEN_RINGS
    assert texts == [t for t in long_talk if t in texts]  # consecutive turns, in order
    assert any(len(s.turns) == 1 and "lovely word" in s.text for s in snippets)
    # the one-turn conversation's edges are asked once, not again each ring
    assert asked and max(asked.values()) == 1, [key for key, n in asked.items() if n > 1]
