"""The prompt quotes a conversation's excerpts under one heading, and the fill pays for it once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from agenttui.core.context.assemble import assemble
from agenttui.core.models import Message
from agenttui.core.recall.retrieval import RecallRequest, recall

NOW = datetime(2026, 11, 23, 12, tzinfo=UTC)
TEA = ["I drink jasmine tea every morning", "oolong tea keeps me awake at work",
       "my sister sent me matcha tea from Kyoto", "I switched to rooibos tea at night",
       "the tea shop on Jalan Braga closed", "I bought a clay teapot for tea",
       "green tea tastes bitter when the water boils", "earl grey tea reminds me of my grandmother"]


def seed(services) -> tuple[str, str]:
    history = services.history
    long_chat = history.create_conversation("Everyday things I told you about").id
    turns = []
    for k, text in enumerate(TEA):  # each tea statement between unrelated turns: excerpts apart
        turns += [Message("user", text, created=NOW - timedelta(days=30, minutes=-4 * k)),
                  Message("assistant", "Noted.", created=NOW - timedelta(days=30, minutes=-4 * k - 1)),
                  Message("user", f"unrelated remark number {k} about the weather",
                          created=NOW - timedelta(days=30, minutes=-4 * k - 2)),
                  Message("assistant", "I see.", created=NOW - timedelta(days=30, minutes=-4 * k - 3))]
    history.append_many(long_chat, turns)
    other = history.create_conversation("Trip").id
    history.append_many(other, [Message("user", "we drank tea on the train to Bandung",
                                        created=NOW - timedelta(days=2))])
    return long_chat, other


def test_one_heading_per_conversation_and_a_date_per_excerpt(services):
    seed(services)
    new = services.history.create_conversation().id
    built = assemble(services, new, "what tea do I like?", now=NOW, mark_used=False)
    block = next(m["content"] for m in built.messages[1:] if "<recalled>" in m["content"])
    assert block.count("[conversation “Everyday things I told you about”]") == 1
    assert block.count("[conversation “Trip”]") == 1
    day = (NOW - timedelta(days=30)).astimezone().strftime("%Y-%m-%d")
    long_excerpts = sum(1 for s in built.recalled if s.conversation_title.startswith("Everyday"))
    assert long_excerpts >= 2 and block.count(f"[{day}]") == long_excerpts  # apart: each dated
    # the older conversation's block comes first, its excerpts under its heading
    assert block.index("Everyday things") < block.index(f"[{day}]") < block.index("[conversation “Trip”]")


def test_the_heading_paid_once_leaves_room_for_more(services):
    seed(services)
    asked = dict(query="which tea", limit=0, token_budget=120, neighbours=False, now=NOW)
    grouped = recall(RecallRequest(**asked, grouped=True), history=services.history)
    each_headed = recall(RecallRequest(**asked), history=services.history)
    assert len(grouped.snippets) > len(each_headed.snippets)
