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
   week before I moved") become a date span (:mod:`recall_dates`); the rest
   becomes content words without stop words (:mod:`recall_text`).
2. The words are OR-combined and ranked by SQLite FTS5 ``bm25()`` over a
   ``porter``-stemmed index (:mod:`history_schema` v3), so a message needs
   one of the words, not all; more and rarer words rank higher. Words found
   in more than ``COMMON_SHARE`` of all messages are dropped while a rarer
   one remains: they rank nothing and cost the most to score.
3. With a date span, messages of that span come first (a second ranked list,
   weighted double in the fusion); a span with no words left ("what did I do
   last week") lists the span's own user messages, newest first.
4. Lists are fused by reciprocal rank fusion (``RRF_K`` = 60, Cormack et al.
   2009), which needs no score calibration between bm25 lists, the span
   list and, when ``[recall] semantic`` is on, the embedding ranking.
5. A matched message brings its neighbouring turn (the question before an
   answer, the answer after a question); snippets of adjacent turns of one
   conversation merge into one. Identical texts (a question asked twice)
   count once, the better-ranked copy kept.
6. Snippets are taken best first while they fit ``token_budget``; one that
   does not fit is skipped and a smaller one may still fit.

Deterministic: ties break on ids, never on ``set`` order or hash seeds, so
identical inputs give an identical prompt.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time
from typing import TYPE_CHECKING, Literal, Protocol

from agenttui.core.recall_dates import TimeFilter, read_time
from agenttui.core.recall_index import Document, index_for
from agenttui.core.recall_text import fts_or_query, query_terms, typing_last_word
from agenttui.core.tokens import estimate_tokens

if TYPE_CHECKING:
    from agenttui.core.history import HistoryStore, RecallRow
    from agenttui.core.models import MemoryItem, SearchHit

SourceKind = Literal["message", "note", "fact", "project"]
ALL_SOURCES: tuple[SourceKind, ...] = ("message", "note", "fact", "project")

RRF_K = 60
CANDIDATES = 40  # messages fetched per ranked list
COMMON_SHARE = 0.05  # of all messages: a word in more is "common" (see module doc)
MIN_MESSAGES_FOR_COMMON = 2_000  # below this every word is kept: scoring is cheap anyway
SPAN_WEIGHT = 2.0
MATCH_CHARS = 700  # a matched message is quoted up to this long
NEIGHBOUR_CHARS = 280  # its neighbouring turn up to this long
ITEM_CHARS = 500


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
    """Embedding ranking of messages (core/embeddings.py), fused when available."""

    def rank_messages(self, query: str, limit: int) -> list[int]: ...


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
def _local_day(moment: datetime) -> str:
    return moment.astimezone().strftime("%Y-%m-%d")


def _one_line(text: str | None, limit: int) -> str:
    line = " ".join((text or "").split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def render_snippet(snippet: Snippet) -> str:
    """Plain text lines quoting ``snippet``: dated, attributed, one line per turn."""
    if snippet.source == "message":
        title = snippet.conversation_title or "untitled"
        head = f"[{_local_day(snippet.date)} · conversation “{_one_line(title, 60)}”]"
        lines = [head]
        for turn in snippet.turns:
            day = _local_day(turn.created)
            prefix = turn.role if day == _local_day(snippet.date) else f"{turn.role} ({day})"
            lines.append(f"{prefix}: {turn.text}")
        return "\n".join(lines)
    if snippet.source == "project":
        day = _local_day(snippet.date) if snippet.date.year > 1 else "undated"
        return f"[{day} · project {snippet.where}] {snippet.text}"
    state = ", archived" if snippet.archived else ""
    return f"[{_local_day(snippet.date)} · {snippet.source}, {snippet.scope} scope{state}] {snippet.text}"


def snippet_tokens(snippet: Snippet) -> int:
    return estimate_tokens(render_snippet(snippet)) + 1


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


def _quote(content: str, terms: Sequence[str], limit: int) -> str:
    """The message cut to ``limit`` characters around its first matched word."""
    line = " ".join(content.split())
    if len(line) <= limit:
        return line
    lowered = line.casefold()
    hits = [lowered.find(t[:5]) for t in terms if len(t) >= 3]
    first = min((h for h in hits if h >= 0), default=0)
    start = max(0, min(first - limit // 4, len(line) - limit))
    cut = line[start : start + limit - 2].strip()
    return ("…" if start > 0 else "") + cut + ("…" if start + limit - 2 < len(line) else "")


def _dedupe_key(text: str) -> str:
    return re.sub(r"\W+", " ", text.casefold()).strip()


# --------------------------------------------------------------------------
# Messages
# --------------------------------------------------------------------------
def choose_terms(history: HistoryStore, terms: tuple[str, ...]) -> tuple[str, ...]:
    """Terms worth an OR query: absent ones dropped, very common ones too while a rarer one stays."""
    if not terms:
        return ()
    total = history.message_total()
    common = max(1, int(total * COMMON_SHARE))
    counts = history.term_counts(terms, cap=common)
    present = tuple(t for t in terms if counts.get(t, 0) > 0)
    if total < MIN_MESSAGES_FOR_COMMON or len(present) <= 1:
        return present
    rare = tuple(t for t in present if counts[t] < common)
    if rare:
        return rare
    return (min(present, key=lambda t: (counts[t], present.index(t))),)


def _resolve_span(history: HistoryStore, found: TimeFilter, request: RecallRequest) -> TimeFilter | None:
    if not found.anchor:
        return found
    match = fts_or_query(choose_terms(history, query_terms(found.anchor)))
    if match is None:
        return None
    rows = history.recall_candidates(match, 1, before_id=request.before_id)
    rows = [r for r in rows if r.message_id not in request.exclude_message_ids]
    if not rows:
        return None
    return found.around(rows[0].created.astimezone().date())


def _message_lists(history: HistoryStore, request: RecallRequest, today: date,
                   result: RecallResult) -> tuple[dict[int, RecallRow], list[tuple[list[int], float]]]:
    found = read_time(request.query, today)
    span = _resolve_span(history, found, request) if found else None
    text = found.rest if found else request.query
    all_terms = query_terms(text)
    prefix = request.prefix_last and bool(all_terms) and typing_last_word(text)
    terms = choose_terms(history, all_terms[:-1] if prefix else all_terms)
    if prefix:
        terms = (*terms, all_terms[-1])
    result.terms = terms
    match = fts_or_query(terms, prefix_last=prefix)
    rows: dict[int, RecallRow] = {}
    lists: list[tuple[list[int], float]] = []

    def keep(found_rows: list[RecallRow]) -> list[int]:
        ids = []
        for row in found_rows:
            if row.message_id in request.exclude_message_ids:
                continue
            rows.setdefault(row.message_id, row)
            ids.append(row.message_id)
        return ids

    common = dict(before_id=request.before_id, conversation_id=request.conversation_id)
    if match is not None:
        lists.append((keep(history.recall_candidates(match, CANDIDATES, **common)), 1.0))
    if span is not None and span.start is not None and span.end is not None:
        result.span = (span.start, span.end)
        since, until = _ts(span.start), _ts(span.end)
        if match is not None:
            in_span = history.recall_candidates(match, CANDIDATES, since=since, until=until, **common)
        else:
            in_span = history.recent_in_span(since, until, CANDIDATES, before_id=request.before_id)
        lists.append((keep(in_span), SPAN_WEIGHT))
    if request.semantic is not None and request.query.strip():
        try:
            ranked = request.semantic.rank_messages(request.query, CANDIDATES)
        except Exception as error:  # embeddings are a bonus; lexical recall stands alone
            result.notices.append(f"semantic ranking unavailable: {error}")
            ranked = []
        missing = [mid for mid in ranked if mid not in rows and mid not in request.exclude_message_ids]
        for row in history.rows_for_ids(missing, before_id=request.before_id,
                                        conversation_id=request.conversation_id):
            rows[row.message_id] = row
        lists.append(([mid for mid in ranked if mid in rows], 1.0))
    return rows, lists


def _message_snippets(history: HistoryStore, request: RecallRequest, today: date,
                      result: RecallResult) -> list[Snippet]:
    rows, lists = _message_lists(history, request, today, result)
    scores = rrf(lists)
    order = sorted(rows, key=lambda mid: (-scores.get(mid, 0.0), -mid))
    snippets: list[Snippet] = []
    seen_texts: set[str] = set()
    for mid in order:
        row = rows[mid]
        key = _dedupe_key(row.content)
        if not key or key in seen_texts:
            continue
        seen_texts.add(key)
        matched = Turn(row.message_id, row.role, row.created,
                       _quote(row.content, result.terms, MATCH_CHARS), matched=True)
        turns = [matched]
        if request.neighbours:
            other = history.neighbour(row.message_id, row.conversation_id, after=row.role == "user")
            if other is not None and other.id is not None and other.id not in request.exclude_message_ids \
                    and (request.before_id is None or other.id < request.before_id):
                quoted = Turn(other.id, other.role, other.created,
                              _quote(other.content or "", result.terms, NEIGHBOUR_CHARS))
                turns = [matched, quoted] if other.id > row.message_id else [quoted, matched]
        snippets.append(Snippet(
            source="message", score=scores.get(mid, 0.0), date=turns[0].created,
            text=matched.text, highlight=row.highlight, conversation_id=row.conversation_id,
            conversation_title=row.conversation_title, message_id=row.message_id, role=row.role,
            turns=tuple(turns), archived=row.archived,
        ))
    return snippets


def merge_adjacent(snippets: Sequence[Snippet]) -> list[Snippet]:
    """Join snippets of one conversation whose turns touch or overlap (best score kept first)."""
    merged: list[Snippet] = []
    for snippet in snippets:
        if snippet.source != "message":
            merged.append(snippet)
            continue
        for index, other in enumerate(merged):
            if other.source != "message" or other.conversation_id != snippet.conversation_id:
                continue
            if set(other.message_ids) & set(snippet.message_ids):
                turns = {t.message_id: t for t in other.turns}
                for turn in snippet.turns:
                    if turn.message_id not in turns or turn.matched:
                        turns[turn.message_id] = turn
                ordered = tuple(turns[k] for k in sorted(turns))
                merged[index] = replace(other, turns=ordered, date=ordered[0].created)
                break
        else:
            merged.append(snippet)
    return merged


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
    ordered = sorted(items, key=lambda i: i.id)  # the index is reused while the set is the same
    index = index_for([Document(i.id, _item_text(i)) for i in ordered])
    by_id = {i.id: i for i in ordered}
    return [(by_id[key], -score) for key, score in index.search(terms, limit)]


def _memory_snippets(memory, request: RecallRequest) -> list[Snippet]:
    items = [] if not request.live_memory else memory.items("all", include_expired=False)
    archived_ids = set()
    for item in memory.archived("all"):
        archived_ids.add(item.id)
        items.append(item)
    wanted = {k for k in request.sources if k in ("note", "fact")}
    items = [i for i in items if i.kind in wanted]
    ranked = rank_memory(items, request.query, limit=CANDIDATES)
    scores = rrf([([i.id for i, _ in ranked], 1.0)])
    return [
        Snippet(source=item.kind, score=scores[item.id], date=item.updated,
                text=_one_line(_item_text(item), ITEM_CHARS), item_id=item.id, scope=item.scope,
                archived=item.id in archived_ids)
        for item, _ in ranked
    ]


def _project_snippets(project, request: RecallRequest) -> list[Snippet]:
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
                                text=_quote(text, terms, MATCH_CHARS), where=key))
    return snippets


# --------------------------------------------------------------------------
# The entry point
# --------------------------------------------------------------------------
def recall(request: RecallRequest, *, history: HistoryStore | None = None, memory=None,
           project=None, warn: Callable[[str], None] | None = None) -> RecallResult:
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
    merged = [s for group in per_source for s in group]
    merged.sort(key=lambda s: (-s.score, s.source, -(s.message_id or 0), s.item_id or "", s.where or ""))
    merged = merge_adjacent(merged)
    chosen: list[Snippet] = []
    used = 0
    for snippet in merged:
        if request.limit > 0 and len(chosen) >= request.limit:
            break
        cost = snippet_tokens(snippet)
        if request.token_budget > 0 and used + cost > request.token_budget:
            continue
        chosen.append(snippet)
        used += cost
    result.snippets = chosen
    for notice in result.notices:
        if warn is not None:
            warn(notice)
    return result


def recall_for(services, query: str, **options) -> RecallResult:
    """:func:`recall` over a profile's stores (``services`` from ``bootstrap``)."""
    request = RecallRequest(query=query, **options)
    return recall(request, history=services.history, memory=services.memory, project=services.project)


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

