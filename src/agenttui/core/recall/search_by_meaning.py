"""The History search box ranks by meaning too, when the profile's messages have vectors.

The pane's full-text hits (:func:`agenttui.core.history.search.search_messages`)
are fused with the semantic ranking of the same query by reciprocal rank
fusion, as recall fuses its lists: a hit that is also near in meaning rises,
and the ``SEMANTIC_HITS`` nearest messages join even without a shared word
("puppy" finds "I adopted a small dog"). Only that many: the nearest of a
hundred are mostly noise, and a search box lists what matches first (on a tie
the full-text hit goes first).

Blocking (the query's embedding, the table's load): the pane calls it from its
search worker. The query is embedded as recall embeds a message -- by the
endpoint or the local embedder, whichever the session's semantic recall uses,
sharing its caches. Nothing embedded yet, semantic recall off, late or failed:
the full-text hits come back unchanged and nothing is said (a failure that
turns semantic recall off is the session's one notice, given by the chat).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agenttui.core.models import SearchHit

if TYPE_CHECKING:
    from agenttui.core.services_view import CoreServices

log = logging.getLogger(__name__)

SEMANTIC_HITS = 10  # nearest messages fused in
RRF_K = 20  # as recall's (retrieval.RRF_K): the rank still counts
SNIPPET_CHARS = 160  # a hit found by meaning has no full-text snippet: its text, cut
WAIT_S = 5.0  # the query's embedding and ranking (the endpoint's own deadline is shorter)


def with_meaning(services: CoreServices, query: str, hits: Sequence[SearchHit],
                 timeout: float = WAIT_S) -> list[SearchHit]:
    """``hits`` (full-text, best first) fused with the semantic ranking of ``query`` (module doc).

    Title hits (``SearchHit.in_title``) stay first, as they came: they are conversations,
    not messages to rank."""
    titles = [hit for hit in hits if hit.in_title]
    hits = [hit for hit in hits if not hit.in_title]
    ranked = _nearest(services, query, timeout)
    if not ranked:
        return titles + hits
    found = {hit.message_id: hit for hit in hits}
    new = [mid for mid in ranked if mid not in found]
    if new:
        try:
            rows = services.history.rows_for_ids(new)
        except Exception as error:  # unreadable now: the full-text hits stand alone
            log.info("history search by meaning: %s", error)
            return titles + hits
        for row in rows:
            found[row.message_id] = SearchHit(
                conversation_id=row.conversation_id, conversation_title=row.conversation_title,
                message_id=row.message_id, role=row.role,  # type: ignore[arg-type]
                snippet=_cut(row.content), created=row.created, rank=0.0)
    scores: dict[int, float] = {}
    for rank, hit in enumerate(hits):
        scores[hit.message_id] = scores.get(hit.message_id, 0.0) + 1.0 / (RRF_K + rank + 1)
    for rank, mid in enumerate(m for m in ranked if m in found):
        scores[mid] = scores.get(mid, 0.0) + 1.0 / (RRF_K + rank + 1)
    lexical = {hit.message_id: n for n, hit in enumerate(hits)}
    order = sorted(scores, key=lambda mid: (-scores[mid], lexical.get(mid, len(lexical)), -mid))
    return titles + [found[mid] for mid in order]


def _nearest(services: CoreServices, query: str, timeout: float) -> list[int]:
    """The ids nearest ``query`` in meaning, best first; [] when there is no ranking to be had."""
    from agenttui.core.history.search import search_query
    from agenttui.core.recall.local_embedder import LocalEmbedder
    from agenttui.core.recall.semantic import has_vectors, semantic_state

    query = search_query(query).strip()
    try:
        if not query or not services.settings.recall.semantic or not has_vectors(services):
            return []  # before anything is embedded nothing is sent, nor a key looked up
        state = semantic_state(services)
        if not state.enabled:
            return []
        client = state.client()
        if isinstance(client, LocalEmbedder) and not client.wait_ready(timeout):
            return []
        return list(state.ranker.start_ranking(query, SEMANTIC_HITS).result(timeout=timeout))
    except Exception as error:  # late, refused, unreachable: the search box stays full-text
        log.info("history search by meaning unavailable: %s", error)
        return []


def _cut(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= SNIPPET_CHARS else line[: SNIPPET_CHARS - 1].rstrip() + "…"
