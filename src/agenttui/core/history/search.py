"""History search by conversation: one row per conversation, not per message.

:func:`agenttui.core.recall.retrieval.search_hits` ranks messages; the History pane
listed them as they came, so one talkative conversation filled the list up to
eight times. Here the hits are grouped: each conversation appears once, in the
order of its best hit, with how many of its messages matched and the dates
they span. Opening the row opens the conversation at its best hit. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from agenttui.core.models import SearchHit

if TYPE_CHECKING:
    from agenttui.core.history.store import HistoryStore


@dataclass(frozen=True)
class ConversationMatches:
    best: SearchHit  # the best-ranked matching message: the row opens there
    count: int  # how many of its messages matched
    first: datetime | None  # the earliest and latest matching message (None: no date known)
    last: datetime | None

    @property
    def conversation_id(self) -> str:
        return self.best.conversation_id


def _dated(hit: SearchHit) -> bool:
    return hit.created.year > 1  # datetime.min stands for "no date"


def group_by_conversation(hits: Sequence[SearchHit]) -> list[ConversationMatches]:
    """``hits`` (best first) grouped per conversation, in the order of each one's best hit."""
    order: dict[str, list[SearchHit]] = {}
    for hit in hits:
        order.setdefault(hit.conversation_id, []).append(hit)
    groups = []
    for members in order.values():
        days = [h.created for h in members if _dated(h)]
        groups.append(ConversationMatches(members[0], len(members), min(days, default=None),
                                          max(days, default=None)))
    return groups


#: A search box query beyond this many characters is cut (at a space when one is near
#: the end): nobody types a longer search, and a paste of a log or blob into the
#: box would otherwise be searched for whole -- its terms, dates and FTS phrases
#: (a 30 kB paste took 12.5 s, with the screen frozen).
SEARCH_QUERY_MAX_CHARS = 200


def search_query(text: str) -> str:
    """``text`` as the History search box searches for it: at most ``SEARCH_QUERY_MAX_CHARS``."""
    if len(text) <= SEARCH_QUERY_MAX_CHARS:
        return text
    head = text[:SEARCH_QUERY_MAX_CHARS]
    space = head.rfind(" ", SEARCH_QUERY_MAX_CHARS // 2)
    return head[:space] if space > 0 else head


def search_messages(history: HistoryStore, query: str, limit: int = 200) -> list[SearchHit]:
    """Recall's ranking first, then every other full-text match (for counts and completeness).

    A long ``query`` is cut first (:func:`search_query`).

    Recall drops near-duplicate messages (the same question asked in two
    conversations is said once to the model); the History pane must still
    list both conversations, so the plain full-text matches recall left out
    follow its own, in bm25 order.
    """
    from agenttui.core.recall.retrieval import search_hits

    query = search_query(query)
    ranked = search_hits(history, query, limit=limit)
    seen = {hit.message_id for hit in ranked}
    extra = [hit for hit in history.search(query, limit=limit) if hit.message_id not in seen]
    return ranked + extra
