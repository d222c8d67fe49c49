"""Recall: one query in, ranked and de-duplicated snippets out, from everything remembered.

Used by context assembly (every turn), the ``search_history`` tool, the
History pane's search box and ``agenttui history search``: one ranking, so
what the user finds and what the model is shown agree.

Sources (a profile's, never another's):

* ``message`` -- every user and assistant message of every conversation,
  archived ones included (``/reset`` archives; what was archived is what one
  later asks about). Deleted conversations are gone from the database.
* ``note`` and ``fact`` -- both scopes, archived items included.
* ``project`` -- decisions, learnings and session archives of the profile.

Ranking (lexical, always on):

1. The question's time words ("yesterday", "last week", "in March", "the
   week before I moved") become a date span (:mod:`recall.dates`); the rest
   becomes content words without stop words (:mod:`recall.text`).
2. The words are OR-combined and ranked by SQLite FTS5 ``bm25()`` over a
   ``porter``-stemmed index (:mod:`history.schema` v3), so a message needs
   one of the words, not all; more and rarer words rank higher. Words found
   in more than ``COMMON_SHARE`` of all messages are dropped while a rarer
   one remains: they rank nothing and cost the most to score.
   Statements in the first person ("our cat is called Kopi"; turns that do
   not ask) among the best ``STATEMENT_POOL`` x ``CANDIDATES`` matches are a
   list of their own (``STATEMENT_WEIGHT``): questions holding every word
   ("what's a good name for a cat?") and general advice crowd them out of
   the first list. Whoever speaks: no role is preferred. The user-only
   version of that list (for first-person questions) and priors on the
   user's statements (x1.25) and questions (x0.8) were measured out on the
   public dev sets at full size (RealMem 0.338 with them, 0.382 with this
   list; REALTALK 0.645 and 0.659; bench/bench_recall_public.py). The other
   inflections a porter index does not fold ("bought" for "buy") are words
   of the same query, each weighted by its own idf.
3. With a date span, messages of that span come first (a second ranked list,
   weighted double in the fusion); a span with no words left ("what did I do
   last week") lists the span's own user messages, newest first.
4. Lists are fused by reciprocal rank fusion (``RRF_K`` = 20, Cormack et al.
   2009), which needs no score calibration between bm25 lists and the span
   list. When ``[recall] semantic`` is on, their fused ranking and the
   embedding ranking are fused in turn, as two sources of equal weight
   (:func:`fuse_sources`).
   That ranking starts in a thread before the lexical work and is waited
   for ``SEMANTIC_WAIT`` after it at most: when late (a remote endpoint's
   round trip), the lists are fused without it -- no notice, it is not an
   error -- and it runs on; the ranker keeps it, so the turn's next step or
   a retry has it. The chat embeds a draft while the user pauses typing
   (``semantic.prepare``), so a turn usually finds it ready.
5. A matched message brings its neighbouring turn (the question before an
   answer, the answer after a question); snippets of adjacent turns of one
   conversation merge into one. Identical texts (a question asked twice)
   count once, the better-ranked copy kept.
6. Snippets are taken best first while they fit ``token_budget``; one that
   does not fit is skipped and a smaller one may still fit.
7. Budget left over widens the chosen snippets by the turns around them,
   best snippet first, ring by ring (``WIDEN_RINGS``): a few rare words may
   match only a handful of turns, and the answer is often the turn beside one.
   A "when did ...?" question ranks turns that tell their event as of their
   day ("this morning", "just got back") higher (``WHEN_TOLD_BONUS``): the
   turn's date is the answer.

Deterministic: ties break on ids, never on ``set`` order or hash seeds, so
identical inputs give an identical prompt. (With ``semantic``, whether its
ranking was ready in time is an input too: when it was not, the prompt is
exactly the lexical one.)
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time as time_module
from collections.abc import Callable, Collection, Iterable, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from itertools import islice
from typing import TYPE_CHECKING, Literal, Protocol, TypedDict, cast

from agenttui.core.memory import read_screen
from agenttui.core.recall import english_words
from agenttui.core.recall.cjk import has_cjk, query_units
from agenttui.core.recall.dates import NAMED_TIMES, TimeFilter, read_time
from agenttui.core.recall.dedup import NearDuplicates
from agenttui.core.recall.index import Document, SideIndex, index_for
from agenttui.core.recall.related import related_terms
from agenttui.core.recall.snippet_cost import joined_tokens
from agenttui.core.recall.text import (
    CAPITALISED_WORD,
    MAX_TERMS,
    STOP_WORDS,
    asks_current,
    fts_or_query,
    query_terms,
    typing_last_word,
    without_current,
    word_forms,
)
from agenttui.core.recall.turn_shape import (
    asking_first,
    asking_part,
    asks,
    asks_when,
    contentless,
    ends_asking,
    tells_when,
    without_tag_questions,
)
from agenttui.core.tokens import estimate_tokens

if TYPE_CHECKING:
    from agenttui.core.history.recall_queries import RecallRow
    from agenttui.core.history.store import HistoryStore
    from agenttui.core.memory.project import ProjectMemory
    from agenttui.core.memory.store import MemoryStore
    from agenttui.core.models import MemoryItem, Message, SearchHit

class _Scope(TypedDict):
    """The arguments every candidate query of one recall shares."""

    before_id: int | None
    conversation_id: str | None


SourceKind = Literal["message", "note", "fact", "project"]
ALL_SOURCES: tuple[SourceKind, ...] = ("message", "note", "fact", "project")

# Cormack et al. use 60; at 60 neighbouring ranks differ by under 2 %, so the recency bonus
# (15 %) reordered the best bm25 matches at will. At 20 the rank still counts
# (public dev sets: REALTALK +0.06, RealMem equal; bench/bench_recall_public.py).
RRF_K = 20
CANDIDATES = 100  # messages fetched per ranked list
COMMON_SHARE = 0.05  # of all messages: a word in more is "common" (see module doc) ...
COMMON_CAP = 3_000  # ... or in more than this many: counting further costs more than it tells
MIN_MESSAGES_FOR_COMMON = 2_000  # below this every word is kept: scoring is cheap anyway
SPAN_WEIGHT = 2.0
SPAN_CANDIDATES = 60  # a span's own user messages, newest first
SPAN_ONLY_WEIGHT = 0.5
FEEDBACK_HITS = 5  # the best hits whose names are searched for again (multi-hop)
FEEDBACK_NAMES = 6
FEEDBACK_WEIGHT = 0.7
FEEDBACK_RARE_SHARE = 0.002
STATEMENT_POOL = 3  # first-person statements among this many times CANDIDATES ...
STATEMENT_WEIGHT = 0.75  # ... are a ranked list of their own (module doc)
WIDEN_RINGS = 6  # turns on each side of a snippet added while budget is left (``_widen``)
WIDEN_MIN_TOKENS = 12  # ... while at least this much is left (a one-line turn's quote)
# The first BEST_HITS snippets chosen are widened by BEST_HIT_RINGS turns on each side before the
# fill goes on: what a best hit leaves unsaid is often in the turns beside it ("我的上司的单位是…"
# then "他是山东青岛人": the second hop of a question naming the first). Full dev sets
# (bench/bench_recall_public.py --limit 0): MemDaily noisy 0.914 -> 0.935, conditional +0.018,
# post-processing +0.018; REALTALK inference 0.441 -> 0.466, temporal 0.891 -> 0.909 but
# multi-fact 0.530 -> 0.525; RealMem every type up. 2 hits lowered RealMem's incremental row,
# 1 ring its updating row, 5 hits REALTALK's multi-fact more.
BEST_HITS = 3
BEST_HIT_RINGS = 2
RELATED_WEIGHT = 0.8  # words related in meaning (recall.related): a paraphrase's bridge, noisier
# The embedding ranking's weight against the lexical ranking (``fuse_sources``): equal, two
# sources of evidence. Fused list by list at 2.0 (it had been set against the lexical lists
# one by one), the embedding ranking pushed out turns that several lexical lists agreed on
# wherever those lists were many (a Chinese history: words, CJK bigrams, statements, the
# second look-up) and the model weak in the language. bench/bench_recall_public.py --limit 0
# --semantic-url, all-MiniLM-L6-v2 / multilingual-e5-small: MemDaily 0.944 -> 0.964 (noisy
# 0.826 -> 0.885, conditional 0.939 -> 0.962; keyword recall 0.978) / 0.990 -> 0.989;
# RealMem 0.485 -> 0.473 / 0.503 -> 0.513; REALTALK 0.767 -> 0.765 (MiniLM).
SEMANTIC_WEIGHT = 1.0
RECENCY_BONUS = 0.15  # the newest candidate gets +15 %: of two statements, the later is current
CURRENT_BONUS = 0.5  # ... +50 % when the question asks how things are now ("these days")
WHEN_TOLD_BONUS = 0.5  # "when did ...?": a turn telling its event as of its day ("this morning I ...")
NEAR_DUPLICATE = 0.75  # Jaccard of content words at which two messages count as one
MAX_SNIPPETS = 60  # message snippets prepared per question (a 2,000-token budget takes ~40)
# a matched message is quoted up to this long, around its first matched word: a long reply's
# matched part, and more distinct turns in the budget (700 fitted ~8 snippets of long replies;
# 350 raised RealMem 0.382 -> 0.444 and REALTALK 0.659 -> 0.663, every type and role, at full size)
MATCH_CHARS = 350
ENTRY_CHARS = 700  # a project entry (decision, learning) is quoted up to this long
NEIGHBOUR_CHARS = 280  # its neighbouring turn up to this long
ITEM_CHARS = 500
# How long recall waits for the semantic ranking once the lexical lists are done (it has
# run since before them). A query seen cold (``agenttui ask``, a draft sent before typing
# paused) costs a turn at most this, unnoticeable before a model's first token, and it
# is long enough for a local embedding server (one short query in ~5-15 ms) with a small
# history. A remote endpoint (100-300 ms) or ranking 200k vectors (~0.1 s) never makes
# it: for those the chat embeds the draft ahead, and a kept ranking costs ~2 ms to fuse
# (bench/bench_embeddings.py). Longer would spend the 30 ms for nothing.
SEMANTIC_WAIT = 0.025


@dataclass(frozen=True)
class Turn:
    """One quoted message of a message snippet."""

    message_id: int
    role: str
    created: datetime
    text: str  # whitespace-collapsed, cut to its quote length
    matched: bool = False  # the search hit (False: the neighbouring turn)


@dataclass(frozen=True)
class Snippet:
    """One recalled thing, with where it came from, its date and its score."""

    source: SourceKind
    score: float  # fused; higher is better
    date: datetime  # the message's (first turn's) or item's last change
    text: str  # one line: the matched message, the note, ``key = value``, the entry
    highlight: str = ""  # messages: FTS5 snippet with «» marks around matches
    conversation_id: str | None = None
    conversation_title: str = ""
    message_id: int | None = None  # the matched message
    role: str | None = None
    turns: tuple[Turn, ...] = ()  # messages: the matched turn and its neighbours, in order
    item_id: str | None = None  # notes and facts
    scope: str | None = None
    archived: bool = False  # an archived conversation or memory item
    where: str | None = None  # project entries: "decisions.md#3", "sessions/2026-03-12.md#1"

    @property
    def message_ids(self) -> tuple[int, ...]:
        return tuple(t.message_id for t in self.turns)

    @property
    def last_date(self) -> datetime:
        return self.turns[-1].created if self.turns else self.date


class SemanticRanker(Protocol):
    """Embedding ranking of messages (core/recall/semantic.py), fused when ready in time."""

    def start_ranking(self, query: str, limit: int) -> Future[tuple[int, ...]]:
        """The ``limit`` best message ids for ``query``, computed without blocking the caller.

        A failure may be a :class:`SemanticNotice`: reported by the first
        recall that claims it.
        """
        ...


class SemanticNotice(Exception):
    """A semantic failure to report once, however many recalls (or threads) see it."""

    _claims = threading.Lock()

    def __init__(self, notice: str) -> None:
        super().__init__(notice)
        self.claimed = False

    def claim(self) -> str | None:
        """The notice for the first caller; None for every later one."""
        with self._claims:
            if self.claimed:
                return None
            self.claimed = True
            return str(self)


@dataclass
class RecallRequest:
    """What to recall for; every field but ``query`` has a working default."""

    query: str
    sources: tuple[SourceKind, ...] = ALL_SOURCES
    limit: int = 20  # snippets at most (0 = no count limit, the budget decides)
    token_budget: int = 0  # 0 = no limit
    neighbours: bool = True
    live_memory: bool = True  # False: only archived notes/facts (the prompt has the live ones)
    exclude_message_ids: frozenset[int] = frozenset()
    before_id: int | None = None  # only messages older than this id
    conversation_id: str | None = None  # only this conversation's messages
    now: datetime | None = None
    semantic: SemanticRanker | None = None
    prefix_last: bool = False  # a search box: the last word may be unfinished
    grouped: bool = False  # priced as the prompt quotes them: under one heading per conversation


@dataclass
class RecallResult:
    snippets: list[Snippet] = field(default_factory=list)
    terms: tuple[str, ...] = ()
    span: tuple[date, date] | None = None  # the date span the question named, resolved
    notices: list[str] = field(default_factory=list)

    @property
    def tokens(self) -> int:
        return sum(snippet_tokens(s) for s in self.snippets)


# --------------------------------------------------------------------------
# Rendering (the prompt's quoting; the same text is what the budget counts)
# --------------------------------------------------------------------------
_days: dict[tuple[tuple[str, ...], int, int], dict[datetime, str]] = {}


def _zone_days() -> dict[datetime, str]:
    """Local days kept per moment, for the local zone (what the last tzset read: the C
    library's localtime follows TZ only then): a turn renders ~100 snippets, most several times."""
    zone = (time_module.tzname, time_module.timezone, time_module.altzone)
    days = _days.get(zone)
    if days is None or len(days) >= 10_000:
        days = _days[zone] = {}
    return days


def _local_day(moment: datetime, days: dict[datetime, str] | None = None) -> str:
    """The local date of ``moment`` as YYYY-MM-DD (``days``: :func:`_zone_days`, asked once
    by a caller dating many moments)."""
    days = _zone_days() if days is None else days
    day = days.get(moment)
    if day is None:
        local = moment.astimezone()
        # isoformat is strftime's text for four-digit years at a fraction of its cost
        day = days[moment] = local.date().isoformat() if local.year >= 1000 else local.strftime("%Y-%m-%d")
    return day


def _one_line(text: str | None, limit: int) -> str:
    line = " ".join((text or "").split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def _message_lines(snippet: Snippet, grouped: bool = False) -> tuple[str, list[tuple[str, str]]]:
    """A message snippet's head line, and each turn's line as (its "role: " start, its text).
    ``grouped``: under its conversation's heading (:func:`conversation_heading`), the head is the date."""
    days = _zone_days()
    first = _local_day(snippet.date, days)
    head = f"[{first}]" if grouped else f"[{first} · {_conversation(snippet)}]"
    lines = []
    for turn in snippet.turns:
        day = _local_day(turn.created, days)
        lines.append((f"{turn.role}: " if day == first else f"{turn.role} ({day}): ", turn.text))
    return head, lines


def _conversation(snippet: Snippet) -> str:
    return f"conversation “{_one_line(snippet.conversation_title or 'untitled', 60)}”"


def conversation_heading(snippet: Snippet) -> str:
    """The line the prompt quotes a conversation's excerpts under (``RecallRequest.grouped``)."""
    return f"[{_conversation(snippet)}]"


def heading_tokens(snippet: Snippet) -> int:
    """What :func:`conversation_heading` costs in the prompt, its line break included."""
    return estimate_tokens(conversation_heading(snippet)) + 1


def render_snippet(snippet: Snippet, grouped: bool = False) -> str:
    """Plain text lines quoting ``snippet``: dated, attributed, one line per turn. ``grouped``:
    a message snippet under its conversation's heading, which it then leaves out."""
    if snippet.source == "message":
        head, lines = _message_lines(snippet, grouped)
        return "\n".join([head, *(start + text for start, text in lines)])
    if snippet.source == "project":
        day = _local_day(snippet.date) if snippet.date.year > 1 else "undated"
        return f"[{day} · project {snippet.where}] {snippet.text}"
    state = ", archived" if snippet.archived else ""
    return f"[{_local_day(snippet.date)} · {snippet.source}, {snippet.scope} scope{state}] {snippet.text}"


def snippet_tokens(snippet: Snippet, grouped: bool = False) -> int:
    """``estimate_tokens(render_snippet(snippet, grouped)) + 1``, a message snippet's counted line
    by line (:mod:`recall.snippet_cost`: the same figure without rendering it again)."""
    if snippet.source != "message":
        return estimate_tokens(render_snippet(snippet)) + 1
    head, lines = _message_lines(snippet, grouped)
    return joined_tokens((head, *(part for line in lines for part in line)), len(lines)) + 1


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------
def _ts(day: date) -> str:
    """Local midnight of ``day`` as the history store's UTC timestamp text."""
    moment = datetime.combine(day, time.min).astimezone()
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def rrf(lists: Iterable[tuple[Sequence[object], float]]) -> dict[object, float]:
    """Reciprocal rank fusion of ranked key lists, each with a weight."""
    scores: dict[object, float] = {}
    for keys, weight in lists:
        for rank, key in enumerate(keys):
            scores[key] = scores.get(key, 0.0) + weight / (RRF_K + rank + 1)
    return scores


def fuse_sources(lexical: Sequence[tuple[Sequence[int], float]], semantic: Sequence[int]
                 ) -> list[tuple[list[int], float]]:
    """The lists recall fuses when the embedding ranking came: the lexical lists fused into one
    ranking, then that ranking and the embedding one, each a source (``SEMANTIC_WEIGHT``).

    Fused list by list, the embedding ranking's weight was set against one lexical list; but
    how many lexical lists speak for a turn depends on the language and the question (a
    Chinese history's words and bigram indexes, a span, the second look-up), so its say
    shrank or grew with them. As a source it counts the same against the lexical lists
    whatever their number: a turn both sources put first comes first, a turn one puts
    first ranks with the other's first. Without an embedding ranking the lexical lists are
    fused as they are, so keyword recall is unchanged.
    """
    if not semantic:
        return [(list(ids), weight) for ids, weight in lexical]
    scores = cast("dict[int, float]", rrf(lexical))
    words = sorted(scores, key=lambda mid: (-scores[mid], -mid))  # ties as the final order breaks them
    return [(words, 1.0), (list(semantic), SEMANTIC_WEIGHT)]


def _quote(content: str, terms: Sequence[str], limit: int) -> str:
    """The message cut to ``limit`` characters around its first matched word."""
    line = " ".join(content.split())
    if len(line) <= limit:
        return line
    lowered = line.casefold()
    hits = [lowered.find(t.rstrip("*")[:5]) for t in terms if len(t) >= 3]
    first = min((h for h in hits if h >= 0), default=0)
    start = max(0, min(first - limit // 4, len(line) - limit))
    cut = line[start : start + limit - 2].strip()
    return ("…" if start > 0 else "") + cut + ("…" if start + limit - 2 < len(line) else "")


# --------------------------------------------------------------------------
# Messages
# --------------------------------------------------------------------------
def choose_terms(history: HistoryStore, terms: tuple[str, ...]) -> tuple[str, ...]:
    """Terms worth an OR query: absent ones dropped, very common ones too while a rarer one stays."""
    if not terms:
        return ()
    total = history.message_total()
    common = max(1, min(int(total * COMMON_SHARE), COMMON_CAP))
    counts = history.term_counts(terms, cap=common)
    present = tuple(t for t in terms if counts.get(t, 0) > 0)
    if total < MIN_MESSAGES_FOR_COMMON or len(present) <= 1:
        return present
    rare = tuple(t for t in present if counts[t] < common)
    if rare:
        return rare
    return (min(present, key=lambda t: (counts[t], present.index(t))),)


def _resolve_span(history: HistoryStore, found: TimeFilter, request: RecallRequest) -> TimeFilter | None:
    if found.first:  # "our first conversation": the day the history starts
        moment = history.earliest_message_time(before_id=request.before_id)
        if moment is None:
            return None
        day = moment.astimezone().date()
        return TimeFilter(day, day + timedelta(days=1), found.rest)
    if not found.anchor:
        return found
    match = fts_or_query(choose_terms(history, expand_forms(query_terms(found.anchor))))
    if match is None:
        return None
    rows = history.recall_candidates(match, 1, before_id=request.before_id)
    rows = [r for r in rows if r.message_id not in request.exclude_message_ids]
    if not rows:
        return None
    return found.around(rows[0].created.astimezone().date())


def expand_forms(terms: Sequence[str]) -> tuple[str, ...]:
    """Every term with its other inflections (:func:`recall.text.word_forms`), in order, once."""
    forms: dict[str, None] = {}
    for term in terms:
        for form in word_forms(term):
            forms.setdefault(form, None)
            if len(forms) >= MAX_TERMS * 2:
                return tuple(forms)
    return tuple(forms)


def names_in(text: str, known: Collection[str]) -> list[str]:
    """Capitalised words that look like names (no English lemma, not a stop word), in order.

    They seed the second look-up of a multi-hop question: "my daughter's best
    friend is Nur" makes "Nur" worth searching for on its own.
    """
    found: dict[str, None] = {}
    for match in CAPITALISED_WORD.finditer(text):
        word = re.split(r"['’]", match.group(0))[0].casefold()
        if len(word) < 3 or word in STOP_WORDS or word in known or word in found:
            continue
        opens = text[: match.start()].rstrip()
        if (not opens or opens[-1] in ".!?:;") and english_words.known(word):
            continue  # a capital that only opens a sentence: a word, not a name
        found[word] = None
    return list(found)


@dataclass(frozen=True)
class _Lexical:
    """The lexical part of a message search: candidates, ranked lists, words, span."""

    rows: dict[int, RecallRow]
    lists: tuple[tuple[tuple[int, ...], float], ...]
    terms: tuple[str, ...]
    span: tuple[date, date] | None


_LEXICAL_CACHE_SIZE = 8
# key -> (newest id, epoch, result)
_lexical_cache: dict[tuple[object, ...], tuple[int, tuple[int, int], _Lexical]] = {}
_lexical_lock = threading.Lock()


def _lexical_cached(history: HistoryStore, request: RecallRequest, today: date) -> _Lexical:
    """:func:`_lexical`, reused when nothing it read has changed since.

    The chat computes the draft's recall while the user pauses typing
    (:func:`agenttui.core.context.assemble.prepare`); the turn then finds it here. It is
    valid while no message was deleted or changed and no conversation renamed
    or archived (``HistoryStore.epoch``), and every message added since is one
    the request leaves out anyway (``before_id``: the user's own message), so
    the result is exactly what computing it now would give.
    """
    key = (request.query, request.exclude_message_ids, request.conversation_id, request.prefix_last,
           today, id(history))
    # the newest message id the search can see: what decides its result, with the epoch
    top = history.message_total()
    newest = top if request.before_id is None else min(request.before_id - 1, top)
    if newest <= 0:  # a new profile's first turn: nothing to find, no word tables to load (~0.35 s CPU)
        return _Lexical({}, (), (), None)
    epoch = history.epoch
    with _lexical_lock:
        cached = _lexical_cache.get(key)
    if cached is not None and cached[:2] == (newest, epoch):
        return cached[2]
    lexical = _lexical(history, request, today)
    with _lexical_lock:
        while len(_lexical_cache) >= _LEXICAL_CACHE_SIZE:
            _lexical_cache.pop(next(iter(_lexical_cache)))
        _lexical_cache[key] = (newest, epoch, lexical)
    return lexical


def _lexical(history: HistoryStore, request: RecallRequest, today: date) -> _Lexical:
    found = read_time(request.query, today)
    if found and not request.prefix_last and _time_in_remarks_only(request.query, today):
        found = None  # "今天天气真好。我的猫叫什么？": today is the remark's time, not the question's
    span = _resolve_span(history, found, request) if found else None
    text = without_current(without_tag_questions(found.rest if found else request.query))
    if not request.prefix_last:  # a search box's last word is the one being typed: kept last
        text = asking_first(text)
    words = query_terms(text)
    if found:  # "January" in "the pick for January" is a topic as well as a date
        words = (*words, *(w for w in query_terms(request.query) if w in NAMED_TIMES and w not in words))
    prefix = request.prefix_last and bool(words) and typing_last_word(text)
    base = words[:-1] if prefix else words
    primary = tuple(f for w in base for f in word_forms(w)[:1])  # the word itself, or its prefix form
    terms = choose_terms(history, primary)
    extra = choose_terms(history, tuple(f for f in expand_forms(base) if f not in primary))
    # the other inflections are words of the one query, each weighted by its own idf:
    # a list of their own (weight 0.9) ranked a lone "went" with the question's best matches
    terms = (*terms, *extra)
    if prefix:
        terms = (*terms, words[-1])
    match = fts_or_query(terms, prefix_last=prefix)
    rows: dict[int, RecallRow] = {}
    lists: list[tuple[list[int], float]] = []
    found_span: tuple[date, date] | None = None

    def keep(found_rows: list[RecallRow]) -> list[int]:
        ids = []
        for row in found_rows:
            if row.message_id in request.exclude_message_ids:
                continue
            rows.setdefault(row.message_id, row)
            ids.append(row.message_id)
        return ids

    common: _Scope = {"before_id": request.before_id, "conversation_id": request.conversation_id}
    # CJK text is searched by character bigrams in an index of its own (recall.cjk). A written
    # date stays among its units: "那个生日是10月16日的人" names a value as well as a day
    # (English keeps a month's name for the same reason, above)
    units = query_units(_cjk_query_text(request, found, text))
    searches = [(m, index) for m, index in ((match, "words"), (fts_or_query(units), "cjk")) if m is not None]
    for each_match, index in searches:
        told_too = not request.prefix_last  # a search box ranks by its words alone
        pool = history.recall_candidates(each_match, CANDIDATES * (STATEMENT_POOL if told_too else 1),
                                         highlight=request.prefix_last, index=index, **common)
        lists.append((keep(pool[:CANDIDATES]), 1.0))
        if told_too:
            # the first CANDIDATES of them: the rest of the pool is not read for its shape
            told = islice((row for row in pool if not asks(row.content) and _in_first_person(row.content)),
                          CANDIDATES)
            lists.append((keep(list(told)), STATEMENT_WEIGHT))
    if span is not None and span.start is not None and span.end is not None:
        found_span = (span.start, span.end)
        since, until = _ts(span.start), _ts(span.end)
        for each_match, index in searches:
            lists.append((keep(history.recall_candidates(each_match, CANDIDATES, since=since, until=until,
                                                         index=index, **common)), SPAN_WEIGHT))
        # the span's own statements, whatever their words ("bought" for "what did I buy")
        lists.append((keep(history.recent_in_span(since, until, SPAN_CANDIDATES,
                                                  before_id=request.before_id)), SPAN_ONLY_WEIGHT))
    if lists and not request.prefix_last:
        follow = fts_or_query(_feedback_terms(history, rows, rrf(lists), set(terms) | set(words)))
        if follow is not None:
            lists.append((keep(history.recall_candidates(follow, CANDIDATES // 2, **common)), FEEDBACK_WEIGHT))
    # after the feedback: a related word's hits are too loose to seed a second look-up
    related = () if request.prefix_last else related_terms(words, set(terms) | set(words))
    related_match = fts_or_query(choose_terms(history, related))
    if related_match is not None:
        lists.append((keep(history.recall_candidates(related_match, CANDIDATES, **common)), RELATED_WEIGHT))
    quoted = (*terms, *("".join(unit.split()) for unit in units))  # where a long message is cut
    return _Lexical(rows, tuple((tuple(ids), weight) for ids, weight in lists), quoted, found_span)


def _time_in_remarks_only(query: str, today: date) -> bool:
    """Are the time words of a message that asks and remarks all in its remarks?

    "今天天气真好，适合出去散步。……我的猫叫什么名字？": a chat about today around a
    question that names no time. Read as the question's span, "today" put today's turns
    first and cut "今天" from the words (MemDaily's noisy questions, all 500: 0.886 -> 0.914,
    BM25 over bigrams 0.897; no other row of the three dev sets moved,
    bench/bench_recall_public.py). A question that names its time keeps it ("昨天我们去了
    哪里？"), and so does a message that only asks.
    """
    asked = asking_part(query)
    return asked is not None and read_time(asked, today) is None


def _cjk_query_text(request: RecallRequest, found: TimeFilter | None, text: str) -> str:
    """The text whose CJK units are searched: ``text``, or the question with its time words
    when they were a written date (its digits are not all in ``text``).

    "那个生日是10月16日的人，邮箱地址是什么？": a day in which nothing may have been said, and
    the value the answer holds ("我的上司生日是10月16号。"); cut out, the question kept only
    "生日", which every birthday shares. Full MemDaily, with the CJK clauses left out of the
    feedback (``_feedback_terms``): noisy 0.935 -> 0.942, aggregative 0.962 -> 0.965,
    conditional 0.967 -> 0.970, post-processing 0.955 -> 0.957, the other rows equal
    (bench/bench_recall_public.py).
    """
    if found is None or sorted(filter(str.isdigit, request.query)) == sorted(filter(str.isdigit, found.rest)):
        return text
    whole = without_current(without_tag_questions(request.query))
    return whole if request.prefix_last else asking_first(whole)


def _message_lists(history: HistoryStore, request: RecallRequest, today: date,
                   result: RecallResult) -> tuple[dict[int, RecallRow], list[tuple[list[int], float]]]:
    semantic = _start_semantic(request)  # first: its round trip overlaps the lexical work
    lexical = _lexical_cached(history, request, today)
    result.terms, result.span = lexical.terms, lexical.span
    rows = dict(lexical.rows)  # the cached one stays as it was
    dense: list[int] = []
    if semantic is not None:
        ranked = _semantic_ids(semantic, result)
        missing = [mid for mid in ranked if mid not in rows and mid not in request.exclude_message_ids]
        for row in history.rows_for_ids(missing, before_id=request.before_id,
                                        conversation_id=request.conversation_id):
            rows[row.message_id] = row
        dense = [mid for mid in ranked if mid in rows]
    return rows, fuse_sources(lexical.lists, dense)


def _start_semantic(request: RecallRequest) -> Future[tuple[int, ...]] | None:
    if request.semantic is None or not request.query.strip():
        return None
    try:
        return request.semantic.start_ranking(request.query, CANDIDATES)
    except Exception as error:  # embeddings are a bonus; lexical recall stands alone
        failed: Future[tuple[int, ...]] = Future()
        failed.set_exception(error)
        return failed


def _semantic_ids(semantic: Future[tuple[int, ...]], result: RecallResult) -> list[int]:
    """The semantic ranking if ready within ``SEMANTIC_WAIT``; else none (it runs on, kept)."""
    try:
        return list(semantic.result(timeout=SEMANTIC_WAIT))
    except FutureTimeout:
        return []  # late is not a failure: no notice; the turn's next step will have it
    except SemanticNotice as notice:  # once per session, whichever recall sees it first
        claimed = notice.claim()
        if claimed:
            result.notices.append(f"semantic ranking unavailable: {claimed}")
        return []
    except Exception as error:  # embeddings are a bonus; lexical recall stands alone
        result.notices.append(f"semantic ranking unavailable: {error}")
        return []


def _feedback_terms(history: HistoryStore, rows: dict[int, RecallRow], fused: dict[object, float],
                    known: set[str]) -> tuple[str, ...]:
    """Words of the best hits worth a second look-up: names and rare words (multi-hop, updates).

    "My daughter's best friend is Nur" makes "Nur" worth searching for; "I'm
    on the keto diet" makes "keto", so "stopped keto" (the update) is found
    though it shares no word with the question. Rare = in fewer than
    ``FEEDBACK_RARE_SHARE`` of all messages: a common word would drag in noise.
    """
    best = sorted(rows, key=lambda mid: (-fused.get(mid, 0.0), -mid))[:FEEDBACK_HITS]
    names = [n for mid in best for n in names_in(rows[mid].content, known)]
    others = [w for mid in best if rows[mid].role == "user"
              # a word holding CJK is a whole clause to the words index ("我的上司生日是10月16号"):
              # searched again it only re-ranks the hits it came from
              for w in query_terms(rows[mid].content)
              if w not in known and not w.isdigit() and len(w) > 3 and not has_cjk(w)]
    candidates = tuple(dict.fromkeys([*names, *others]))
    if not candidates:
        return ()
    rare = max(2, int(history.message_total() * FEEDBACK_RARE_SHARE))
    chosen: list[str] = []
    # counted in order, a few at a time, until enough are chosen: the first FEEDBACK_NAMES rare
    # ones are the answer, and counting the rest (often 100 words, each up to ``rare`` rows) cost
    # more than all the others' look-ups
    for start in range(0, len(candidates), FEEDBACK_NAMES):
        batch = candidates[start:start + FEEDBACK_NAMES]
        counts = history.term_counts(batch, cap=rare)
        chosen += [w for w in batch if 0 < counts.get(w, 0) < rare]
        if len(chosen) >= FEEDBACK_NAMES:
            break
    return tuple(chosen[:FEEDBACK_NAMES])


_FIRST_PERSON = frozenset("i my me mine our we us i'm i've aku saya gue gua kami kita ku".split())
# one of them as a whole run of word characters and apostrophes: the first hit ends the search
# (300 candidates a turn; listing every word of each cost more)
_FIRST_PERSON_WORD = re.compile(
    r"(?<![\w'])(?:" + "|".join(sorted(map(re.escape, _FIRST_PERSON), key=len, reverse=True)) + r")(?![\w'])")


@lru_cache(maxsize=8192)  # asked of the ~300 rows of a turn's pool, which the next turns meet again
def _in_first_person(text: str) -> bool:
    """Does the turn speak in the first person ("our cat is called Kopi", whoever says it)?"""
    return _FIRST_PERSON_WORD.search(text.casefold()) is not None


@lru_cache(maxsize=8192)  # of the few hundred candidates of a turn, which the next turns meet again
def _content_words(text: str) -> frozenset[str]:
    """The content words near duplicates are told by (``NEAR_DUPLICATE``)."""
    return frozenset(query_terms(text))


def _message_snippets(history: HistoryStore, request: RecallRequest, today: date,
                      result: RecallResult) -> list[Snippet]:
    rows, lists = _message_lists(history, request, today, result)
    fused = rrf(lists)
    times = {mid: row.created.timestamp() for mid, row in rows.items()}
    oldest, span = (min(times.values()), (max(times.values()) - min(times.values())) or 1.0) if times else (0.0, 1.0)
    bonus = CURRENT_BONUS if asks_current(request.query) else RECENCY_BONUS
    scores = {mid: fused.get(mid, 0.0) * (1 + bonus * (moment - oldest) / span) for mid, moment in times.items()}
    if WHEN_TOLD_BONUS and asks_when(request.query):  # the answer is the date of the turn that tells it
        for mid in scores:
            if tells_when(rows[mid].content):
                scores[mid] *= 1 + WHEN_TOLD_BONUS
    order = sorted(rows, key=lambda mid: (-scores[mid], -mid))
    snippets: list[Snippet] = []
    kept = NearDuplicates(NEAR_DUPLICATE)
    for mid in order:
        if len(kept) >= MAX_SNIPPETS:
            break  # more than a budget ever holds
        row = rows[mid]
        if contentless(row.content):
            continue  # "Thanks, John!": a question naming John matches it, and it says nothing
        words = _content_words(row.content)
        if not row.content.strip() or kept.seen(words):
            continue  # "Btw, is it better to pay off the car loan early?" once is enough
        kept.add(words)
        matched = Turn(row.message_id, row.role, row.created,
                       _quote(row.content, result.terms, MATCH_CHARS), matched=True)
        snippets.append(Snippet(
            source="message", score=scores[mid], date=row.created,
            text=matched.text, highlight=row.highlight, conversation_id=row.conversation_id,
            conversation_title=row.conversation_title, message_id=row.message_id, role=row.role,
            turns=(matched,), archived=row.archived,
        ))
    return snippets


def _neighbour_asks(snippet: Snippet) -> tuple[int, str, bool] | None:
    """The neighbour :func:`with_neighbour` looks up for ``snippet``: (message, conversation, after)."""
    if snippet.source != "message" or snippet.message_id is None or snippet.conversation_id is None:
        return None
    return snippet.message_id, snippet.conversation_id, ends_asking(snippet.turns[-1].text)


def _prefetch_neighbours(history: HistoryStore, snippets: Sequence[Snippet]
                         ) -> dict[tuple[int, bool], Message | None]:
    """The neighbours of these snippets that one batched step finds (one statement each way, not
    one per snippet); :func:`with_neighbour` walks for the rest. Empty when the batch fails."""
    wanted = [ask for ask in map(_neighbour_asks, snippets) if ask is not None]
    try:
        return history.first_neighbours(wanted) if wanted else {}
    except Exception:  # the walk one at a time still answers (and reports what fails there)
        return {}


def with_neighbour(history: HistoryStore, snippet: Snippet, request: RecallRequest,
                   terms: Sequence[str], known: dict[tuple[int, bool], Message | None] | None = None
                   ) -> Snippet:
    """The snippet with its neighbouring turn when one asks and the other answers, whichever side asked.

    A turn ending on a question brings the answer after it (the user's answer
    to the assistant's "What did you do today?" too); an assistant's answer
    brings the turn before it; a statement of the user's brings the
    assistant's question it answers, and stands alone otherwise ("our cat is
    called Kopi": the reply to it, "Noted!", would cost budget and add nothing).
    """
    if snippet.source != "message" or snippet.message_id is None or snippet.conversation_id is None:
        return snippet
    asked = ends_asking(snippet.turns[-1].text)
    if known is not None and (snippet.message_id, asked) in known:  # found by the batched step
        other = known[(snippet.message_id, asked)]
    else:
        other = history.neighbour(snippet.message_id, snippet.conversation_id, after=asked)
    if not asked and snippet.role == "user" and (other is None or not ends_asking(other.content or "")):
        return snippet  # a statement that answers no question
    if other is None or other.id is None or other.id in request.exclude_message_ids:
        return snippet
    if request.before_id is not None and other.id >= request.before_id:
        return snippet
    quoted = Turn(other.id, other.role, other.created, _quote(other.content or "", terms, NEIGHBOUR_CHARS))
    turns = (*snippet.turns, quoted) if other.id > snippet.message_id else (quoted, *snippet.turns)
    return _with_turns(snippet, turns)


def _with_turns(snippet: Snippet, turns: tuple[Turn, ...]) -> Snippet:
    """``replace(snippet, turns=turns, date=turns[0].created)``, built as a copy of its fields.

    Recall widens a hundred snippets a turn by one turn each, and ``dataclasses.replace``
    of a frozen dataclass (its fields listed, ``__init__`` setting each through
    ``object.__setattr__``) cost several times the copy; the result is the same: ``Snippet``
    has no ``__post_init__`` and no slots.
    """
    wider = object.__new__(Snippet)
    fields = wider.__dict__
    fields.update(snippet.__dict__)
    fields["turns"] = turns
    fields["date"] = turns[0].created
    return wider


def merge(first: Snippet, second: Snippet) -> Snippet:
    """One snippet holding the turns of both (same conversation), in order."""
    turns = {t.message_id: t for t in first.turns}
    for turn in second.turns:
        if turn.message_id not in turns or turn.matched:
            turns[turn.message_id] = turn
    ordered = tuple(turns[k] for k in sorted(turns))
    return _with_turns(first, ordered)


# --------------------------------------------------------------------------
# Memory items and project entries
# --------------------------------------------------------------------------
def _item_text(item: MemoryItem) -> str:
    return f"{item.key} = {item.value}" if item.kind == "fact" else item.text


def rank_memory(items: Sequence[MemoryItem], query: str | None, limit: int = 200) -> list[tuple[MemoryItem, float]]:
    """Items matching ``query`` by bm25 (best first), with a positive score."""
    terms = query_terms(query)
    if not terms or not items:
        return []
    index, by_id = _memory_index(items)
    return [(by_id[key], -score) for key, score in index.search(terms, limit)]


_memory_indexes: dict[tuple[int, int, int], tuple[SideIndex, dict[str, MemoryItem]]] = {}


def _memory_index(items: Sequence[MemoryItem]) -> tuple[SideIndex, dict[str, MemoryItem]]:
    """The side index of these items, and the items by id; reused while they are the same
    objects, unchanged.

    The memory store hands out the same cached objects until its file changes
    (``items(copies=False)``), so identity plus ``updated`` recognises the set
    without hashing 2,000 texts every turn; any other list is indexed by content.
    The items by id go with it: the same objects, so the same mapping (built anew it
    cost a dict of 2,000 twice a turn: memory selection and recall's notes).
    """
    key = (len(items), hash(tuple(map(id, items))), hash(tuple(i.updated for i in items)))
    kept = _memory_indexes.get(key)
    if kept is None:
        ordered = sorted(items, key=lambda i: i.id)
        kept = (index_for([Document(i.id, _item_text(i)) for i in ordered]), {i.id: i for i in items})
        _memory_indexes.clear()  # one set at a time: the profile's current memory
        _memory_indexes[key] = kept
    return kept


def _memory_snippets(memory: MemoryStore, request: RecallRequest) -> list[Snippet]:
    items = [] if not request.live_memory else memory.items("all", include_expired=False)
    archived_ids = set()
    for item in memory.archived("all"):
        archived_ids.add(item.id)
        items.append(item)
    wanted = {k for k in request.sources if k in ("note", "fact")}
    items = [i for i in items if i.kind in wanted]
    # screened where read (core/memory/read_screen.py): held items stay out, secrets masked
    items, _held = read_screen.for_prompt(items, memory.redact_patterns, memory.kept_hashes())
    ranked = rank_memory(items, request.query, limit=CANDIDATES)
    scores = rrf([([i.id for i, _ in ranked], 1.0)])
    return [
        Snippet(source=item.kind, score=scores[item.id], date=item.updated,
                text=_one_line(_item_text(item), ITEM_CHARS), item_id=item.id, scope=item.scope,
                archived=item.id in archived_ids)
        for item, _ in ranked
    ]


def _project_snippets(project: ProjectMemory, request: RecallRequest) -> list[Snippet]:
    entries = project.recall_entries()
    terms = query_terms(request.query)
    if not entries or not terms:
        return []
    index = index_for([Document(where, text) for where, _, text in entries])
    by_where = {where: (day, text) for where, day, text in entries}
    ranked = index.search(terms, CANDIDATES)
    scores = rrf([([key for key, _ in ranked], 1.0)])
    snippets = []
    for key, _ in ranked:
        day, text = by_where[key]
        try:
            moment = datetime.fromisoformat(day).replace(tzinfo=UTC) if day else datetime.min.replace(tzinfo=UTC)
        except ValueError:
            moment = datetime.min.replace(tzinfo=UTC)
        snippets.append(Snippet(source="project", score=scores[key], date=moment,
                                text=_quote(text, terms, ENTRY_CHARS), where=key))
    return snippets


# --------------------------------------------------------------------------
# The entry point
# --------------------------------------------------------------------------
def recall(request: RecallRequest, *, history: HistoryStore | None = None, memory: MemoryStore | None = None,
           project: ProjectMemory | None = None, warn: Callable[[str], None] | None = None) -> RecallResult:
    """Ranked, de-duplicated snippets for ``request`` from the given stores (see module doc).

    A store that is None, or that fails, contributes nothing; failures become
    ``notices`` (recall is never worth losing a turn over).
    """
    result = RecallResult()
    today = (request.now or datetime.now(UTC)).astimezone().date()
    per_source: list[list[Snippet]] = []

    def attempt(what: str, run: Callable[[], list[Snippet]]) -> None:
        try:
            per_source.append(run())
        except Exception as error:  # a broken file must not cost the turn
            result.notices.append(f"{what} could not be searched: {error}")

    if history is not None and "message" in request.sources:
        attempt("history", lambda: _message_snippets(history, request, today, result))
    if memory is not None and {"note", "fact"} & set(request.sources):
        attempt("memory", lambda: _memory_snippets(memory, request))
    if project is not None and "project" in request.sources:
        attempt("project memory", lambda: _project_snippets(project, request))
    ranked = [s for group in per_source for s in group]
    ranked.sort(key=lambda s: (-s.score, s.source, -(s.message_id or 0), s.item_id or "", s.where or ""))
    chosen: list[Snippet] = []
    costs: list[int] = []  # snippet_tokens of each chosen snippet, not rendered again
    holder: dict[int, int] = {}  # message id -> the first chosen snippet quoting it
    headed: set[str | None] = set()  # grouped: conversations whose heading is paid for
    grouped = request.grouped
    used = 0
    known = _prefetch_neighbours(history, ranked) if request.neighbours and history is not None else {}
    for snippet in ranked:
        if request.limit > 0 and len(chosen) >= request.limit:
            break
        if request.neighbours and history is not None and snippet.source == "message":
            snippet = with_neighbour(history, snippet, request, result.terms, known)
        # the first chosen snippet sharing a turn (message ids are unique, so of its conversation)
        near = min((holder[mid] for mid in snippet.message_ids if mid in holder), default=None)
        if near is not None:  # adjacent turns of one conversation: one snippet
            joined = merge(chosen[near], snippet)
            joined_cost = snippet_tokens(joined, grouped)
            cost = joined_cost - costs[near]
            if request.token_budget <= 0 or used + cost <= request.token_budget:
                chosen[near], costs[near] = joined, joined_cost
                used += cost
                for mid in joined.message_ids:
                    holder[mid] = min(holder.get(mid, near), near)
            continue
        cost = snippet_tokens(snippet, grouped)
        heading = (heading_tokens(snippet) if grouped and snippet.source == "message"
                   and snippet.conversation_id not in headed else 0)
        if request.token_budget > 0 and used + cost + heading > request.token_budget:
            continue  # a later, smaller one may still fit
        for mid in snippet.message_ids:
            holder.setdefault(mid, len(chosen))
        if heading:
            headed.add(snippet.conversation_id)
        chosen.append(snippet)
        costs.append(cost)  # the snippet's own: its conversation's heading is in ``used`` once
        used += cost + heading
        if len(chosen) == BEST_HITS and request.neighbours and history is not None and 0 < used < request.token_budget:
            # the turns around the best hits before the rest of the fill (``BEST_HITS``)
            used = _widen(history, request, result.terms, chosen, costs, used, known, rings=BEST_HIT_RINGS)
            for index, widened in enumerate(chosen):
                for mid in widened.message_ids:
                    holder.setdefault(mid, index)
    if request.neighbours and history is not None and 0 < used < request.token_budget:
        _widen(history, request, result.terms, chosen, costs, used, known)
    result.snippets = chosen
    for notice in result.notices:
        if warn is not None:
            warn(notice)
    return result


def _widen(history: HistoryStore, request: RecallRequest, terms: Sequence[str],
           chosen: list[Snippet], costs: list[int], used: int,
           known: dict[tuple[int, bool], Message | None], rings: int = WIDEN_RINGS) -> int:
    """Spend a budget the matches left over on the turns around them, best snippet first.

    A few rare words can match only a handful of turns; what answers is then
    often the turn beside one of them ("I got a cat!!" after "the rescue
    called back"). Ring by ring: every snippet's turn before and after, then the
    next ones, while they fit; ``chosen`` and ``costs`` are updated in place.
    ``known`` holds neighbours found before (the prefetch): an edge's neighbour is
    asked of the database once, not again each ring while its snippet cannot grow.
    """
    from agenttui.core.history.store import HistoryError  # loaded already: ``history`` is one

    quoted = {mid for snippet in chosen for mid in snippet.message_ids}
    known = dict(known)
    asked: set[tuple[int, bool]] = set(known)  # answered, or left undecided by first_neighbours
    # (index, after) -> the snippet that could not grow by that side's turn, and ``used`` then:
    # while it stands unchanged and ``used`` is no lower, it still cannot (the same turn at the
    # same cost), so it is not priced again ring after ring
    too_big: dict[tuple[int, bool], tuple[Snippet, int]] = {}
    for _ring in range(rings):
        if request.token_budget - used < WIDEN_MIN_TOKENS:
            break  # no turn fits what is left: spare the neighbour queries
        # a snippet's edges are its first and last turn (``message_ids`` builds the whole tuple)
        edges = [((s.turns[-1] if after else s.turns[0]).message_id, s.conversation_id, after)
                 for s in chosen if s.source == "message" and s.conversation_id and s.turns
                 for after in (False, True)]
        if not edges:
            break
        wanted = [edge for edge in edges if (edge[0], edge[2]) not in asked]
        if wanted:
            try:
                known.update(history.first_neighbours(wanted))
            except (HistoryError, sqlite3.Error):  # widening is a bonus: the chosen snippets stand
                return used
            asked.update((mid, after) for mid, _, after in wanted)
        grew = False
        for index, snippet in enumerate(chosen):
            if snippet.source != "message" or not snippet.turns:
                continue
            for after in (False, True):
                failed = too_big.get((index, after))
                if failed is not None and failed[0] is snippet and used >= failed[1]:
                    continue
                edge = (snippet.turns[-1] if after else snippet.turns[0]).message_id
                other = known.get((edge, after))
                if other is None or other.id is None or other.id in quoted or other.id in request.exclude_message_ids:
                    continue
                if request.before_id is not None and other.id >= request.before_id:
                    continue
                turn = Turn(other.id, other.role, other.created, _quote(other.content or "", terms, NEIGHBOUR_CHARS))
                turns = (*snippet.turns, turn) if after else (turn, *snippet.turns)
                wider = _with_turns(snippet, turns)
                cost = snippet_tokens(wider, request.grouped)
                if used + cost - costs[index] > request.token_budget:
                    too_big[(index, after)] = (snippet, used)
                    continue
                used += cost - costs[index]
                chosen[index], costs[index], snippet = wider, cost, wider
                quoted.add(other.id)
                grew = True
        if not grew:
            break
    return used


def search_hits(history: HistoryStore, query: str, limit: int = 50,
                conversation_id: str | None = None) -> list[SearchHit]:
    """Past messages for a search box (History pane): recall's ranking, one hit per message.

    Unlike the prompt: no neighbouring turns, and the last word is
    prefix-matched while it is being typed. Time words rank their span first
    ("deploy last week"), as in the prompt.
    """
    from agenttui.core.models import SearchHit

    request = RecallRequest(query=query, sources=("message",), limit=limit, neighbours=False,
                            conversation_id=conversation_id, prefix_last=True)
    found = recall(request, history=history)
    return [
        SearchHit(conversation_id=s.conversation_id or "", conversation_title=s.conversation_title,
                  message_id=s.message_id or 0, role=s.role or "user",  # type: ignore[arg-type]
                  snippet=s.highlight or s.text, created=s.date, rank=-s.score)
        for s in found.snippets
    ]


def day_span(snippets: Sequence[Snippet]) -> tuple[date, date] | None:
    """First and last local date among ``snippets`` (for "used: … (12 Mar – 2 Apr)")."""
    days = [s.date.astimezone().date() for s in snippets if s.date.year > 1]
    days += [s.last_date.astimezone().date() for s in snippets if s.date.year > 1]
    return (min(days), max(days)) if days else None

