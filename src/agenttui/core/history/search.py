"""History search by conversation: one row per conversation, not per message.

:func:`agenttui.core.recall.retrieval.search_hits` ranks messages; the History pane
listed them as they came, so one talkative conversation filled the list up to
eight times. Here the hits are grouped: each conversation appears once, in the
order of its best hit, with how many of its messages matched and the dates
they span. Opening the row opens the conversation at its best hit.

A conversation whose *title* holds every word of the query comes first (a
title names what the conversation is about; an imported "导入 chat" is found by
"导入" though no message says it): its row lands on its best message hit when
it has one, else on its active leaf, as opening it from the list does.
"""

from __future__ import annotations

import re
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
    in_title: bool = False  # its title holds the query

    @property
    def conversation_id(self) -> str:
        return self.best.conversation_id


def _dated(hit: SearchHit) -> bool:
    return hit.created.year > 1  # datetime.min stands for "no date"


def group_by_conversation(hits: Sequence[SearchHit]) -> list[ConversationMatches]:
    """``hits`` (best first) grouped per conversation, in the order of each one's best hit.

    A title hit (``SearchHit.in_title``) places its conversation but is not a matching
    message: the row opens at the conversation's best message hit when there is one."""
    order: dict[str, list[SearchHit]] = {}
    for hit in hits:
        order.setdefault(hit.conversation_id, []).append(hit)
    groups = []
    for members in order.values():
        messages = [h for h in members if not h.in_title]
        days = [h.created for h in messages if _dated(h)]
        groups.append(ConversationMatches(messages[0] if messages else members[0], len(messages),
                                          min(days, default=None), max(days, default=None),
                                          in_title=len(messages) < len(members)))
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


def title_hits(history: HistoryStore, query: str, limit: int = 50) -> list[SearchHit]:
    """One hit per conversation whose title holds every word of ``query`` (module doc); they
    go before :func:`search_messages`' hits."""
    found = history.titled(re.findall(r"\w+", search_query(query)), limit)
    return [SearchHit(conversation_id=c.id, conversation_title=c.title, message_id=c.active_leaf_id,
                      role="user", snippet="", created=c.updated, rank=0.0, in_title=True)
            for c in found if c.active_leaf_id is not None]
