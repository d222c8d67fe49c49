"""Semantic recall (``[recall] semantic``, "auto" by default): the ranker recall fuses, and the backfill.

* :func:`ranker_for` gives context assembly an :class:`EmbeddingRanker`
  (``bootstrap.Services.semantic_ranker``). It embeds the user's message with
  a ``QUERY_TIMEOUT_S`` limit and ranks the stored vectors
  (:class:`~agenttui.core.recall.embeddings.EmbeddingIndex`); recall fuses that list
  with BM25 by reciprocal rank fusion (:mod:`recall.retrieval`). Before anything is
  embedded it sends nothing. Any failure turns semantic recall off for the
  session: recall stays lexical and the turn goes on.
* **Never on a turn's clock.** A ranking runs in a daemon thread of its own
  (:meth:`EmbeddingRanker.start_ranking`); recall waits for it only
  ``retrieval.SEMANTIC_WAIT`` and otherwise fuses without it. Query vectors
  and rankings are kept per query text (``QUERY_CACHE``), and callers asking
  for a ranking already running share it, so the turn's next step, a retry,
  or the turn after the chat's :func:`prepare` (the draft, embedded while the
  user pauses typing) find it ready and nothing is sent twice. ``agenttui
  ask`` has no draft: on a slow endpoint its first step may rank lexically.
  Threads only fill the ranker's caches, under its lock; what recall fuses
  is an immutable tuple, read in recall's own thread.
* :func:`backfill` embeds messages that have no vector yet, newest first, a
  batch per request and a transaction per batch: memory stays bounded by the
  batch, an interruption loses at most the batch in flight, and the next run
  resumes where this one stopped (what has a vector is not sent again).
* :func:`run_background` is the app's worker: a backfill after start-up,
  then new messages every ``IDLE_S``. After its first complete pass it runs
  the language probe (:mod:`recall.language_probe`) once, unless the margins
  are kept in ``semantic.json``: a query in a language the model does not
  understand is then ranked by keywords only (:meth:`SemanticState.understands`).
  Until then rankings are fused as before; no turn waits for the probe.

**One notice.** All of it shares one :class:`SemanticState` per session and
profile. The first failure that turns semantic recall off makes one notice:
raised once into recall (it becomes one of the turn's ``warnings``) and kept
for the UI (:meth:`SemanticState.take_notice`). Nothing after it says it again.

**"auto"** (the default; ``true`` is the explicit "on"): the same, plus what
:mod:`agenttui.core.recall.semantic_auto` remembers per profile and endpoint
in the data dir. The app's worker says once that the history is sent to the
endpoint for indexing, when the first batch is accepted; an endpoint that has
no embeddings is said once to leave recall keyword-only, and later sessions
neither ask it again nor say so again (``semantic_auto.REPROBE_DAYS``).
Such an endpoint does not hand over to the local embedder, even when the
``agenttui[local-embeddings]`` extra is installed: measured on the public
development sets (``bench/bench_recall_public.py --semantic-url`` with the
static table behind it), fusing the table's ranking into keyword recall lowers
it (RealMem 0.457 -> 0.434, MemDaily 0.935 -> 0.895, REALTALK level), so it
runs only when asked for by name (``semantic = "local"``).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from agenttui.core.recall.embedding_client import EMBED_BATCH, EmbeddingClient, EmbeddingError
from agenttui.core.recall.embeddings import EmbeddingIndex
from agenttui.core.recall.language_probe import PROBE_VERSION, margins, not_understood
from agenttui.core.recall.local_embedder import LOCAL_MODEL, Embedder, LocalEmbedder
from agenttui.core.recall.query_language import language_of
from agenttui.core.recall.query_without_names import without_names
from agenttui.core.recall.retrieval import CANDIDATES, SemanticNotice
from agenttui.core.recall.semantic_auto import (
    AutoRecord,
    fallback_notice,
    remembers_refusal,
    told_notice,
)

if TYPE_CHECKING:
    from agenttui.core.history.store import HistoryStore
    from agenttui.core.services_view import CoreServices

K = TypeVar("K")
V = TypeVar("V")

log = logging.getLogger(__name__)

QUERY_TIMEOUT_S = 2.0  # the longest a turn waits for its query's embedding, once
# ``ask`` waits for its message's ranking this long at most (rank_before_turn): the request's
# own QUERY_TIMEOUT_S and slack; the client is built (openai imported) before this clock starts.
BEFORE_TURN_WAIT_S = 5.0
BACKFILL_TIMEOUT_S = 30.0  # per backfill request (a local model embedding 64 texts)
IDLE_S = 30.0  # between background passes for new messages
RETRY_S = 300.0  # after a transient failure (429, 5xx, timeout)
QUERY_CACHE = 8  # queries whose vector and ranking are kept: assembly runs after every tool step
RANKING_TTL_S = 120.0  # a kept ranking is reused this long (then new vectors may count)

_STATE_LOCK = threading.Lock()


class SemanticUnavailable(SemanticNotice):
    """Raised into recall when semantic ranking turns off (the session's notice, claimed once)."""


class SemanticState:
    """Semantic recall of one session, profile and endpoint: client, index, on or off."""

    def __init__(self, history: HistoryStore, *, base_url: str | None, api_key: str | None, model: str,
                 key: tuple[object, ...] = (), auto: AutoRecord | None = None,
                 record: AutoRecord | None = None) -> None:
        self.key = key
        self.model = model
        self.base_url = base_url
        self.auto = auto  # "auto": what is said once per profile and endpoint (None: explicit true)
        # where the language probe's margins are kept (``semantic.json``; None: this session only)
        self.record = record or auto
        kept = self.record.language_margins(base_url, model, PROBE_VERSION) if self.record else None
        # languages the model does not understand (language_probe); None: not probed yet
        self.weak_languages: frozenset[str] | None = None if kept is None else not_understood(kept)
        self.probe_tried = False  # the probe ran (or failed) in this session: not again
        self.index = EmbeddingIndex.for_history(history, model)
        self.off_reason: str | None = None
        self.refused = False  # "auto": the endpoint answered that it has no embeddings
        self.missing_key = not api_key  # off until a key is set (no notice: the chat says so)
        if self.missing_key:
            self.off_reason = "no API key"
        self._base_url = base_url
        self._api_key = api_key
        self._client: Embedder | None = None
        self._notice: str | None = None
        self._lock = threading.Lock()
        self.ranker = EmbeddingRanker(self)
        self.file_replaced = False  # closed because its database file was swapped (history_replaced)

    @property
    def enabled(self) -> bool:
        return self.off_reason is None

    def understands(self, query: str) -> bool:
        """False when the probe found the model does not read the query's language
        (:mod:`recall.language_probe`); True when it does, or nothing is known yet."""
        weak = self.weak_languages
        return not weak or language_of(query) not in weak

    def probe_languages(self) -> None:
        """Run the language probe once (the backfill's thread) and keep its margins; a failure
        leaves the ranking fused as before (the batches say whether the endpoint works)."""
        if self.probe_tried or self.weak_languages is not None or not self.enabled:
            return
        self.probe_tried = True
        client = self.client()
        try:
            found = margins(lambda texts: client.embed(texts, timeout=BACKFILL_TIMEOUT_S), EMBED_BATCH)
        except Exception as error:  # a bonus's bonus: never the backfill's failure
            log.warning("semantic recall: language probe failed: %s", error)
            return
        self.weak_languages = not_understood(found)
        log.info("semantic recall: %s does not understand %s", self.model, sorted(self.weak_languages) or "none")
        if self.record is not None:
            problem = self.record.mark_language_margins(self._base_url, self.model, PROBE_VERSION, found)
            if problem:
                log.warning("semantic recall: %s", problem)

    def client(self) -> Embedder:
        with self._lock:
            if self._client is None:
                self._client = EmbeddingClient(self._base_url, self._api_key or "", self.model,
                                               timeout=BACKFILL_TIMEOUT_S)
            return self._client

    def disable(self, reason: str, status: int | None = None) -> str | None:
        """Turn semantic recall off for the session; the notice the first time, else None.

        With "auto", an answer saying the endpoint has no embeddings (``status``)
        is remembered for the profile and endpoint, so no later session asks or
        says it again (``semantic_auto``).
        """
        with self._lock:
            if self.off_reason is not None:
                return None
            self.off_reason = reason
            if self.auto is not None and remembers_refusal(status):
                self.refused = True
                problem = self.auto.mark_no_embeddings(self._base_url, self.model, reason)
                if problem:
                    log.warning("semantic recall: %s", problem)
                self._notice = fallback_notice(self._base_url, reason)
            else:
                self._notice = (f"Semantic recall is off for this session: {reason}. "
                                "Recall keeps working with keyword search (BM25).")
            log.warning("semantic recall: %s", reason)
            return self._notice

    def told_notice(self) -> str | None:
        """With "auto", the notice that the history is sent for indexing, the first time for this
        profile and endpoint (then remembered); else None. Ask once a batch was accepted."""
        with self._lock:
            if self.auto is None or self.auto.told(self._base_url):
                return None
            problem = self.auto.mark_told(self._base_url)
            if problem:
                log.warning("semantic recall: %s", problem)
            return told_notice(self._base_url, self.model)

    def take_notice(self) -> str | None:
        """The notice, the first time it is asked for (the UI shows it once)."""
        with self._lock:
            notice, self._notice = self._notice, None
            return notice


class EmbeddingRanker:
    """``retrieval.SemanticRanker``: the messages nearest the query's embedding (module doc)."""

    def __init__(self, state: SemanticState, timeout: float = QUERY_TIMEOUT_S) -> None:
        self.state = state
        self.timeout = timeout
        self._lock = threading.Lock()  # guards the caches below; never held over I/O
        self._vectors: OrderedDict[str, Sequence[float]] = OrderedDict()
        self._rankings: OrderedDict[tuple[str, int], tuple[float, tuple[int, ...]]] = OrderedDict()
        self._running: dict[tuple[str, int], Future[tuple[int, ...]]] = {}
        self._failure: SemanticUnavailable | None = None  # turned semantic off; until claimed

    def start_ranking(self, query: str, limit: int) -> Future[tuple[int, ...]]:
        """The ranking of ``query``: done at once when kept, else computed in a thread.

        Callers asking while the same ranking runs share its future. The
        failure that turned semantic recall off is handed to callers until a
        recall claims its notice (it may come after the turn stopped waiting).
        """
        key = (query, limit)
        with self._lock:
            if not self.state.enabled or not query.strip() or limit <= 0:
                failure = self._failure
                if failure is not None and not failure.claimed:
                    return _settled(error=failure)
                return _settled(())
        if not self.state.understands(query):  # the model does not read its language: keywords only
            return _settled(())
        with self._lock:
            kept = self._rankings.get(key)
            if kept is not None and time.monotonic() - kept[0] < RANKING_TTL_S:
                return _settled(kept[1])
            running = self._running.get(key)
            if running is not None:
                return running
            future: Future[tuple[int, ...]] = Future()
            self._running[key] = future
        # A daemon thread, not a pool: a process (``agenttui ask``) never waits at exit
        # for a ranking nobody needs any more.
        threading.Thread(target=self._run, args=(key, future), name="semantic-rank", daemon=True).start()
        return future

    def rank_messages(self, query: str, limit: int) -> list[int]:
        """The ranking, waited for (tests, benchmarks); failures as :meth:`start_ranking`."""
        return list(self.start_ranking(query, limit).result())

    def has_unclaimed_failure(self) -> bool:
        with self._lock:
            return self._failure is not None and not self._failure.claimed

    def _run(self, key: tuple[str, int], future: Future[tuple[int, ...]]) -> None:
        query, limit = key
        ranked: tuple[int, ...] = ()
        keep, failure = False, None
        try:
            ranked, keep = self._rank(query, limit)
        except Exception as error:  # never into the turn; off for the session instead
            refusal = error.status if isinstance(error, EmbeddingError) and error.kind == "unavailable" else None
            notice = self.state.disable(str(error), refusal)
            if notice is not None:
                failure = SemanticUnavailable(notice)
        finally:  # whatever happened, the future settles: nobody waits on a dead thread
            with self._lock:
                self._running.pop(key, None)
                if keep:
                    _keep(self._rankings, key, (time.monotonic(), ranked))
                if failure is not None:
                    self._failure = failure
            if failure is not None:
                future.set_exception(failure)
            else:
                future.set_result(ranked)

    def _rank(self, query: str, limit: int) -> tuple[tuple[int, ...], bool]:
        """(ranking, whether to keep it): nothing embedded yet is not kept (the backfill may run)."""
        index = self.state.index
        if not index.has_any():  # nothing embedded yet: no request at all
            return (), False
        client = self.state.client()
        if isinstance(client, LocalEmbedder) and not client.ready:  # loading: this turn ranks by words
            client.start_loading()
            return (), False
        return tuple(index.rank_messages(self._vector(query), limit)), True

    def _vector(self, query: str) -> Sequence[float]:
        with self._lock:
            vector = self._vectors.get(query)
        if vector is None:  # the round trip, outside the lock
            # names are left to lexical recall (query_without_names)
            vector = self.state.client().embed([without_names(query)], timeout=self.timeout)[0]
        with self._lock:
            _keep(self._vectors, query, vector)
        return vector


def _settled(result: tuple[int, ...] = (), *, error: BaseException | None = None) -> Future[tuple[int, ...]]:
    future: Future[tuple[int, ...]] = Future()
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
    return future


def _keep(cache: OrderedDict[K, V], key: K, value: V) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > QUERY_CACHE:
        cache.popitem(last=False)


def semantic_state(services: CoreServices) -> SemanticState:
    """The session's state for the active profile, endpoint, embedding model and mode (cached)."""
    history = services.history
    recall = services.settings.recall
    if recall.semantic == "local":
        return _local_state(services)
    model = recall.embedding_model
    key = (str(history.db_path), services.base_url, model)
    auto = _auto_record(services) if recall.semantic == "auto" else None
    with _STATE_LOCK:
        cached = services.session.semantic
        if cached is not None and cached.key == key:
            if (cached.auto is None) != (auto is None):  # the mode changed in the session (Settings)
                cached.auto = auto
            return cached
        refused = auto.no_embeddings(services.base_url, model) if auto is not None else None
        lookup = services.api_key()
        state = SemanticState(history, base_url=services.base_url, api_key=lookup.value,
                              model=model, key=key, auto=auto, record=auto or _auto_record(services))
        if state.missing_key:  # not kept: a key set later in the session counts
            state.off_reason = "no API key" + (f" ({lookup.problem})" if lookup.problem else "")
            return state
        if refused is not None:  # said once already, in an earlier session: quietly lexical
            state.off_reason = f"the endpoint serves no embeddings ({refused})"
        _replace(services, state)
        return state


def _auto_record(services: CoreServices) -> AutoRecord:
    """The profile's "auto" record, beside its history; written unless the session writes nothing."""
    from agenttui.core.history.readonly import ReadOnlyHistoryStore

    history = services.history
    quiet = services.incognito or isinstance(history, ReadOnlyHistoryStore)  # incognito, dry run
    return AutoRecord(history.db_path.parent, save=not quiet)


def _local_state(services: CoreServices) -> SemanticState:
    """``semantic = "local"``: the shipped static model (:mod:`local_embedder`), no endpoint or key."""
    with _STATE_LOCK:
        cached = services.session.semantic
        if cached is not None and cached.key == _local_key(services):
            return cached
        return _new_local_state(services)


def _local_key(services: CoreServices) -> tuple[object, ...]:
    return (str(services.history.db_path), "local", LOCAL_MODEL)


def _new_local_state(services: CoreServices) -> SemanticState:
    """A local state made the session's (under ``_STATE_LOCK``)."""
    from agenttui.core.recall.local_embedder import unavailable_reason

    state = SemanticState(services.history, base_url=None, api_key="local", model=LOCAL_MODEL,
                          key=_local_key(services))
    state._client = LocalEmbedder()
    reason = unavailable_reason()
    if reason is not None:  # no NumPy (the extra is not installed): said once, then lexical
        state.disable(reason)
    _replace(services, state)
    return state


def _replace(services: CoreServices, state: SemanticState) -> None:
    """Make ``state`` the session's; the one it replaces (another profile, endpoint or model)
    closes its index connection."""
    old = services.session.semantic
    services.session.semantic = state
    if old is not None and old is not state:
        old.index.close()


def end_twin(twin: CoreServices, real: CoreServices) -> None:
    """An incognito twin is dropped: close the state it built for itself (it shares the real
    session's only when that existed as the twin was made)."""
    state = twin.session.semantic
    if state is not None and state is not real.session.semantic:
        state.index.close()


def end_session(services: CoreServices) -> None:
    """Close the session's index connection (the services are closing)."""
    with _STATE_LOCK:
        old = services.session.semantic
        services.session.semantic = None
    if old is not None:
        old.index.close()


def history_replaced(services: CoreServices) -> None:
    """The history database file was swapped while the session ran (``agenttui restore``, a
    profile moved to the trash): the index's connection stays on the old file, in the trash,
    where new messages' vectors would go and rankings would be read (ids of the old file quoted
    from the new one). Its state is dropped; the next use opens the file now at the path, and
    the background worker starts over on it (:func:`run_background`)."""
    with _STATE_LOCK:
        old = services.session.semantic
        services.session.semantic = None
        if old is not None:
            old.file_replaced = True
    if old is not None:
        old.index.close()


def ranker_for(services: CoreServices) -> EmbeddingRanker | None:
    """The ranker for context assembly; None when semantic recall is off or cannot start."""
    if not services.settings.recall.semantic:
        return None
    try:
        state = semantic_state(services)
    except Exception as error:  # a turn never fails for a bonus
        log.warning("semantic recall unavailable: %s", error)
        return None
    return state.ranker if state.enabled or state.ranker.has_unclaimed_failure() else None


def prepare(services: CoreServices, text: str) -> Future[tuple[int, ...]] | None:
    """Start embedding and ranking ``text`` as recall will for it (the chat's draft).

    The turn that sends ``text`` then finds vector and ranking kept. None when
    semantic recall is off. Blocks on the first call of a session (the state:
    key look-up, database): call it from a thread.
    """
    ranker = ranker_for(services)
    if ranker is None or not ranker.state.enabled:
        return None
    return ranker.start_ranking(text, CANDIDATES)


def load_tables(services: CoreServices) -> int:
    """Load the stored vectors' in-memory tables before the first ranking needs them (the app
    calls this in the background after the first frame): a first question sent before its draft
    was ranked would build them inside the turn. Reads the history only, contacts nothing; 0
    when semantic recall is off or nothing is stored. Blocks: call it from a thread."""
    ranker = ranker_for(services)
    if ranker is None or not ranker.state.enabled:
        return 0
    return ranker.state.index.load_tables()


def has_vectors(services: CoreServices) -> bool:
    """Some message of the profile's history has a vector for the embedding model (False when
    the history cannot be read, or has no file yet)."""
    model = _model_in_use(services)
    try:
        index = EmbeddingIndex.for_history(services.history, model)
    except Exception:  # no database yet (a dry run opens none), unreadable: nothing to rank
        return False
    try:
        return index.has_any()
    except sqlite3.Error:
        return False
    finally:
        index.close()


def unembedded_count(services: CoreServices) -> int:
    """Messages of the profile's history that semantic recall cannot rank yet (imported, or
    written while the endpoint had no embeddings): recall finds them by their words only
    until the backfill reaches them. 0 when the history cannot be read."""
    try:
        index = EmbeddingIndex.for_history(services.history, _model_in_use(services))
    except Exception:  # no database yet, unreadable: nothing waits
        return 0
    try:
        return index.pending_count()
    except sqlite3.Error:
        return 0
    finally:
        index.close()


def _model_in_use(services: CoreServices) -> str:
    """The model whose vectors recall ranks: the local table's for "local", else the endpoint's."""
    recall = services.settings.recall
    if recall.semantic == "local":
        return LOCAL_MODEL
    return recall.embedding_model


def rank_before_turn(services: CoreServices, text: str, timeout: float = BEFORE_TURN_WAIT_S) -> bool:
    """Embed and rank the message ``text`` as recall will, waiting at most ``timeout``.

    For ``agenttui ask`` and its dry run, which have no draft ranked while
    typing paused: each waits here (bounded by the query's deadline) so the
    turn's recall finds the ranking kept, and the dry run shows the request
    the turn then sends, byte for byte. Sends only the query, to
    ``/embeddings``, and only once something is embedded (before that no key
    is even looked up). True when the ranking is ready; never raises.
    """
    from agenttui.core.recall.text import recall_query

    try:
        if not services.settings.recall.semantic or not services.settings.recall.enabled:
            return False
        if not has_vectors(services):
            return False
        # Built before the clock starts: importing openai takes seconds on a busy machine (13 s
        # seen at load 12), which is not the endpoint's time and would make the dry run differ.
        client = semantic_state(services).client()
        if isinstance(client, LocalEmbedder) and not client.wait_ready(timeout):  # a fresh process
            return False
        future = prepare(services, recall_query(text))
        if future is None:
            return False
        future.result(timeout=timeout)
        return True
    except Exception as error:  # late or failed: the turn ranks by words, and says so if it must
        log.info("semantic recall: no ranking before the turn: %s", error)
        return False


# --------------------------------------------------------------------------
# Backfill
# --------------------------------------------------------------------------
@dataclass
class BackfillResult:
    embedded: int = 0
    batches: list[int] = field(default_factory=list)  # texts read per batch, in order
    complete: bool = False  # nothing is left without a vector (in the range walked)
    stopped: bool = False  # ``should_stop`` said so
    error: EmbeddingError | None = None
    notice: str | None = None  # this pass turned semantic recall off (the session's notice)
    top_id: int = 0  # newest message id when the pass began: ``after_id`` of the next one
    seconds: float = 0.0


def backfill(services: CoreServices, *, batch: int = EMBED_BATCH, should_stop: Callable[[], bool] | None = None,
             limit: int | None = None, after_id: int | None = None,
             progress: Callable[[BackfillResult], None] | None = None,
             state: SemanticState | None = None) -> BackfillResult:
    """Embed messages that have no vector yet, newest first, ``batch`` at a time (module doc).

    ``limit``: at most this many this run. ``after_id``: only messages newer
    than it (a later pass needs only what came since). ``should_stop`` is
    asked before each batch. Failures end the pass and are in the result; an
    endpoint without embeddings also turns semantic recall off for the session.
    """
    started = time.monotonic()
    state = state or semantic_state(services)
    result = BackfillResult()
    if not state.enabled:
        result.error = EmbeddingError(state.off_reason or "semantic recall is off", "unavailable")
        return result
    index = state.index
    result.top_id = services.history.message_total()
    before: int | None = None
    while True:
        if should_stop is not None and should_stop():
            result.stopped = True
            break
        want = batch if limit is None else min(batch, limit - result.embedded)
        if want <= 0:
            break
        rows = index.pending(want, before_id=before, after_id=after_id)
        if not rows:
            result.complete = True
            break
        try:
            pairs = _embed_rows(state.client(), rows)
        except EmbeddingError as error:
            result.error = error
            if error.kind == "unavailable":
                result.notice = state.disable(str(error), error.status)
            break
        result.embedded += index.store(pairs)
        result.batches.append(len(rows))
        before = rows[-1][0]
        if progress is not None:
            result.seconds = time.monotonic() - started
            progress(result)
    result.seconds = time.monotonic() - started
    return result


def _embed_rows(client: Embedder, rows: list[tuple[int, str]]) -> list[tuple[int, Sequence[float]]]:
    """(id, vector) for ``rows``; when the batch is rejected, each text alone, skipping the bad."""
    try:
        return list(zip((mid for mid, _ in rows), client.embed([t for _, t in rows],
                                                             timeout=BACKFILL_TIMEOUT_S), strict=True))
    except EmbeddingError as error:
        if not (client.worked and error.status == 400 and len(rows) > 1):
            raise
    pairs: list[tuple[int, Sequence[float]]] = []
    for mid, text in rows:  # one text the model refuses must not stall the rest
        try:
            pairs.append((mid, client.embed([text], timeout=BACKFILL_TIMEOUT_S)[0]))
        except EmbeddingError as error:
            if error.status != 400:
                raise
            log.warning("semantic recall: message %s not embedded: %s", mid, error)
    return pairs


def probe_languages(state: SemanticState) -> None:
    """The language probe (:mod:`recall.language_probe`), once per session when its margins are
    not kept yet, and only once something is embedded (the endpoint serves embeddings): the
    background worker runs it after a complete backfill pass; never a turn. Blocks."""
    if state.enabled and state.index.has_any():
        state.probe_languages()


PAUSED_POLL_S = 1.0  # how soon indexing resumes after incognito ends


def run_background(services: CoreServices, *, stop: threading.Event, notify: Callable[[str], None],
                   idle: float = IDLE_S, retry: float = RETRY_S,
                   paused: Callable[[], bool] = lambda: False,
                   alive: Callable[[], bool] = lambda: True) -> None:
    """The app's worker: backfill, then new messages every ``idle`` s, until ``stop`` is set.

    Ends when semantic recall is turned off (setting or failure); a notice
    (the session's one) goes to ``notify``. A profile switch starts over on
    the new profile's history. While ``paused()`` (the app is incognito: the
    user expects nothing written) it writes nothing and a batch under way stops.
    """
    after: int | None = None
    current: SemanticState | None = None
    def wait(seconds: float) -> None:
        """``stop.wait`` in slices: the app may end without setting ``stop`` (a worker started
        by a timer as it shut down is never cancelled), and ``alive()`` says so."""
        deadline = time.monotonic() + seconds
        while not stop.is_set() and alive() and time.monotonic() < deadline:
            stop.wait(min(PAUSED_POLL_S, max(0.0, deadline - time.monotonic())))

    while not stop.is_set() and alive() and services.settings.recall.semantic:
        if paused():
            wait(PAUSED_POLL_S)
            continue
        state = current
        try:
            state = semantic_state(services)
            if state is not current:  # another profile, endpoint or model; the file replaced
                current, after = state, None
            result = backfill(services, should_stop=lambda: stop.is_set() or paused(), after_id=after,
                              state=state)
        except sqlite3.OperationalError as error:  # locked past the busy timeout: later
            log.warning("semantic recall backfill paused: %s", error)
            wait(retry)
            continue
        except Exception as error:  # a bug or an unreadable database: log it, stop quietly
            if state is not None and state.file_replaced:
                continue  # its connection closed under the batch: start over on the file now there
            log.warning("semantic recall backfill failed: %s", error, exc_info=True)
            return
        notice = state.take_notice() or (state.told_notice() if result.batches else None)
        if notice:
            notify(notice)
        if state.missing_key:
            wait(idle)
            continue
        if not state.enabled:
            if state.refused and semantic_state(services) is not state:
                continue  # "auto" handed over to the local embedder: index with it
            return
        if result.complete:
            after = result.top_id
            probe_languages(state)
        if result.embedded:
            log.info("semantic recall: embedded %d messages in %.1f s", result.embedded, result.seconds)
        wait(retry if result.error is not None else idle)
