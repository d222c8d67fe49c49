"""Recall's queries over one history database: ranked candidates, term counts, neighbours.

Functions of an open connection; :class:`agenttui.core.history.store.HistoryStore`
calls them under its lock and owns the connection, its errors and its
caches. :mod:`agenttui.core.recall.retrieval` decides what to ask.

Two decisions for speed (``bench/bench_recall_speed.py``), neither changing a
result:

* **Rank first, fetch after.** SQLite computes a query's output columns for
  every row it sorts; the content (above all ``snippet()``, which re-reads
  the text) of thousands of matches costs more than their bm25. So the best
  ids are ranked alone and only their rows are read.
* **Rank on the index alone when no filter needs the message row**
  (:func:`_ranked_on_index`): checking each match's role costs more than its
  bm25, so the index is ranked alone, over-fetched, and tool traffic dropped
  from the best few. When enough rows survive they are exactly the filtered
  ranking's best; otherwise the filtered ranking runs.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

from agenttui.core.history.bm25_postings import Bm25Postings
from agenttui.core.history.recall_rows import RecallRowCache
from agenttui.core.history.rows import MESSAGE_COLUMNS, from_ts, message_from_row
from agenttui.core.models import Message
from agenttui.core.recall.cjk import index_text
from agenttui.core.recall.text import fts_phrase

#: Match markers and context of FTS5 snippets (search boxes, the History pane).
HIGHLIGHT_OPEN = "«"
HIGHLIGHT_CLOSE = "»"
SNIPPET_TOKENS = 12
#: What recall returns: user and assistant turns, not tool traffic.
_RECALLED_KINDS = ("m.role IN ('user', 'assistant')", "m.tool_calls IS NULL")
#: Recall ranks this many times the rows it needs on the index alone (``_ranked_on_index``).
RECALL_OVERFETCH = 2
#: ``neighbour`` looks this many messages up or down its branch at most (tool steps between).
NEIGHBOUR_STEPS = 12
#: Ids per ``IN (...)``: under SQLite's bound-variable limit on every build.
_IDS_PER_QUERY = 500
_ROW_COLUMNS = "m.id, m.conversation_id, c.title, c.archived, m.role, m.content, m.created"
_ROW_FROM = "FROM messages m JOIN conversations c ON c.id = m.conversation_id"
#: The full-text indexes recall ranks on: words (``porter``) and CJK characters (schema v8,
#: searched by bigram phrases: core/recall/cjk.py).
INDEXES = {"words": "messages_fts", "cjk": "messages_cjk"}


class RecallRow(NamedTuple):
    """One candidate message for recall (see :func:`candidates`).

    A named tuple, not a frozen dataclass: recall builds ~400 a turn, and a frozen
    dataclass's ``__init__`` (one ``object.__setattr__`` per field) cost about 1.5 ms
    of them (bench/bench_recall_speed.py).
    """

    message_id: int
    conversation_id: str
    conversation_title: str
    archived: bool
    role: str
    content: str
    created: datetime
    bm25: float  # SQLite's: more negative = more relevant
    highlight: str  # FTS5 snippet, matches in HIGHLIGHT_OPEN/CLOSE


#: A row from its nine values at once (the named tuple's ``__new__`` takes them one by one)
_make_row = RecallRow._make


def _recall_row(row: Sequence[Any], score: float = 0.0, highlight: str = "") -> RecallRow:
    mid, cid, title, archived, role, content, created = row[:7]
    return RecallRow(mid, cid, title or "", bool(archived), role, content or "", from_ts(created),
                     float(score), highlight)


def candidates(db: sqlite3.Connection, match: str, limit: int, *, since: str | None = None,
               until: str | None = None, conversation_id: str | None = None, before_id: int | None = None,
               highlight: bool = False, index: str = "words",
               cache: RecallRowCache | None = None, postings: Bm25Postings | None = None) -> list[RecallRow]:
    """User and assistant messages matching an FTS5 ``match`` (best bm25 first).

    ``match`` comes from :func:`agenttui.core.recall.text.fts_or_query`. Tool
    traffic is left out (a tool result means nothing without its call).
    ``since``/``until`` are stored timestamps bounding ``created``. Ties go to
    the newer message. ``highlight`` adds the FTS5 snippet with matches
    marked (search boxes; the words index only). ``index`` names one of ``INDEXES``.
    ``cache`` holds rows read before (kept exact by the store: recall_rows.py); ``postings``
    ranks as SQLite would, from the word postings the app keeps (bm25_postings.py).
    Raises ``sqlite3.OperationalError`` on a bad match.
    """
    fts = INDEXES[index]
    where = [f"{fts} MATCH ?", *_RECALLED_KINDS]
    params: list[object] = [match]
    for clause, value in (("m.created >= ?", since), ("m.created < ?", until),
                          ("m.conversation_id = ?", conversation_id), ("m.id < ?", before_id)):
        if value is not None:
            where.append(clause)
            params.append(value)
    found: list[RecallRow] | None = None
    if since is None and until is None and conversation_id is None:  # no filter needs the row
        found = _ranked_on_index(db, match, before_id, int(limit), fts, cache, postings)
    elif since is not None or until is not None:
        # the span's id range bounds the index scan: bm25 is then computed for the span's
        # matches, not every match (its statistics are the whole index's either way)
        span = [(clause, value) for clause, value in (("created >= ?", since), ("created < ?", until))
                if value is not None]
        lowest, highest = db.execute(f"SELECT MIN(id), MAX(id) FROM messages WHERE "
                                     f"{' AND '.join(c for c, _ in span)}", [v for _, v in span]).fetchone()
        if lowest is None:
            return []
        where += [f"{fts}.rowid >= ?", f"{fts}.rowid <= ?"]
        params += [int(lowest), int(highest)]
    if found is None:
        rows = db.execute(
            f"SELECT {_ROW_COLUMNS}, r.score FROM (SELECT {fts}.rowid AS id, bm25({fts}) AS score "
            f"      FROM {fts} JOIN messages m ON m.id = {fts}.rowid "
            f"     WHERE {' AND '.join(where)} ORDER BY score, m.id DESC LIMIT ?) AS r "
            "JOIN messages m ON m.id = r.id JOIN conversations c ON c.id = m.conversation_id "
            "ORDER BY r.score, m.id DESC", (*params, int(limit))).fetchall()
        found = [_recall_row(row, row[7]) for row in rows]
    if highlight and index == "words":
        marks = _highlights(db, match, [row.message_id for row in found])
        found = [row._replace(highlight=marks.get(row.message_id, "")) for row in found]
    return found


def _ranked_on_index(db: sqlite3.Connection, match: str, before_id: int | None,
                     limit: int, fts: str, cache: RecallRowCache | None = None,
                     postings: Bm25Postings | None = None) -> list[RecallRow] | None:
    """The best ``limit`` candidate rows ranked on the FTS index alone, or None when unsure
    (see the module doc). Rows in ``cache`` are not read again; rows read are put there.
    ``postings`` gives the ranking SQLite would (the same ids and doubles) without scoring
    every match again; where it cannot, it says None and SQLite ranks."""
    cache = RecallRowCache() if cache is None else cache
    bound = "AND rowid < ? " if before_id is not None else ""
    fetch = limit * RECALL_OVERFETCH
    ranked = None if postings is None else postings.ranked(db, fts, match, before_id, fetch)
    if ranked is None:
        ranked = db.execute(
            f"SELECT rowid, bm25({fts}) AS score FROM {fts} WHERE {fts} MATCH ? {bound}"
            "ORDER BY score, rowid DESC LIMIT ?",
            (match, *(() if before_id is None else (int(before_id),)), fetch)).fetchall()
    rows: list[RecallRow] = []
    start = 0
    # rows are read in rank order, only as many as are still missing: the over-fetched ids
    # are read only when tool traffic was dropped (reading a row costs about what ranking it does)
    while len(rows) < limit and start < len(ranked):
        chunk = ranked[start:start + min(limit - len(rows), _IDS_PER_QUERY)]
        start += len(chunk)
        kept = cache.rows  # looked up directly: ~1,000 ids a turn pass here
        missing = [mid for mid, _ in chunk if mid not in kept]
        if missing:
            read = _rows_by_id(db, missing, cache)
            for mid in missing:
                cache.put(mid, read.get(mid))  # None: tool traffic, never recalled
            kept = cache.rows
        else:
            read = {}
        for mid, score in chunk:  # in rank order already: bm25, then the newer first
            row = read.get(mid) or kept.get(mid)
            if row is not None:
                rows.append(_make_row((*row[:7], float(score), "")))
    if len(rows) >= limit or len(ranked) < fetch:  # enough survived, or every match was seen
        return rows[:limit]
    return None


def _rows_by_id(db: sqlite3.Connection, ids: Sequence[int], cache: RecallRowCache) -> dict[int, RecallRow]:
    """The recalled kinds' rows of these ids, as the join with ``conversations`` reads them.

    The messages alone, then the titles of conversations ``cache`` does not hold: a turn
    reads ~300 rows of a few dozen conversations, and the join's look-up per row cost a
    fifth of the read (bench/bench_recall_speed.py). A message whose conversation is
    missing is left out, as the join leaves it out.
    """
    found = db.execute(
        f"SELECT m.id, m.conversation_id, m.role, m.content, m.created FROM messages m "
        f"WHERE m.id IN ({', '.join('?' * len(ids))}) AND {' AND '.join(_RECALLED_KINDS)}", list(ids)).fetchall()
    known = cache.conversations
    unknown = list({cid for _, cid, *_ in found if cid not in known})
    read: dict[str, tuple[str, bool]] = {}  # untitled ones too: the cache keeps only titled ones
    for start in range(0, len(unknown), _IDS_PER_QUERY):
        chunk = unknown[start:start + _IDS_PER_QUERY]
        for cid, title, archived in db.execute(
                f"SELECT id, title, archived FROM conversations WHERE id IN ({', '.join('?' * len(chunk))})", chunk):
            read[cid] = (title or "", bool(archived))
            cache.put_conversation(cid, title or "", bool(archived))
    rows: dict[int, RecallRow] = {}
    for mid, cid, role, content, created in found:
        conversation = known.get(cid) or read.get(cid)
        if conversation is not None:
            rows[mid] = _make_row((mid, cid, conversation[0], conversation[1], role, content or "",
                                   from_ts(created), 0.0, ""))
    return rows


def _highlights(db: sqlite3.Connection, match: str, ids: Sequence[int]) -> dict[int, str]:
    """FTS5 snippets (matches marked) of just these messages."""
    if not ids:
        return {}
    marks = ", ".join("?" * len(ids))
    return dict(db.execute(
        f"SELECT rowid, snippet(messages_fts, 0, ?, ?, '…', ?) FROM messages_fts "
        f"WHERE messages_fts MATCH ? AND rowid IN ({marks})",
        (HIGHLIGHT_OPEN, HIGHLIGHT_CLOSE, SNIPPET_TOKENS, match, *ids)).fetchall())


def count_term(db: sqlite3.Connection, term: str, cap: int) -> int:
    """How many messages hold ``term`` (stemmed, as a phrase), counted up to ``cap``."""
    row = db.execute("SELECT COUNT(*) FROM (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT ?)",
                     (fts_phrase(term), cap)).fetchone()
    return int(row[0]) if row else 0


def rows_for_ids(db: sqlite3.Connection, ids: Sequence[int], *, before_id: int | None = None,
                 conversation_id: str | None = None) -> list[RecallRow]:
    """User/assistant text messages with these ids (for recall's embedding ranking)."""
    wanted = [int(i) for i in ids if before_id is None or int(i) < before_id]
    rows: list[Any] = []
    for start in range(0, len(wanted), _IDS_PER_QUERY):
        chunk: list[object] = list(wanted[start:start + _IDS_PER_QUERY])
        rows += db.execute(
            f"SELECT {_ROW_COLUMNS} {_ROW_FROM} WHERE m.id IN ({', '.join('?' * len(chunk))}) "
            f"AND {' AND '.join(_RECALLED_KINDS)}"
            + (" AND m.conversation_id = ?" if conversation_id is not None else ""),
            chunk + ([conversation_id] if conversation_id is not None else [])).fetchall()
    return [_recall_row(row) for row in rows]


def recent_in_span(db: sqlite3.Connection, since: str, until: str, limit: int,
                   before_id: int | None = None) -> list[RecallRow]:
    """User messages created in [since, until), newest first (for "what did I do last week")."""
    rows = db.execute(
        f"SELECT {_ROW_COLUMNS} {_ROW_FROM} WHERE m.created >= ? AND m.created < ? AND m.role = 'user'"
        + (" AND m.id < ?" if before_id is not None else "")
        + " ORDER BY m.created DESC, m.id DESC LIMIT ?",
        [since, until, *([int(before_id)] if before_id is not None else []), int(limit)]).fetchall()
    return [_recall_row(row) for row in rows]


def index_cjk(db: sqlite3.Connection, message_id: int, message: Message) -> None:
    """Add a message being stored to the CJK index when it holds CJK text (the store's insert
    path, in its transaction; see schema v8)."""
    if message.role in ("user", "assistant") and not message.tool_calls:
        units = index_text(message.content)
        if units is not None:
            db.execute("INSERT INTO messages_cjk(rowid, units) VALUES (?, ?)", (message_id, units))


def earliest(db: sqlite3.Connection, before_id: int | None = None) -> datetime | None:
    """When the oldest user/assistant message was written ("our first conversation"), or None."""
    row = db.execute(
        "SELECT created FROM messages WHERE role IN ('user', 'assistant')"
        + (" AND id < ?" if before_id is not None else "") + " ORDER BY created LIMIT 1",
        [int(before_id)] if before_id is not None else []).fetchone()
    return from_ts(row[0]) if row else None


def neighbour(db: sqlite3.Connection, message_id: int, conversation_id: str, *, after: bool) -> Message | None:
    """The nearest user/assistant text message before (or after) ``message_id`` on its
    branch: up through its parents, or down through its newest children (the latest
    answer to a question), past tool traffic, at most ``NEIGHBOUR_STEPS`` messages away."""
    # one statement a step: the next message's row and whether it is a turn to quote
    step = ("SELECT id FROM messages WHERE conversation_id = ? AND parent_id = ? "
            "ORDER BY id DESC LIMIT 1" if after else
            "SELECT parent_id FROM messages WHERE conversation_id = ? AND id = ?")
    query = (f"SELECT {MESSAGE_COLUMNS}, role IN ('user', 'assistant') AND tool_calls IS NULL "
             f"AND content IS NOT NULL AND content != '' FROM messages WHERE id = ({step})")
    current = int(message_id)
    for _ in range(NEIGHBOUR_STEPS):
        found = db.execute(query, (conversation_id, current)).fetchone()
        if found is None:
            return None
        if found[-1]:
            return message_from_row(found[:-1])
        current = int(found[0])
    return None


def first_neighbours(db: sqlite3.Connection, wanted: Sequence[tuple[int, str, bool]]
                     ) -> dict[tuple[int, bool], Message | None]:
    """:func:`neighbour` for many ``(message_id, conversation_id, after)`` at once, where one
    step decides it: the next message up or down is a turn (or there is none).

    One statement per direction instead of one per message (recall asks for ~60 a turn).
    What one step does not decide -- tool traffic between, a message not found in that
    conversation -- is left out of the answer, for :func:`neighbour` to walk.
    """
    out: dict[tuple[int, bool], Message | None] = {}
    turn = ("n.role IN ('user', 'assistant') AND n.tool_calls IS NULL "
            "AND n.content IS NOT NULL AND n.content != ''")
    columns = ", ".join(f"n.{c.strip()}" for c in MESSAGE_COLUMNS.split(","))
    for after in (False, True):
        expected = {int(mid): cid for mid, cid, way in wanted if way is after}
        ids = list(expected)
        for start in range(0, len(ids), _IDS_PER_QUERY):
            chunk = ids[start:start + _IDS_PER_QUERY]
            # the same steps as neighbour's: the parent by id, or the newest child in the conversation
            step = ("(SELECT id FROM messages WHERE conversation_id = m.conversation_id AND parent_id = m.id "
                    "ORDER BY id DESC LIMIT 1)" if after else "m.parent_id")
            rows = db.execute(
                f"SELECT m.id, m.conversation_id, n.id IS NOT NULL, {turn}, {columns} FROM messages m "
                f"LEFT JOIN messages n ON n.id = {step} WHERE m.id IN ({', '.join('?' * len(chunk))})",
                chunk).fetchall()
            for mid, cid, found, is_turn, *message in rows:
                if cid != expected[mid]:
                    continue  # not in that conversation: neighbour's own answer (None)
                if not found:
                    out[(mid, after)] = None
                elif is_turn:
                    out[(mid, after)] = message_from_row(message)
    return out
