"""The History search box ranks by meaning too, when the profile's messages have vectors.

The pane's full-text hits (:func:`agenttui.core.history.search.search_messages`)
are fused with the semantic ranking of the same query by reciprocal rank
fusion, as recall fuses its lists: a hit that is also near in meaning rises,
and the ``SEMANTIC_HITS`` nearest messages join even without a shared word
("puppy" finds "I adopted a small dog"). Only that many: the nearest of a
hundred are mostly noise, and a search box lists what matches first (on a tie
the full-text hit goes first).

A query that says nothing gets no meaning hits: a search box is searched on
every pause in typing, and "qqqzzz", a half-typed "kubern" or a typo listed the
ten nearest messages, which are then merely the least unrelated. No
similarity threshold tells those apart from real finds: measured with three
embedders on two REALTALK histories (145 questions and their evidence turns
against 20 gibberish and 60 off-topic queries), a cut at any z-score of the
query's cosine against the history's own spread dropped as much evidence as
it dropped noise (all-MiniLM-L6-v2 at z >= 3.5: 0.57 of the evidence kept,
gibberish hit for 0.45 of queries; multilingual-e5-small 0.44 / 0.33; the
local table 0.09 / 0.23; ``bench/search_meaning_threshold.py``). So the gate is on the words instead
(:func:`says_something`): the meaning hits join when a full-text hit was found,
or a word of the query is English (recall's word table) or a stop word, is
written in another script than ASCII letters (CJK, accented Latin, Cyrillic),
or reads like a word at all. What is left out is keyboard mash ("qqqzzz",
"asdfgh", "qwerty", "hjkl"); a made-up word that reads like one ("blorptastic") still
lists its nearest messages.

Blocking (the query's embedding, the table's load): the pane calls it from its
search worker. The query is embedded as recall embeds a message -- by the
endpoint or the local embedder, whichever the session's semantic recall uses,
sharing its caches. Nothing embedded yet, semantic recall off, late or failed:
the full-text hits come back unchanged and nothing is said (a failure that
turns semantic recall off is the session's one notice, given by the chat).
"""

from __future__ import annotations

import logging
import re
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
    ranked = _nearest(services, query, timeout) if hits or says_something(query) else []
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


def says_something(query: str) -> bool:
    """Whether ``query`` holds a word to search by meaning (module doc): an English or
    Indonesian word or stop word, one outside ASCII letters, or one that reads like a word of
    some language (:func:`_word_like`). Digits alone do not count."""
    from agenttui.core.recall.english_words import known
    from agenttui.core.recall.text import STOP_WORDS

    for word in re.findall(r"[^\W\d_]+", query.lower()):  # lower, not casefold: "ß" is no ASCII "ss"
        if not word.isascii() or word in STOP_WORDS or known(word) or _word_like(word):
            return True
    return False


_VOWELS = frozenset("aeiouy")
_MASH = re.compile(r"(.)\1\1|[^aeiouy]{5}")  # a letter thrice, five consonants in a row
_KEY_ROWS = tuple(row for forward in ("qwertyuiop", "asdfghjkl", "zxcvbnm", "abcdefghijklmnopqrstuvwxyz")
                  for row in (forward, forward[::-1]))  # a run along one ("asdf", "qwerty")


def _word_like(word: str) -> bool:
    """An ASCII run that could be a word of a Latin-script language ("anjing", "perro",
    "lorem"), not a keyboard mash ("qqqzzz", "asdfgh", "zxcvb", "hjkl"): vowels make a
    fifth to four fifths of it, no letter comes thrice or five consonants in a row, and it
    is no run of four or more keys along a keyboard row."""
    vowels = sum(ch in _VOWELS for ch in word)
    return (len(word) >= 3 and 0.2 <= vowels / len(word) <= 0.8 and not _MASH.search(word)
            and not (len(word) >= 4 and any(word in row for row in _KEY_ROWS)))


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
