"""Conversation history of one profile: SQLite + WAL + FTS5 (docs/storage.md).

Decisions worth knowing before changing anything here:

* **Lazy open.** Building a store costs nothing; the file is created and
  migrated on first use, so the UI paints its first frame before SQLite runs.
  After :meth:`HistoryStore.close` the next call reopens it.
* **Private files.** The database file is created 0600 (``files.private_file``)
  in a 0700 directory *before* SQLite opens it; SQLite creates ``-wal`` and
  ``-shm`` with the permissions of the database file, and we chmod them to
  0600 after opening anyway. We do not touch ``os.umask``: it is
  process-wide and the UI opens stores from worker threads.
* **Durability.** WAL with ``synchronous=NORMAL``: a commit is written to the
  WAL (in the OS page cache) before ``COMMIT`` returns, so once ``append``
  has returned, killing the process -- even with SIGKILL -- never loses that
  message and never corrupts the file (the SIGKILL trials in the tests check
  exactly this). Only a power loss or kernel crash may drop the last few
  commits (no fsync per commit); it still cannot corrupt the database, as the
  WAL is checksummed and replayed only up to the last valid commit.
  ``synchronous=FULL`` would add an fsync per message for that case alone.
* **O(log n) appends.** The append path is one INSERT (plus its FTS trigger)
  and one UPDATE of the conversation by primary key -- no COUNT(*), no scan.
  ``conversations.message_count`` is a counter kept in the same transaction.
* **Redaction before persistence.** Content, tool-call arguments,
  tool results, names and titles pass :func:`agenttui.security.redact_secrets`
  (with the profile's extra patterns) before they reach SQLite; exports
  redact again. Messages with ``persist=False`` are never written.
* **Threads.** One connection per store (``check_same_thread=False``) guarded
  by one lock: the UI calls from worker threads, and SQLite connections must
  not be used concurrently.
* **Failures to write** (disk full, "database is locked" after the busy
  timeout, read-only file) raise :class:`HistoryWriteError`; the transaction
  is rolled back and the caller still holds its in-memory message, so the
  agent loop can warn and retry.
* **Search** includes archived conversations: ``/reset`` archives instead of
  destroying, and what was archived is exactly what one later searches
  for. Pass ``include_archived=False`` to leave them out. User text is turned
  into a safe FTS5 query (:func:`to_fts_query`); no input makes it raise.
* **Deletes scrub.** ``secure_delete`` is on and the WAL is checkpointed after
  ``delete``/``clear``, so deleted conversations do not linger in free pages.
* **A corrupt file** (not a database) is moved aside as
  ``history.sqlite3.corrupt-<timestamp>`` with its ``-wal``/``-shm``, a fresh
  database is started, and :attr:`HistoryStore.problems` says where it went.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from agenttui.core import files
from agenttui.core.config.profile_claims import ProfileClaim
from agenttui.core.history import recall_queries
from agenttui.core.history.bm25_postings import Bm25Postings
from agenttui.core.history.neighbour_cache import NeighbourCache
from agenttui.core.history.recall_queries import (
    HIGHLIGHT_CLOSE,
    HIGHLIGHT_OPEN,
    SNIPPET_TOKENS,
    RecallRow,
    index_cjk,
)
from agenttui.core.history.recall_rows import RecallRowCache
from agenttui.core.history.rows import MESSAGE_COLUMNS, from_ts, message_from_row, message_meta, to_ts
from agenttui.core.history.schema import SchemaTooNewError, check_not_too_new, migrate
from agenttui.core.history.term_counts import TermCountCache
from agenttui.core.models import Conversation, Message, SearchHit, ToolCall, new_id, utcnow
from agenttui.core.recall.text import fts_phrase
from agenttui.core.usage import usage_rows
from agenttui.core.usage.message_usage import MessageUsage
from agenttui.core.well_formed import well_formed
from agenttui.security import redact_secrets

BUSY_TIMEOUT_S = 5.0
TITLE_MAX_CHARS = 60
EXPLICIT_TITLE_MAX_CHARS = 200
#: Marks around matched terms in :attr:`SearchHit.snippet`; plain characters
#: (not Rich markup), so the CLI can print them and the UI can restyle them.
#: Search terms beyond this are ignored: bounds the cost of a pasted novel.
MAX_QUERY_TERMS = 16
#: The last term is prefix-matched ("migr" finds "migration") from this length on;
#: shorter prefixes would expand to a large part of the vocabulary.
MIN_PREFIX_CHARS = 3
EXPORT_BATCH = 500
#: bm25 ranks at most this many of the most recent matches (see ``search``).
RANK_WINDOW = 2_000
#: ``term_counts`` stops counting here: past it a term is common, however common.
TERM_COUNT_CAP = 5_000

#: Tables every query needs; one missing means a damaged file (see ``_check_tables``).
_REQUIRED_TABLES = ("conversations", "messages", "messages_fts", "messages_cjk", "message_usage")
_SMALLEST_PAGE = 512  # bytes: SQLite's smallest page size, so its smallest database file
_SQLITE_NOTADB = 26
_SQLITE_CORRUPT = 11


class HistoryError(Exception):
    """The history database could not be used."""


class HistoryWriteError(HistoryError):
    """A write failed (disk full, database locked past the busy timeout, ...).

    Nothing was written (the transaction was rolled back); the caller still
    holds its in-memory data and may retry later.
    """


class UnknownConversationError(HistoryError, LookupError):
    """No conversation with that id in this profile."""

    def __init__(self, cid: str) -> None:
        self.conversation_id = cid
        super().__init__(f"no conversation with id {cid!r}")


# --------------------------------------------------------------------------
# Pure helpers
# --------------------------------------------------------------------------
_WORD_CHAR = re.compile(r"[^\W_]")
_WHITESPACE = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def to_fts_query(text: str, prefix_last: bool = True) -> str | None:
    """Turn arbitrary user text into a valid FTS5 MATCH expression, or None.

    Every whitespace-separated chunk becomes a quoted phrase (inner quotes
    doubled), so FTS5 operators (AND, OR, NOT, NEAR, ``-``, ``*``, ``^``,
    ``:``, parentheses) are taken literally and punctuation inside a chunk
    ("foo-bar", "sk-proj") becomes an exact phrase, as the tokenizer splits
    the stored text the same way. Chunks without a letter or digit match
    nothing and are dropped. Phrases are ANDed (FTS5's implicit operator).
    The last chunk is prefix-matched unless the text ends in whitespace (the
    user finished the word) or it is shorter than ``MIN_PREFIX_CHARS``.
    """
    text = text.encode("utf-8", "ignore").decode("utf-8").replace("\x00", "")
    chunks = [chunk for chunk in text.split() if _WORD_CHAR.search(chunk)]
    if not chunks:
        return None
    chunks = chunks[:MAX_QUERY_TERMS]
    phrases = ['"' + chunk.replace('"', '""') + '"' for chunk in chunks]
    last = chunks[-1]
    if (
        prefix_last
        and not text[-1:].isspace()
        and _WORD_CHAR.search(last[-1])
        and sum(1 for ch in last if _WORD_CHAR.match(ch)) >= MIN_PREFIX_CHARS
    ):
        phrases[-1] += "*"
    return " ".join(phrases)


def derive_title(content: str | None, max_chars: int = TITLE_MAX_CHARS) -> str:
    """A title from the first non-empty line of a (redacted) user message.

    Markdown heading/quote/list markers are dropped, whitespace collapsed and
    control characters removed; long lines are cut at a word boundary with "…".
    """
    if not content:
        return ""
    for line in content.splitlines():
        line = _CONTROL.sub("", line)
        line = line.strip().lstrip("#>*-+ \t").strip()
        line = _WHITESPACE.sub(" ", line)
        if line:
            return _truncate(line, max_chars)
    return ""


def _truncate(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    cut = text[: max_chars - 1]
    space = cut.rfind(" ")
    if space >= max_chars // 2:
        cut = cut[:space]
    return cut.rstrip(" ,.;:-") + "…"


def _clean_title(title: str) -> str:
    title = _WHITESPACE.sub(" ", _CONTROL.sub("", title)).strip()
    return _truncate(title, EXPLICIT_TITLE_MAX_CHARS)


_CONVERSATION_COLUMNS = "id, title, created, updated, model, archived, message_count, active_leaf_id"
#: ``Message.parent_id`` given to ``append``: start a new root (editing a conversation's first
#: question). Never a real id: AUTOINCREMENT ids start at 1.
NEW_ROOT = 0
#: A path walk without a limit (SQLite needs a number).
_NO_LIMIT = 1 << 62


def _turn_leaf(db: sqlite3.Connection, cid: str, turn_id: str, leaf: int | None) -> int | None:
    """The message the next one of turn ``turn_id`` follows: that turn's latest message, else ``leaf``.

    The conversation's active leaf is where *any* process last wrote: with the same conversation
    open in two windows, a reply followed the other window's question or reply, not the question
    it answers (its own turn's). A turn's messages are written one append at a time, so each
    finds its predecessor by the turn's id (the newest rows of the conversation's index).
    """
    row = db.execute("SELECT id FROM messages WHERE conversation_id = ? AND turn_id = ? ORDER BY id DESC LIMIT 1",
                     (cid, turn_id)).fetchone()
    return row[0] if row else leaf


def _insert_messages(db: sqlite3.Connection, cid: str, stored: Sequence[Message],
                     parents: Sequence[int | None] | None = None, active: int | None = None) -> None:
    """INSERT prepared (redacted) messages in order; assigns their ids and parents and moves
    the conversation's active leaf to the last one (or to ``stored[active]``). Caller holds a write.

    ``parents`` (imports of trees): for each message the index in ``stored`` of its parent,
    None for a root; parents come before their children. Without it, each message follows
    its ``parent_id`` (see :attr:`Message.parent_id`): None continues the branch -- the
    message before it, the first one its turn's latest message (:func:`_turn_leaf`) or else
    the active leaf.
    """
    row = db.execute("SELECT active_leaf_id FROM conversations WHERE id = ?", (cid,)).fetchone()
    previous: int | None = row[0] if row else None
    branched = False  # a message got a sibling (schema v7's flag)
    renumbered: dict[int, int] = {}  # ids the messages had where they came from -> their new ones
    for index, message in enumerate(stored):
        if message.summary_of is not None and message.id is not None:  # a /compact summary copied
            first, last = message.summary_of  # (import, fork, saved incognito): its range follows
            message.summary_of = ((renumbered[first], renumbered[last])
                                  if first in renumbered and last in renumbered else None)
        if parents is not None:
            up = parents[index]
            parent = stored[up].id if up is not None else None
        elif message.parent_id is None:
            parent = previous if index or message.turn_id is None else _turn_leaf(db, cid, message.turn_id, previous)
        elif message.parent_id == NEW_ROOT:
            parent = None
        else:
            parent = int(message.parent_id)
            if db.execute("SELECT 1 FROM messages WHERE id = ? AND conversation_id = ?",
                          (parent, cid)).fetchone() is None:
                raise HistoryError(f"message {parent} is not in conversation {cid}")
        # a parent given, or a turn's own latest message (another window may have written
        # under it meanwhile) rather than the message just before: it may have children already
        if (parents is not None or message.parent_id is not None or parent != previous) and not branched:
            # a sibling for an existing message: the conversation has branches from now on
            branched = db.execute("SELECT 1 FROM messages WHERE conversation_id = ? AND parent_id IS ? "
                                  "LIMIT 1", (cid, parent)).fetchone() is not None
        cursor = db.execute(
            "INSERT INTO messages (conversation_id, role, content, tool_calls, "
            "tool_call_id, name, image_b64, image_mime, turn_id, created, tokens, "
            "incomplete, meta, parent_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                cid, message.role, message.content,
                json.dumps([{"id": c.id, "name": c.name, "arguments": c.arguments,
                             **({"extra": c.extra} if c.extra else {})}
                            for c in message.tool_calls]) if message.tool_calls else None,
                message.tool_call_id, message.name, message.image_b64,
                message.image_mime, message.turn_id, to_ts(message.created),
                int(message.tokens), int(message.incomplete), message_meta(message), parent,
            ),
        )
        row_id = cursor.lastrowid
        assert row_id is not None  # set by the INSERT above
        index_cjk(db, row_id, message)
        if message.usage is not None and message.role == "assistant":
            usage_rows.insert(db, row_id, cid, to_ts(message.created), message.usage)
        if message.id is not None:
            renumbered[message.id] = row_id
        message.id = row_id
        message.parent_id = parent
        previous = message.id
    if stored:
        leaf = stored[active].id if active is not None else previous
        db.execute("UPDATE conversations SET active_leaf_id = ?, branched = branched | ? WHERE id = ?",
                   (leaf, int(branched), cid))


def _not_a_database(path: Path) -> bool:
    """A file too small to be a database SQLite wrote: SQLite would take a 1-byte
    file over as a new, empty database, and rejects any larger non-database itself
    (SQLITE_NOTADB, handled in ``_db``).

    Decided from ``stat`` alone, never by reading the header: SQLite's locks are
    POSIX locks, held per process, and closing *any* descriptor of the file drops
    every lock this process holds on it -- another connection's included (the
    incognito view, the embedding index, a backup). Another process would then
    believe it is the last connection, checkpoint and delete the ``-wal`` this
    one still writes to. A database file is whole pages of at least 512 bytes
    (empty is a new one; in WAL mode everything may still sit in ``-wal``).
    """
    try:
        size = path.stat().st_size
    except OSError:
        return False  # missing or unreadable: _open reports it
    return 0 < size < _SMALLEST_PAGE


def _conversation_from_row(row: Sequence[Any]) -> Conversation:
    cid, title, created, updated, model, archived, count, leaf = row
    return Conversation(id=cid, title=title, created=from_ts(created),
                        updated=from_ts(updated), model=model,
                        archived=bool(archived), message_count=count, active_leaf_id=leaf)


# --------------------------------------------------------------------------
# The store
# --------------------------------------------------------------------------
#: SQLite's page cache per connection, in KiB (PRAGMA cache_size).
PAGE_CACHE_KIB = 16_384

class HistoryStore:
    """All conversations of one profile in one SQLite file. See the module doc."""

    def __init__(self, db_path: Path, redact_patterns: Sequence[str] = (),
                 *, busy_timeout: float = BUSY_TIMEOUT_S) -> None:
        self.db_path = Path(db_path)
        self.redact_patterns = tuple(redact_patterns)
        self.busy_timeout = busy_timeout
        self.problems: list[str] = []
        self._changes = 0  # see ``epoch``
        self._wrote = False  # a write transaction began since the last close (``close``)
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._claim: ProfileClaim | None = None  # held while the connection is open
        self._term_counts = TermCountCache()
        self._recall_rows = RecallRowCache()
        self._neighbours = NeighbourCache()
        self._postings = Bm25Postings()

    # -- connection ----------------------------------------------------------
    def _db(self) -> sqlite3.Connection:
        """The open connection (the caller holds ``self._lock``)."""
        if self._conn is None:
            self._changes += 1  # a new connection's data_version starts afresh: count it as a change
            if _not_a_database(self.db_path):  # SQLite would take a 1-byte file over as a new one
                self._quarantine("file is not a database (no SQLite header)")
            try:
                self._conn = self._open()
            except sqlite3.DatabaseError as exc:
                if getattr(exc, "sqlite_errorcode", None) not in (_SQLITE_NOTADB, _SQLITE_CORRUPT):
                    raise HistoryError(f"cannot open {self.db_path}: {exc}") from exc
                self._quarantine(str(exc))
                self._conn = self._open()
        return self._conn

    def _open(self) -> sqlite3.Connection:
        try:
            files.private_file(self.db_path)  # 0600 file in a 0700 dir before SQLite sees it
        except OSError as exc:
            raise HistoryWriteError(f"cannot create {self.db_path}: {exc}") from exc
        conn = sqlite3.connect(str(self.db_path), timeout=self.busy_timeout,
                               isolation_level=None, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
            check_not_too_new(conn)  # before WAL mode rewrites the header of a newer file
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA secure_delete = ON")
            # a bound, filled only as pages are read: the default 2 MiB made every recall re-read
            # its FTS pages through the OS (200k messages: ~1 ms of ~5 per candidate query)
            conn.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KIB}")
            migrate(conn)
            self._check_tables(conn)
        except SchemaTooNewError as exc:
            conn.close()
            raise HistoryError(f"{exc} ({self.db_path}); nothing in it was changed") from exc
        except sqlite3.OperationalError as exc:
            conn.close()
            raise HistoryWriteError(f"cannot open {self.db_path}: {exc}") from exc
        except BaseException:
            conn.close()
            raise
        self._tighten_sidecars()
        # The profile's folder must not be moved to the trash while this connection writes into
        # it (agenttui.core.config.profile_claims). Taken here, not in _db: the read-only and
        # in-memory stores open their own way and write into no profile folder.
        if self._claim is None:
            self._claim = ProfileClaim(self.db_path.parent)
            self._claim.take()
        return conn

    def _check_tables(self, conn: sqlite3.Connection) -> None:
        """A file at the current version with a table dropped (a hand edit, a bad
        restore) fails on first use with "no such table": say so at open, naming it."""
        present = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = [name for name in _REQUIRED_TABLES if name not in present]
        if missing:
            raise HistoryError(
                f"history database {self.db_path} is damaged: table(s) {', '.join(missing)} missing. "
                "Nothing was changed. Restore it from a backup (`agenttui backup restore FILE`), "
                "or move the file aside to start a new history.")

    def _sidecars(self) -> list[Path]:
        return [self.db_path.with_name(self.db_path.name + suffix) for suffix in ("-wal", "-shm")]

    def _tighten_sidecars(self) -> None:
        for path in self._sidecars():
            with contextlib.suppress(OSError):
                if path.stat().st_mode & 0o777 != files.FILE_MODE:
                    path.chmod(files.FILE_MODE)

    def _quarantine(self, detail: str) -> None:
        error = files.quarantine(self.db_path, detail)
        for sidecar in self._sidecars():
            with contextlib.suppress(FileNotFoundError):
                files.move_aside(sidecar, "corrupt")
        self.problems.append(
            f"history database {self.db_path} could not be read ({detail}); "
            f"moved aside to {error.moved_to} and started a new one"
        )

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction; any SQLite/OS failure -> HistoryWriteError."""
        with self._lock:
            db = self._db()
            try:
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise HistoryWriteError(f"history not saved to {self.db_path}: {exc}") from exc
            self._wrote = True
            try:
                yield db
                db.execute("COMMIT")
            except BaseException as exc:
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                if isinstance(exc, (sqlite3.Error, OSError)):
                    raise HistoryWriteError(f"history not saved to {self.db_path}: {exc}") from exc
                raise

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            db = self._db()
            try:
                yield db
            except sqlite3.Error as exc:
                raise HistoryError(f"history database {self.db_path} could not be read: {exc}") from exc

    def close(self) -> None:
        """Close the connection (the next call reopens it lazily).

        ``PRAGMA optimize`` (it may ANALYZE, i.e. write) only after this store wrote: a
        session that only read -- an incognito app session, a look at the history --
        leaves the file byte for byte as it was."""
        with self._lock:
            if self._conn is not None:
                if self._wrote:
                    with contextlib.suppress(sqlite3.Error):
                        self._conn.execute("PRAGMA optimize")
                self._wrote = False
                self._conn.close()
                self._conn = None
            if self._claim is not None:
                self._claim.drop()
                self._claim = None

    def __enter__(self) -> HistoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _redact(self, text: str | None) -> str | None:
        """``text`` as stored: secrets redacted, and well-formed (half of a surrogate pair
        from a stream or an export would fail the INSERT and lose the whole write)."""
        if not text:
            return text
        return redact_secrets(well_formed(text), self.redact_patterns)

    # -- conversations -------------------------------------------------------
    def create_conversation(self, title: str | None = None, model: str | None = None) -> Conversation:
        now = utcnow()
        conversation = Conversation(
            id=new_id(), title=_clean_title(self._redact(title) or ""),
            created=now, updated=now, model=model,
        )
        with self._write() as db:
            db.execute(
                "INSERT INTO conversations (id, title, created, updated, model, archived) "
                "VALUES (?, ?, ?, ?, ?, 0)",
                (conversation.id, conversation.title, to_ts(now), to_ts(now), model),
            )
        return conversation

    def get_conversation(self, cid: str) -> Conversation | None:
        with self._read() as db:
            row = db.execute(f"SELECT {_CONVERSATION_COLUMNS} FROM conversations WHERE id = ?",
                             (cid,)).fetchone()
        return _conversation_from_row(row) if row else None

    def titled(self, words: Sequence[str], limit: int = 50) -> list[Conversation]:
        """Conversations whose title holds every one of ``words`` (casefolded, as substrings:
        "导入" is found inside "Imported 导入 chat"), most recently updated first, archived ones
        too (as the message search). Compared in Python, not with ``LIKE``, which folds ASCII
        case only; the titles are one short column, read in a few milliseconds."""
        wanted = [word.casefold() for word in words if word]
        if not wanted or limit <= 0:
            return []
        with self._read() as db:
            rows = db.execute("SELECT id, title FROM conversations WHERE title != '' "
                              "ORDER BY updated DESC, rowid DESC").fetchall()
            # at most 500 ids: SQLite's variable limit, and more than a search box lists
            ids = [cid for cid, title in rows if all(w in title.casefold() for w in wanted)][:min(limit, 500)]
            found = {row[0]: _conversation_from_row(row) for row in db.execute(
                f"SELECT {_CONVERSATION_COLUMNS} FROM conversations WHERE id IN ({', '.join('?' * len(ids))})",
                ids)} if ids else {}
        return [found[cid] for cid in ids if cid in found]

    def latest_conversation(self, created_before: datetime | None = None) -> Conversation | None:
        """The most recently updated conversation that is not archived; with ``created_before``,
        only one that existed then (an app continuing "the latest" must not join a conversation
        that another agenttui process started after it)."""
        if created_before is None:
            found = self.list_conversations(limit=1)
            return found[0] if found else None
        with self._read() as db:
            row = db.execute(
                f"SELECT {_CONVERSATION_COLUMNS} FROM conversations WHERE archived = 0 AND created < ? "
                "ORDER BY updated DESC, rowid DESC LIMIT 1", (to_ts(created_before),),
            ).fetchone()
        return _conversation_from_row(row) if row else None

    def list_conversations(self, limit: int = 50, offset: int = 0,
                           archived: bool | None = False) -> list[Conversation]:
        """Newest ``updated`` first. ``archived``: False = active, True = archived, None = both."""
        where, params = self._archived_filter(archived)
        with self._read() as db:
            rows = db.execute(
                f"SELECT {_CONVERSATION_COLUMNS} FROM conversations {where} "
                "ORDER BY updated DESC, rowid DESC LIMIT ? OFFSET ?",
                (*params, int(limit), int(offset)),
            ).fetchall()
        return [_conversation_from_row(row) for row in rows]

    def count_conversations(self, archived: bool | None = False) -> int:
        where, params = self._archived_filter(archived)
        with self._read() as db:
            return int(db.execute(f"SELECT COUNT(*) FROM conversations {where}", params).fetchone()[0])

    @staticmethod
    def _archived_filter(archived: bool | None) -> tuple[str, tuple[object, ...]]:
        if archived is None:
            return "", ()
        return "WHERE archived = ?", (int(bool(archived)),)

    def _update_conversation(self, cid: str, assignments: str, params: tuple[object, ...]) -> None:
        self._changes += 1
        try:
            with self._write() as db:
                cursor = db.execute(f"UPDATE conversations SET {assignments} WHERE id = ?", (*params, cid))
                if cursor.rowcount == 0:
                    raise UnknownConversationError(cid)
        finally:
            # counted after the write as well: a cache filled by another thread between the
            # first count and the write (it waited for the lock) holds the old title
            self._changes += 1

    def rename(self, cid: str, title: str) -> None:
        self._update_conversation(cid, "title = ?", (_clean_title(self._redact(title) or ""),))

    def set_model(self, cid: str, model: str) -> None:
        """The model this conversation now uses (``/model`` in the chat, ``ask --model``)."""
        self._update_conversation(cid, "model = ?", (model,))

    def archive(self, cid: str) -> None:
        self._update_conversation(cid, "archived = 1", ())

    def restore(self, cid: str) -> None:
        self._update_conversation(cid, "archived = 0", ())

    def delete(self, cid: str) -> None:
        """Delete a conversation and its messages (FK cascade; FTS triggers follow)."""
        self._changes += 1
        try:
            with self._write() as db:
                if db.execute("DELETE FROM conversations WHERE id = ?", (cid,)).rowcount == 0:
                    raise UnknownConversationError(cid)
        finally:
            self._changes += 1  # after the write too (see _update_conversation)
        self._checkpoint()

    def clear(self) -> int:
        """Delete every conversation of the profile; returns how many there were."""
        self._changes += 1
        try:
            with self._write() as db:
                count = db.execute("DELETE FROM conversations").rowcount
        finally:
            self._changes += 1  # after the write too (see _update_conversation)
        self._checkpoint()
        return count

    def _checkpoint(self) -> None:
        """Fold the WAL back so deleted pages (zeroed by secure_delete) replace the old ones."""
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db().execute("PRAGMA wal_checkpoint(TRUNCATE)")

    # -- messages --------------------------------------------------------------
    def _prepared(self, cid: str, message: Message) -> Message:
        """The redacted copy of ``message`` that will be stored."""
        return dataclasses.replace(
            message,
            conversation_id=cid,
            content=self._redact(message.content),
            name=self._redact(message.name),
            tool_calls=[ToolCall(id=call.id, name=call.name,
                                 arguments=self._redact(call.arguments) or "", extra=call.extra)
                        for call in message.tool_calls],
            reasoning=self._redact(message.reasoning),
            # text fields are redacted; opaque ones (signatures, encrypted blobs) must stay byte-exact
            provider_fields={k: self._redact_field(v) for k, v in message.provider_fields.items()},
            cut_tool_calls=[{**c, "arguments": self._redact(str(c.get("arguments") or ""))}
                            for c in message.cut_tool_calls],
        )

    def _redact_field(self, value: Any) -> Any:
        """A provider field as stored: its text redacted (``reasoning_content``, the ``text`` and
        ``summary`` of OpenRouter's ``reasoning_details``); opaque parts (``data``, ``signature``,
        ids) byte-exact, or the provider would reject them. A secret inside signed reasoning
        text costs that signature: secrets never reach the disk."""
        if isinstance(value, str):
            return self._redact(value)
        if isinstance(value, list):
            return [{k: self._redact(v) if k in ("text", "summary") and isinstance(v, str) else v
                     for k, v in item.items()} if isinstance(item, dict) else item for item in value]
        return value

    def append(self, cid: str, message: Message) -> Message:
        """Redact and store ``message``; returns the stored copy (id assigned).

        ``persist=False`` messages are returned unchanged and never written.
        Raises :class:`UnknownConversationError` or :class:`HistoryWriteError`.
        """
        return self.append_many(cid, [message])[0]

    def append_many(self, cid: str, messages: Iterable[Message], *, redacted: bool = False) -> list[Message]:
        """Store several messages in one transaction (imports, bulk loads).

        Same path as :meth:`append` (redaction, triggers, counter); the result
        lines up with the input, ephemeral messages returned unchanged.
        ``redacted``: the texts were redacted already (a sync receives messages another
        machine redacted before they entered its change log); redaction is a fixed point,
        so running it again would only cost time (most of a large sync's).
        """
        given = list(messages)
        if redacted:
            result = [dataclasses.replace(m, conversation_id=cid) if m.persist else m for m in given]
        else:
            result = [self._prepared(cid, m) if m.persist else m for m in given]
        stored = [m for m in result if m.persist]
        if not stored:
            return result
        title = next((derive_title(m.content) for m in stored
                      if m.role == "user" and derive_title(m.content)), "")
        with self._write() as db:
            cursor = db.execute(
                "UPDATE conversations SET updated = ?, message_count = message_count + ?, "
                "title = CASE WHEN title = '' THEN ? ELSE title END WHERE id = ?",
                (to_ts(utcnow()), len(stored), title, cid),
            )
            if cursor.rowcount == 0:
                raise UnknownConversationError(cid)
            self._insert(db, cid, stored)
        return result

    def _insert(self, db: sqlite3.Connection, cid: str, stored: Sequence[Message],
                parents: Sequence[int | None] | None = None, active: int | None = None) -> None:
        """:func:`_insert_messages`, and the kept neighbours their parents no longer have."""
        _insert_messages(db, cid, stored, parents, active)
        self._neighbours.forget_children_of(m.parent_id for m in stored)

    def import_conversation(self, conversation: Conversation, messages: Iterable[Message],
                            parents: Sequence[int | None] | None = None,
                            active: int | None = None) -> bool:
        """Store a conversation from elsewhere whole, keeping its id, title, times, archived flag.

        A tree (every branch of a ChatGPT or agenttui export) comes with ``parents``: for each
        message the index of its parent in ``messages`` (None: a root), parents first; ``active``
        is the index of the active branch's last message (default: the last message). Without
        ``parents`` the messages form one branch, in order.

        For ``agenttui history import``: one transaction (the conversation and all
        its messages, or nothing); messages take the append path's redaction
        (:meth:`_prepared`) and keep their ``created``. Returns False and writes
        nothing when a conversation with this id exists already, so an import
        keyed by a stable id is idempotent. An empty title is derived from the
        first user message, as :meth:`append_many` does.
        """
        cid = conversation.id
        given = list(messages)
        if parents is not None:  # indices must keep lining up: every message is stored
            if len(parents) != len(given) or any(
                    p is not None and not 0 <= p < k for k, p in enumerate(parents)):
                raise ValueError("parents must name an earlier message for each message")
            stored = [self._prepared(cid, dataclasses.replace(m, persist=True)) for m in given]
        else:
            stored = [self._prepared(cid, dataclasses.replace(m, parent_id=None))
                      for m in given if m.persist]
        title = _clean_title(self._redact(conversation.title) or "") or next(
            (derive_title(m.content) for m in stored
             if m.role == "user" and derive_title(m.content)), "")
        with self._write() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO conversations (id, title, created, updated, model, archived, "
                "message_count) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (cid, title, to_ts(conversation.created), to_ts(conversation.updated),
                 conversation.model, int(conversation.archived), len(stored)),
            )
            if cursor.rowcount == 0:
                return False
            self._insert(db, cid, stored, parents,
                             active if active is not None and 0 <= active < len(stored) else None)
        return True

    def messages(self, cid: str, limit: int | None = None,
                 before_id: int | None = None) -> list[Message]:
        """The active branch, ascending: its latest ``limit`` messages before ``before_id``.

        ``messages(cid, limit=50)`` is the last page; pass the first id of a
        page as ``before_id`` for the page before it (its ancestors). Walks
        parent links from the active leaf by primary key: cost depends on the
        page, not the conversation nor its other branches. Ids grow along a
        branch (a child is always stored after its parent), so id order is
        branch order.
        """
        if limit is not None and limit <= 0:
            return []
        if before_id is None:
            start = "(SELECT active_leaf_id FROM conversations WHERE id = ?)"
            params: list[object] = [cid]
        else:
            start = "(SELECT parent_id FROM messages WHERE id = ? AND conversation_id = ?)"
            params = [int(before_id), cid]
        # the parent is a correlated look-up, not a join: with ANALYZE statistics (PRAGMA
        # optimize at close) SQLite 3.40 builds a bloom filter over all messages at each
        # recursive step of a join (~0.2 s at 200k messages, every turn); the walk ends on
        # a NULL row, which matches no id
        with self._read() as db:
            rows = db.execute(
                f"WITH RECURSIVE path(id, depth) AS (SELECT {start}, 1 UNION ALL "
                "SELECT (SELECT parent_id FROM messages WHERE id = path.id), path.depth + 1 FROM path "
                "WHERE path.id IS NOT NULL AND path.depth < ?) "
                f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE id IN (SELECT id FROM path) "
                "AND conversation_id = ? ORDER BY id",
                (*params, _NO_LIMIT if limit is None else int(limit), cid)).fetchall()
        return [message_from_row(row) for row in rows]

    def branch_ids(self, cid: str, leaf_id: int | None = None) -> list[int]:
        """Ids of the path from the root to ``leaf_id`` (default: the active leaf), ascending."""
        with self._read() as db:
            return self._path_ids(db, cid, leaf_id)

    @staticmethod
    def _path_ids(db: sqlite3.Connection, cid: str, leaf_id: int | None = None) -> list[int]:
        if leaf_id is None:
            row = db.execute("SELECT active_leaf_id FROM conversations WHERE id = ?", (cid,)).fetchone()
            leaf_id = row[0] if row else None
        if leaf_id is None:
            return []
        rows = db.execute(
            "WITH RECURSIVE path(id) AS (SELECT ? UNION ALL SELECT (SELECT parent_id FROM messages "
            "WHERE id = path.id) FROM path WHERE path.id IS NOT NULL) "  # a look-up, as in messages()
            "SELECT messages.id FROM path JOIN messages ON messages.id = path.id "
            "WHERE messages.conversation_id = ? ORDER BY messages.id",
            (int(leaf_id), cid)).fetchall()
        return [row[0] for row in rows]

    def iter_branch(self, cid: str, batch: int = EXPORT_BATCH) -> Iterator[Message]:
        """The active branch, ascending, fetched ``batch`` at a time (Markdown export, ``show``)."""
        ids = self.branch_ids(cid)
        for start in range(0, len(ids), batch):
            chunk = ids[start:start + batch]
            marks = ", ".join("?" * len(chunk))
            with self._read() as db:
                rows = db.execute(f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE id IN ({marks}) "
                                  "ORDER BY id", chunk).fetchall()
            yield from (message_from_row(row) for row in rows)

    def has_branches(self, cid: str) -> bool:
        """Does any message of ``cid`` have a sibling? (the ``branched`` flag, schema v7)"""
        with self._read() as db:
            row = db.execute("SELECT branched FROM conversations WHERE id = ?", (cid,)).fetchone()
        return bool(row and row[0])

    def off_branch_ids(self, cid: str) -> frozenset[int]:
        """Ids of ``cid``'s messages that are not on its active branch (empty without branches):
        what recall must leave out so a turn sees its own branch only. One read of a flag for
        a conversation that never branched; else a walk of the branch and a scan of the
        conversation's ids (~5 ms at 1,000 messages, ~0.15 s at 20,000)."""
        if not self.has_branches(cid):
            return frozenset()
        with self._read() as db:
            on = set(self._path_ids(db, cid))
            every = db.execute("SELECT id FROM messages WHERE conversation_id = ?", (cid,)).fetchall()
        return frozenset(row[0] for row in every if row[0] not in on)

    def sibling_ids(self, cid: str, message_id: int) -> list[int]:
        """``message_id`` and the other answers to its parent (or the other roots), ascending."""
        with self._read() as db:
            return self._siblings(db, cid, int(message_id))

    @staticmethod
    def _siblings(db: sqlite3.Connection, cid: str, message_id: int) -> list[int]:
        row = db.execute("SELECT parent_id FROM messages WHERE id = ? AND conversation_id = ?",
                         (message_id, cid)).fetchone()
        if row is None:
            return []
        rows = db.execute("SELECT id FROM messages WHERE conversation_id = ? AND parent_id IS ? "
                          "ORDER BY id", (cid, row[0])).fetchall()
        return [r[0] for r in rows]

    def branch_positions(self, cid: str, message_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
        """For each of ``message_ids`` that has siblings: (its 1-based place among them, how many).

        What the chat's navigator shows ("‹ 2/3 ›"); one indexed query per message."""
        found: dict[int, tuple[int, int]] = {}
        with self._read() as db:
            for mid in message_ids:
                siblings = self._siblings(db, cid, int(mid))
                if len(siblings) > 1:
                    found[int(mid)] = (siblings.index(int(mid)) + 1, len(siblings))
        return found

    @staticmethod
    def _newest_leaf(db: sqlite3.Connection, cid: str, message_id: int) -> int:
        """The newest message of the subtree under ``message_id``: always a leaf (a child is
        newer than its parent), and the branch its author saw last."""
        row = db.execute(
            "WITH RECURSIVE below(id) AS (SELECT ? UNION ALL SELECT m.id FROM messages m "
            "JOIN below ON m.parent_id = below.id WHERE m.conversation_id = ?) "
            "SELECT MAX(id) FROM below", (message_id, cid)).fetchone()
        return int(row[0]) if row and row[0] is not None else message_id

    def show_branch(self, cid: str, message_id: int) -> int:
        """Make the active branch go through ``message_id``; returns the new active leaf.

        Kept as it is when ``message_id`` is on it already; otherwise the branch ends at the
        newest message below ``message_id``. Raises :class:`HistoryError` for a message of
        another conversation. Writes only when the branch changes (a read-only store can
        open a message of the active branch)."""
        with self._read() as db:
            if db.execute("SELECT 1 FROM messages WHERE id = ? AND conversation_id = ?",
                          (int(message_id), cid)).fetchone() is None:
                raise HistoryError(f"message {message_id} is not in conversation {cid}")
            path = self._path_ids(db, cid)
        if int(message_id) in path:
            return path[-1]
        self._changes += 1
        with self._write() as db:
            leaf = self._newest_leaf(db, cid, int(message_id))
            db.execute("UPDATE conversations SET active_leaf_id = ? WHERE id = ?", (leaf, cid))
        return leaf

    def switch_sibling(self, cid: str, message_id: int, step: int) -> int | None:
        """Show the sibling ``step`` places after ``message_id`` (-1: the one before), wrapping
        round; returns that sibling's id, or None when ``message_id`` has no siblings."""
        siblings = self.sibling_ids(cid, message_id)
        if len(siblings) < 2 or int(message_id) not in siblings:
            return None
        target = siblings[(siblings.index(int(message_id)) + step) % len(siblings)]
        self.show_branch(cid, target)
        return target

    def fork(self, cid: str, at_message_id: int) -> Conversation:
        """A new conversation holding the path from the root to ``at_message_id``.

        The original is not touched. A message that asks for tools takes its tool results
        along (the ones stored right after it), so the fork's history stays valid for the
        API. Titled "<title> (fork)"; one transaction. The copies take the insert path (already
        redacted, they are not redacted again; times, images, provider fields and meta kept).
        Raises :class:`UnknownConversationError`, :class:`HistoryError` (a message of another
        conversation) or :class:`HistoryWriteError`.
        """
        self._changes += 1
        now = utcnow()
        with self._write() as db:
            source = db.execute(f"SELECT {_CONVERSATION_COLUMNS} FROM conversations WHERE id = ?",
                                (cid,)).fetchone()
            if source is None:
                raise UnknownConversationError(cid)
            at = db.execute("SELECT tool_calls FROM messages WHERE id = ? AND conversation_id = ?",
                            (int(at_message_id), cid)).fetchone()
            if at is None:
                raise HistoryError(f"message {at_message_id} is not in conversation {cid}")
            ids = self._path_ids(db, cid, int(at_message_id))
            if at[0]:  # its tool results: the chain of tool messages right below it
                last = ids[-1]
                while (row := db.execute(
                        "SELECT id FROM messages WHERE conversation_id = ? AND parent_id = ? "
                        "AND role = 'tool' ORDER BY id LIMIT 1", (cid, last)).fetchone()):
                    last = row[0]
                    ids.append(last)
            original = _conversation_from_row(source)
            fork = Conversation(id=new_id(), title=_clean_title(f"{original.title or 'Untitled'} (fork)"),
                                created=now, updated=now, model=original.model,
                                message_count=len(ids))
            db.execute(
                "INSERT INTO conversations (id, title, created, updated, model, archived, message_count) "
                "VALUES (?, ?, ?, ?, ?, 0, ?)",
                (fork.id, fork.title, to_ts(now), to_ts(now), fork.model, len(ids)))
            copies: list[Message] = []
            for start in range(0, len(ids), EXPORT_BATCH):
                chunk = ids[start:start + EXPORT_BATCH]
                copies += [message_from_row(row) for row in db.execute(
                    f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE id IN ({', '.join('?' * len(chunk))}) "
                    "ORDER BY id", chunk)]
            for message in copies:
                message.conversation_id, message.parent_id = fork.id, None  # one branch, in order
            self._insert(db, fork.id, copies)  # its active leaf: the last copy
            fork.active_leaf_id = copies[-1].id if copies else None
        return fork

    def iter_messages(self, cid: str, batch: int = EXPORT_BATCH) -> Iterator[Message]:
        """Every message of every branch of a conversation, ascending by id (parents first),
        fetched ``batch`` at a time (JSON export keeps the whole tree)."""
        after = 0
        while True:
            with self._read() as db:
                rows = db.execute(
                    f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ? "
                    "AND id > ? ORDER BY id ASC LIMIT ?", (cid, after, batch)).fetchall()
            if not rows:
                return
            for row in rows:
                yield message_from_row(row)
            after = rows[-1][0]

    def usage_for(self, ids: Sequence[int]) -> dict[int, MessageUsage]:
        """Model, tokens and cost of those replies that have them (schema v9), by message id."""
        with self._read() as db:
            return usage_rows.for_ids(db, ids)

    def unpriced_usage(self, limit: int = 500) -> list[tuple[int, MessageUsage, str]]:
        """Replies whose price is still to be looked up: (message id, usage, created)."""
        with self._read() as db:
            return usage_rows.unpriced(db, limit)

    def set_prices(self, prices: Sequence[tuple[int, float | None, str]]) -> None:
        """Store looked-up prices (the running sums follow, by trigger); one transaction."""
        if prices:
            with self._write() as db:
                usage_rows.set_prices(db, prices)

    def turn_usage(self, cid: str, turn_id: str) -> list[tuple[int, MessageUsage]]:
        """(message id, usage) of one turn's replies, in order."""
        with self._read() as db:
            return usage_rows.for_turn(db, cid, turn_id)

    def usage_totals(self, *, since: str | None = None, by: str | None = None) -> list[Any]:
        """:func:`agenttui.core.usage.totals.totals` (a list of ``UsageTotal``)."""
        from agenttui.core.usage.totals import totals

        with self._read() as db:
            return totals(db, since=since, by=by)  # type: ignore[arg-type]

    def conversation_usage(self, cid: str) -> Any:
        """The ``UsageTotal`` of one conversation's replies (its running sums: one row)."""
        from agenttui.core.usage.totals import conversation_total

        with self._read() as db:
            return conversation_total(db, cid)

    def get_message(self, message_id: int) -> Message | None:
        with self._read() as db:
            row = db.execute(f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE id = ?",
                             (int(message_id),)).fetchone()
        return message_from_row(row) if row else None

    def count_messages(self, cid: str) -> int:
        with self._read() as db:
            return int(db.execute("SELECT COUNT(*) FROM messages WHERE conversation_id = ?",
                                  (cid,)).fetchone()[0])

    # -- search -------------------------------------------------------------
    def search(self, query: str, limit: int = 20, conversation_id: str | None = None,
               *, include_archived: bool = True) -> list[SearchHit]:
        """Ranked full-text search (bm25; best first). Never raises on user input.

        bm25 costs a few microseconds per matching message, so a near-stopword
        matching most of a 200,000-message profile would take half a second.
        Ranking is therefore done over the ``RANK_WINDOW`` most recent matches:
        found by walking the match list newest-first (cheap, no scoring), then
        ranked with bm25 among themselves. Queries with fewer matches -- nearly
        all real ones -- are ranked over everything. For a very broad query,
        recent messages win; adding a word narrows it.

        The last word is prefix-matched (see :func:`to_fts_query`) only while it
        is not yet a word of its own in the index: "migr" finds "migration",
        "docker" finds "docker" but not "dockerfile". A prefix of a common word
        makes FTS5 merge the posting lists of every word it starts, for the
        whole profile (~0.1 s at 200,000 messages); a whole word does not.

        ``SearchHit.rank`` is SQLite's bm25 score: more negative = more relevant.
        The snippet marks matches with ``HIGHLIGHT_OPEN``/``HIGHLIGHT_CLOSE``.
        """
        match = to_fts_query(query)
        if match is None or limit <= 0:
            return []
        exact = to_fts_query(query, prefix_last=False) or ""
        joins = ("JOIN messages m ON m.id = messages_fts.rowid "
                 "JOIN conversations c ON c.id = m.conversation_id ")
        where = "WHERE messages_fts MATCH ?"
        filters: list[object] = []
        if conversation_id is not None:
            where += " AND m.conversation_id = ?"
            filters.append(conversation_id)
        if not include_archived:
            where += " AND c.archived = 0"
        filtered = conversation_id is not None or not include_archived
        window_sql = (f"SELECT messages_fts.rowid FROM messages_fts {joins if filtered else ''}"
                      f"{where} ORDER BY messages_fts.rowid DESC LIMIT 1 OFFSET ?")
        sql = (
            "SELECT m.conversation_id, c.title, m.id, m.role, "
            "snippet(messages_fts, 0, ?, ?, '…', ?), m.created, messages_fts.rank "
            f"FROM messages_fts {joins}{where} AND messages_fts.rowid >= ? "
            "ORDER BY messages_fts.rank LIMIT ?"
        )
        with self._lock:
            db = self._db()
            try:
                if match != exact and self._is_indexed_word(db, exact.split(" ")[-1]):
                    match = exact
                row = db.execute(window_sql, (match, *filters, RANK_WINDOW - 1)).fetchone()
                oldest = row[0] if row else 0
                rows = db.execute(sql, (HIGHLIGHT_OPEN, HIGHLIGHT_CLOSE, SNIPPET_TOKENS, match,
                                        *filters, oldest, int(limit))).fetchall()
            except sqlite3.OperationalError:
                # to_fts_query only emits quoted phrases, so this is not expected;
                # but a search box must never crash the app.
                return []
        return [
            SearchHit(conversation_id=cid, conversation_title=title, message_id=mid,
                      role=role, snippet=snippet or "", created=from_ts(created), rank=rank)
            for cid, title, mid, role, snippet, created, rank in rows
        ]

    @property
    def epoch(self) -> tuple[int, int]:
        """Changes since open other than this store's appends (deletes, clears, renames,
        archiving here; any commit of another connection or process, by SQLite's
        ``data_version``). A result computed from the store stays valid while this
        and the newest message id are unchanged (recall's warm cache)."""
        with self._read() as db:
            return self._changes, int(db.execute("PRAGMA data_version").fetchone()[0])

    def term_counts(self, terms: Sequence[str], cap: int = TERM_COUNT_CAP) -> dict[str, int]:
        """How many messages hold each (stemmed) term, counted up to ``cap``; 0 when absent.

        For recall's choice of terms: counting stops at ``cap``, so a very common
        word costs no more than a rare one; answers are kept between calls while
        they hold (:mod:`agenttui.core.history.term_counts`).
        """
        cap = max(1, int(cap))
        counts: dict[str, int] = {}
        with self._lock:
            db = self._db()
            known = self._term_counts
            known.sync(self.epoch, self.message_total())
            try:
                missing = [term for term in terms if known.get(term, cap) is None]
                # the kept words' counts are the lengths of the postings the app keeps
                kept = dict(zip(missing, self._postings.hits(db, "messages_fts", [fts_phrase(t) for t in missing]),
                                strict=True))
                for term in terms:
                    count = known.get(term, cap)
                    if count is None:
                        found = kept.get(term)
                        count = recall_queries.count_term(db, term, cap) if found is None else min(found, cap)
                        known.put(term, count, cap)
                    counts[term] = count
            except sqlite3.OperationalError:
                return {term: 0 for term in terms}
        return counts

    def recall_candidates(self, match: str, limit: int, *, since: str | None = None,
                          until: str | None = None, conversation_id: str | None = None,
                          before_id: int | None = None, highlight: bool = False,
                          index: str = "words") -> list[RecallRow]:
        """:func:`agenttui.core.history.recall_queries.candidates`; none for a match FTS5 refuses."""
        with self._lock:
            try:
                db = self._db()
                self._recall_rows.sync(self.epoch)
                return recall_queries.candidates(db, match, limit, since=since, until=until,
                                                 conversation_id=conversation_id, before_id=before_id,
                                                 highlight=highlight, index=index, cache=self._recall_rows,
                                                 postings=self._postings)
            except sqlite3.OperationalError:
                return []

    @property
    def ranking_index_ready(self) -> bool:
        """Does recall rank from postings kept in memory now (``keep_ranking_index``)?"""
        return self._postings.snapshot is not None

    def keep_ranking_index(self, *, wait: bool = True) -> None:
        """Keep the history's word postings in memory from now on, so recall ranks without
        SQLite scoring their every match (:mod:`agenttui.core.history.bm25_postings`; the
        same results). Built in the calling thread (``wait``) or a background one (~1-3 s of
        CPU at 200,000 messages, most of it in SQLite), and again in the background whenever
        they fall behind. For the app; a one-shot command would spend more building than it
        saves. Meanwhile, and wherever they cannot answer, SQLite ranks."""
        self._postings.keep(self._opened_file, wait=wait)

    def _opened_file(self) -> Path | None:
        """The database file, opened and migrated (so another connection may read it); None
        for a store without one."""
        with self._read():
            pass
        return self.db_path if self.db_path.is_file() else None

    def rows_for_ids(self, ids: Sequence[int], *, before_id: int | None = None,
                     conversation_id: str | None = None) -> list[RecallRow]:
        """User/assistant text messages with these ids (for recall's embedding ranking)."""
        with self._read() as db:
            return recall_queries.rows_for_ids(db, ids, before_id=before_id, conversation_id=conversation_id)

    def recent_in_span(self, since: str, until: str, limit: int,
                       before_id: int | None = None) -> list[RecallRow]:
        """User messages created in [since, until), newest first (for "what did I do last week")."""
        with self._read() as db:
            return recall_queries.recent_in_span(db, since, until, limit, before_id)

    def earliest_message_time(self, before_id: int | None = None) -> datetime | None:
        """:func:`agenttui.core.history.recall_queries.earliest`: the start of the history."""
        with self._read() as db:
            return recall_queries.earliest(db, before_id)

    def neighbour(self, message_id: int, conversation_id: str, *, after: bool) -> Message | None:
        """:func:`agenttui.core.history.recall_queries.neighbour`: the turn before or after on its branch."""
        with self._read() as db:
            return recall_queries.neighbour(db, message_id, conversation_id, after=after)

    def first_neighbours(self, wanted: Sequence[tuple[int, str, bool]]) -> dict[tuple[int, bool], Message | None]:
        """:func:`agenttui.core.history.recall_queries.first_neighbours`: :meth:`neighbour` of many
        messages in one statement each way, where one step decides it (the rest are left out).
        Answers are kept while they hold (:mod:`agenttui.core.history.neighbour_cache`): the
        messages are shared, not to be changed."""
        with self._lock:
            self._neighbours.sync(self.epoch)
            known = self._neighbours.known(wanted)
            missing = [ask for ask in wanted if (ask[0], ask[2]) not in known]
            if missing:
                with self._read() as db:
                    read = recall_queries.first_neighbours(db, missing)
                self._neighbours.put(missing, read)
                known.update(read)
            return known

    def message_total(self) -> int:
        with self._read() as db:
            row = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'messages'").fetchone()
        return int(row[0]) if row else 0

    @staticmethod
    def _is_indexed_word(db: sqlite3.Connection, phrase: str) -> bool:
        """Does ``phrase`` occur as whole words somewhere? (stops at the first hit)"""
        return db.execute("SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT 1",
                          (phrase,)).fetchone() is not None

    # -- export ----------------------------------------------------------------
    def _for_export(self, cid: str) -> Conversation:
        conversation = self.get_conversation(cid)
        if conversation is None:
            raise UnknownConversationError(cid)
        return conversation

    def export_markdown(self, cid: str) -> str:
        from agenttui.core.history.export import conversation_to_markdown

        conversation = self._for_export(cid)  # the branch shown (the others are in the JSON)
        return conversation_to_markdown(conversation, self.iter_branch(cid), self.redact_patterns)

    def export_json(self, cid: str) -> str:
        from agenttui.core.history.export import conversation_to_json

        conversation = self._for_export(cid)
        return conversation_to_json(conversation, self.iter_messages(cid), self.redact_patterns)
