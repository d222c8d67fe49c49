"""Incognito: chat with what agenttui knows, and leave no trace.

:func:`incognito_services` gives a twin of the services for incognito turns.
The model sees what it always sees -- memory, project context, recall of past
conversations -- and nothing is written under the data dir:

* **History**: :class:`IncognitoHistory`. The incognito conversation lives in
  an in-memory SQLite database with the same schema and the same redaction
  (so the model sees exactly what a saved chat would send); every other
  conversation is read through a
  :class:`~agenttui.core.history.readonly.ReadOnlyHistoryStore` (``query_only``:
  no SQL can write, open and close leave every file byte for byte as it was).
  Its message ids start after the real file's highest, so recall's "before
  this message" bounds still hold. Writes to a real conversation are refused.
* **Memory**: :class:`ReadOnlyMemory` reads through; ``mark_used`` (use counts,
  memory use) does nothing; every other write raises :class:`IncognitoRefused`. The
  ``remember``/``forget`` tools are not offered, corrections are not detected
  (``memory.corrections = "off"``) and extraction is off, so the model is
  never told it can remember something it cannot.
* **Endpoint state**: a refusal the loop falls back from is kept for the
  session only (``state/endpoints.json`` is not written).
* The app's crash log and ``ask``'s recovery file are not written either
  (their callers check :func:`is_incognito`).

Leaving, the app may keep the conversation: :func:`save_conversation` copies
it into the real store (one transaction, ids new, text and times as they were).

Decision: semantic recall (``[recall] semantic``) still ranks by the stored
vectors and embeds the message through the endpoint -- the endpoint sees the
message anyway -- but no vector is stored.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from agenttui.core.history.schema import migrate
from agenttui.core.history.store import HistoryError, HistoryStore, HistoryWriteError
from agenttui.core.models import Conversation, Message

if TYPE_CHECKING:
    from agenttui.core.services_view import CoreServices

# Tools that write under the data dir: memory, and the project's decisions, learnings, context.
WRITING_TOOLS = frozenset({"remember", "forget", "append_decision", "append_learning", "update_context"})


class IncognitoRefused(HistoryWriteError):
    """A write that incognito does not make (the message says what and why)."""


def is_incognito(services: CoreServices) -> bool:
    return services.incognito


class ScratchHistory(HistoryStore):
    """A history store in memory only: the incognito conversation while it lasts."""

    def __init__(self, redact_patterns: Iterable[str] = (), first_id: int = 1) -> None:
        super().__init__(Path("incognito (not saved)"), tuple(redact_patterns))
        self._first_id = max(1, first_id)

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        migrate(conn)
        # AUTOINCREMENT continues after the sequence: ids above every real message's
        conn.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('messages', ?)",
                     (self._first_id - 1,))
        return conn

    def close(self) -> None:  # no PRAGMA optimize: nothing to keep
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def _named(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[str]:
    """The conversation ids a history call names (its first argument, ``cid=``, ``conversation_id=``)."""
    named = [a for a in args[:1] if isinstance(a, str)]
    return named + [kwargs[k] for k in ("cid", "conversation_id") if isinstance(kwargs.get(k), str)]


class IncognitoHistory:
    """Reads every conversation; writes only the in-memory ones (see the module doc).

    Methods are routed by conversation: a call naming an in-memory conversation
    (first argument, or ``cid=`` / ``conversation_id=``) goes to the scratch
    store, anything else to the read-only store. New conversations are
    in-memory ones. The real ones stay as they are: a write to one fails
    with :class:`IncognitoRefused`.
    """

    def __init__(self, db_path: Path, redact_patterns: Iterable[str] = (),
                 busy_timeout: float | None = None) -> None:
        from agenttui.core.history.readonly import ReadOnlyHistoryStore

        self.db_path = Path(db_path)
        self.redact_patterns = tuple(redact_patterns)
        kwargs = {} if busy_timeout is None else {"busy_timeout": busy_timeout}
        self.real: HistoryStore = ReadOnlyHistoryStore(self.db_path, self.redact_patterns, **kwargs)
        self.busy_timeout = self.real.busy_timeout
        self.notices: list[str] = []
        self._scratch: ScratchHistory | None = None
        self._ids: set[str] = set()
        # conversations dropped by discard(): a write still on its way (the cancelled turn's
        # partial reply) finds them gone, as a deleted conversation, not refused and kept for later
        self._discarded: set[str] = set()

    # -- routing ---------------------------------------------------------------
    @property
    def scratch(self) -> ScratchHistory:
        if self._scratch is None:
            self._scratch = ScratchHistory(self.redact_patterns, self._real_max_id() + 1)
        return self._scratch

    def _real_max_id(self) -> int:
        try:
            with self.real._read() as db:
                row = db.execute("SELECT max(id) FROM messages").fetchone()
                seq = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'messages'").fetchone()
        except (HistoryError, sqlite3.Error) as exc:  # an old or damaged file: recall goes without it
            self._real_broken(exc)
            return 0
        return max(int(row[0] or 0) if row else 0, int(seq[0] or 0) if seq else 0)

    def _real_broken(self, exc: BaseException) -> None:
        from agenttui.core.history.readonly import ReadOnlyHistoryStore

        self.notices.append(f"past conversations are not read in incognito: {exc}")
        self.real.close()
        self.real = ReadOnlyHistoryStore(Path("/nonexistent/incognito.db"), self.redact_patterns)

    def owns(self, cid: str | None) -> bool:
        return cid is not None and cid in self._ids

    def _store_for(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> HistoryStore:
        return self.scratch if any(self.owns(c) for c in _named(args, kwargs)) else self.real

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)

        def routed(*args: Any, **kwargs: Any) -> Any:
            store = self._store_for(args, kwargs)
            try:
                return getattr(store, name)(*args, **kwargs)
            except HistoryWriteError as exc:
                gone = next((c for c in _named(args, kwargs) if c in self._discarded), None)
                if store is self.real and gone is not None:  # left incognito meanwhile: nothing to keep
                    from agenttui.core.history.store import UnknownConversationError

                    raise UnknownConversationError(gone) from exc
                if store is self.real:
                    raise IncognitoRefused(
                        f"incognito: saved conversations are not changed ({name}); leave "
                        "incognito first") from exc
                raise

        return routed

    # -- what needs more than routing ------------------------------------------
    @property
    def problems(self) -> list[str]:
        return self.real.problems

    def create_conversation(self, title: str | None = None, model: str | None = None) -> Conversation:
        conversation = self.scratch.create_conversation(title, model)
        self._ids.add(conversation.id)
        return conversation

    def fork(self, cid: str, at_message_id: int) -> Conversation:
        """A fork of an in-memory conversation is one too (a saved one's would be a write)."""
        if not self.owns(cid):
            raise IncognitoRefused("incognito: a saved conversation is not forked here; leave "
                                   "incognito first")
        forked = self.scratch.fork(cid, at_message_id)
        self._ids.add(forked.id)
        return forked

    def get_message(self, message_id: int) -> Message | None:
        if self._scratch is not None:
            found = self._scratch.get_message(message_id)
            if found is not None:
                return found
        return self.real.get_message(message_id)

    def neighbour(self, message_id: int, conversation_id: str, *, after: bool) -> Message | None:
        store = self.scratch if self.owns(conversation_id) else self.real
        return store.neighbour(message_id, conversation_id, after=after)

    def close(self) -> None:
        """Close the file; the in-memory conversation stays (closing it would drop it)."""
        self.real.close()

    def discard(self) -> None:
        """Forget the in-memory conversations (leaving incognito without saving)."""
        if self._scratch is not None:
            self._scratch.close()
            self._scratch = None
        self._discarded |= self._ids
        self._ids.clear()
        self.real.close()


class ReadOnlyMemory:
    """The memory store, read only: use counts are not kept, writes are refused."""

    _WRITES = frozenset({"add_note", "set_fact", "confirm_pending", "discard_pending", "edit",
                         "set_pinned", "restore_archived", "remove", "reset", "merge",
                         "accept_proposal"})

    def __init__(self, memory: Any) -> None:
        self._memory = memory

    def mark_used(self, ids: Iterable[str]) -> None:
        """Incognito leaves use counts as they were (that bookkeeping is a write)."""

    def __getattr__(self, name: str) -> Any:
        if name in self._WRITES:
            def refused(*args: Any, **kwargs: Any) -> Any:
                raise IncognitoRefused("incognito: memory is read, not changed; leave incognito "
                                       "to remember or forget")
            return refused
        return getattr(self._memory, name)


class ReadOnlyProject:
    """Project memory, read only (its prompt section and recall entries are read as always)."""

    _WRITES = frozenset({"append_decision", "append_learning", "write_context", "rewrite",
                         "archive_session"})

    def __init__(self, project: Any) -> None:
        self._project = project

    def __getattr__(self, name: str) -> Any:
        if name in self._WRITES:
            def refused(*args: Any, **kwargs: Any) -> Any:
                raise IncognitoRefused("incognito: project memory is read, not changed; leave "
                                       "incognito to update it")
            return refused
        return getattr(self._project, name)


def incognito_settings(settings: Any) -> Any:
    """``settings`` with the write paths off: no writing tools, corrections, extraction."""
    agent = dataclasses.replace(settings.agent, tools=[t for t in settings.agent.tools
                                                       if t not in WRITING_TOOLS])
    memory = dataclasses.replace(settings.memory, corrections="off", extraction=False)
    return dataclasses.replace(settings, agent=agent, memory=memory)


S = TypeVar("S", bound="CoreServices")


def incognito_services(services: S) -> S:
    """A twin of ``services`` for incognito turns (module doc). ``services`` is unchanged.
    Built by the composition root (``bootstrap.Services.incognito_twin``), which knows
    what each part of the services is."""
    return services.incognito_twin()


def end_incognito(twin: Any, real: Any) -> None:
    """Drop the twin made by :func:`incognito_services`: its scratch history is discarded and
    its read-only connection closed, and so is its own semantic-recall connection if it made
    one (left open, it kept the real database's -wal and -shm files after the real stores
    closed). The app's ``/incognito`` and ``agenttui ask --incognito`` both end here."""
    import sys

    history = twin.history
    if isinstance(history, IncognitoHistory):
        history.discard()
    semantic = sys.modules.get("agenttui.core.recall.semantic")  # only if recall ran
    if semantic is not None:
        semantic.end_twin(twin, real)


def save_conversation(twin: Any, cid: str, store: HistoryStore,
                      title: Callable[[Conversation], str] | None = None) -> Conversation | None:
    """Copy the incognito conversation ``cid`` into ``store`` (the real one); None if it is empty.

    One transaction (:meth:`HistoryStore.import_conversation`): the whole
    conversation or nothing. It keeps its id, title and times.
    """
    history = twin.history
    if not isinstance(history, IncognitoHistory) or not history.owns(cid):
        raise ValueError(f"{cid} is not an incognito conversation")
    conversation = history.scratch.get_conversation(cid)
    messages = list(history.scratch.iter_messages(cid))
    if conversation is None or not messages:
        return None
    if title is not None:
        conversation = dataclasses.replace(conversation, title=title(conversation))
    # ids kept: the store renumbers them, and a /compact summary's range follows them
    kept = [dataclasses.replace(m, parent_id=None) for m in messages]
    # its branches too: parents by place (ids are new), the active branch the same
    place = {m.id: k for k, m in enumerate(messages)}
    parents = [place.get(m.parent_id) if m.parent_id is not None else None for m in messages]
    store.import_conversation(conversation, kept, parents, place.get(conversation.active_leaf_id))
    return store.get_conversation(cid)
