"""Semantic recall at scale: embedding backfill and ranking (issue "Recall", item 1).

    .venv/bin/python bench/bench_embeddings.py [--messages 200000] [--dims 768] [--queries 30]

A profile of ``--messages`` messages (bench_history's Zipf corpus) is built,
then embedded through the real ``openai`` client against the fake server
(tests/fakes/openai_server.py, in this process; 64-dim hashed bag-of-words
vectors). The backfill runs in child processes, so their RSS is theirs alone:

* **Backfill, interrupted and resumed.** Child A is SIGKILLed once half the
  messages have vectors; child B resumes and finishes. Printed: messages/s of
  each, peak RSS against a baseline RSS taken in the same child after its
  first batch (openai imported, database open), texts sent twice (work lost
  to the kill: at most one batch), rows at the end (= messages, no duplicates)
  and ``PRAGMA integrity_check``.
* **Ranking** (``EmbeddingIndex.rank_messages``, limit 40 as recall asks)
  at the backfilled 64 dims and at each ``--dims`` (vectors of the same
  bag-of-words kind stored directly), median/p95 ms over all vectors and as
  configured (the newest ``SCAN_LIMIT``), against lexical recall
  (``retrieval.recall`` over messages, BM25) on the same queries in the same
  run; recall with the semantic list fused; the brute-force cosine scan the
  two-pass ranking replaces, and how many of its top 40 the ranking finds;
  tracemalloc peak of one ranking; one query embedding round trip to the fake.
* **A turn's assembly** (``context.assemble``, as the loop calls it) with the
  fake's ``/v1/embeddings`` answering after ``--latency`` (200 ms: a remote
  endpoint), on the last ``--dims`` vectors, same queries, same run:
  lexical only (``semantic`` off); *waiting* (the ranking awaited in full, as
  before ``retrieval.SEMANTIC_WAIT``); *cold* (first sight of the query: the
  ranking misses the deadline and the prompt is the lexical one); and
  *pre-embedded* (``semantic.prepare`` ran first, as the chat does while the
  user pauses typing, or the turn's next step). Each ranking is finished
  before the next query is timed, so no thread overlaps a timing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from concurrent.futures import Future
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

MODEL = "text-embedding-3-small"  # [recall] embedding_model's default
LIMIT = 40  # retrieval.CANDIDATES
BIG_POOL = 4_000  # a larger exact-cosine pool, for comparison with the default (embeddings.POOL_*)


def maxrss_mb(pid: int | str = "self") -> float:
    """Peak RSS. Linux: VmHWM, because ``getrusage``'s ru_maxrss survives fork and exec,
    so a child would report this (large) parent's peak as its own."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def p95_ms(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000


# --------------------------------------------------------------------------
# The child: one backfill run
# --------------------------------------------------------------------------
def child(batch: int) -> None:
    from agenttui.bootstrap import build_services
    from agenttui.core.recall.semantic import backfill, semantic_state

    services = build_services()
    state = semantic_state(services)
    warm = backfill(services, batch=batch, limit=batch, state=state)  # imports, opens, connects
    baseline = maxrss_mb()
    print(json.dumps({"event": "baseline", "rss_mb": baseline}), flush=True)
    started = time.perf_counter()
    result = backfill(services, batch=batch, state=state)
    seconds = time.perf_counter() - started
    print(json.dumps({"event": "done", "baseline_mb": baseline, "peak_mb": maxrss_mb(),
                      "embedded": warm.embedded + result.embedded, "seconds": seconds,
                      "rate": result.embedded / seconds if seconds else 0.0,
                      "complete": result.complete, "error": str(result.error or "")}), flush=True)


def _count(db: Path, model: str = MODEL) -> int:
    conn = sqlite3.connect(str(db), timeout=30)
    try:
        return conn.execute("SELECT COUNT(*) FROM embeddings WHERE model = ?", (model,)).fetchone()[0]
    finally:
        conn.close()


def _start_child(env: dict[str, str], batch: int) -> tuple[subprocess.Popen, dict]:
    proc = subprocess.Popen([sys.executable, __file__, "--child", "--batch", str(batch)], env=env,
                            stdout=subprocess.PIPE, text=True)
    first = json.loads(proc.stdout.readline())
    return proc, first


def run_backfill(db: Path, env: dict[str, str], fake, messages: int, batch: int) -> None:
    sent = lambda: sum(len(body["input"]) for body in fake.embedding_requests)  # noqa: E731
    proc, baseline_a = _start_child(env, batch)
    started = time.perf_counter()
    while _count(db) < messages // 2 and proc.poll() is None:
        time.sleep(0.2)
    peak_a = maxrss_mb(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    seconds_a = time.perf_counter() - started
    rows_a = _count(db)
    print(f"backfill A (SIGKILLed at half): {rows_a} vectors, ~{(rows_a - batch) / seconds_a:.0f} messages/s, "
          f"peak RSS {peak_a:.1f} MB vs baseline {baseline_a['rss_mb']:.1f} MB in the same run")

    proc, _ = _start_child(env, batch)
    done = json.loads(proc.stdout.readline())
    proc.wait()
    rows_b, sent_b = _count(db), sent()
    print(f"backfill B (resumed): {done['embedded']} more vectors in {done['seconds']:.1f} s, "
          f"{done['rate']:.0f} messages/s, complete={done['complete']} {done['error']}")
    print(f"  peak RSS {done['peak_mb']:.1f} MB vs baseline {done['baseline_mb']:.1f} MB in the same run "
          f"(+{done['peak_mb'] - done['baseline_mb']:.1f} MB, ratio {done['peak_mb'] / done['baseline_mb']:.3f})")
    conn = sqlite3.connect(str(db))
    integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
    distinct = conn.execute("SELECT COUNT(DISTINCT message_id) FROM embeddings").fetchone()[0]
    conn.close()
    print(f"  rows {rows_b} (distinct {distinct}) for {messages} messages; texts sent {sent_b} = "
          f"{sent_b - messages} sent twice (lost to the kill; one batch = {batch}); integrity: {integrity}")


# --------------------------------------------------------------------------
# Ranking
# --------------------------------------------------------------------------
def fill_model(db: Path, model: str, dim: int) -> float:
    """Store ``dim``-dimensional fake vectors for every text message under ``model``."""
    from agenttui.core.recall.embeddings import EmbeddingIndex
    from tests.fakes.openai_server import fake_embedding

    index = EmbeddingIndex(db, model)
    started = time.perf_counter()
    before = None
    while True:
        rows = index.pending(2_000, before_id=before)
        if not rows:
            break
        index.store((mid, fake_embedding(text, dim)) for mid, text in rows)
        before = rows[-1][0]
    index.close()
    return time.perf_counter() - started


class _Precomputed:
    """A SemanticRanker whose query vectors are known (keeps HTTP out of the recall timing)."""

    def __init__(self, index, vectors: dict[str, list[float]]) -> None:
        self.index, self.vectors = index, vectors

    def start_ranking(self, query: str, limit: int) -> Future[tuple[int, ...]]:
        done: Future[tuple[int, ...]] = Future()  # ranked in the caller's thread: timed with recall
        done.set_result(tuple(self.index.rank_messages(self.vectors[query], limit)))
        return done


def exact_top(index, query: list[float], limit: int) -> list[int]:
    from agenttui.core.recall.embeddings import dot, from_blob, normalised

    q = normalised(query)
    conn = sqlite3.connect(str(index.db_path))
    scored = [(dot(q, from_blob(blob)), mid) for mid, blob in
              conn.execute("SELECT message_id, vector FROM embeddings WHERE model = ?", (index.model,))]
    conn.close()
    scored.sort(key=lambda pair: (-pair[0], -pair[1]))
    return [mid for _, mid in scored[:limit]]


def run_ranking(db: Path, fake, dims: list[int], queries: int, exact_queries: int) -> None:
    from bench_history import Corpus

    from agenttui.core.history.store import HistoryStore
    from agenttui.core.recall.embedding_client import EmbeddingClient
    from agenttui.core.recall.embeddings import SCAN_LIMIT, EmbeddingIndex
    from agenttui.core.recall.retrieval import RecallRequest, recall
    from tests.fakes.openai_server import fake_embedding

    corpus = Corpus(seed=7)  # the profile's vocabulary; a fresh stream of texts
    corpus.rng.seed(99)
    texts = [" ".join(corpus.text().split()[:8]) for _ in range(queries)]
    store = HistoryStore(db)

    lexical = []
    for text in texts:
        started = time.perf_counter()
        recall(RecallRequest(text, sources=("message",)), history=store)
        lexical.append(time.perf_counter() - started)
    print(f"lexical recall (BM25, messages): median {median_ms(lexical):.1f} ms, p95 {p95_ms(lexical):.1f} ms")

    client = EmbeddingClient(fake.base_url, "sk-bench", MODEL)
    round_trips = []
    for text in texts:
        started = time.perf_counter()
        client.embed([text], timeout=2.0)
        round_trips.append(time.perf_counter() - started)
    print(f"query embedding round trip to the fake: median {median_ms(round_trips):.1f} ms")

    for dim, model in [(64, MODEL)] + [(d, f"bench-{d}") for d in dims]:
        if model != MODEL:
            seconds = fill_model(db, model, dim)
            print(f"-- {dim} dims: vectors computed and stored in-process in {seconds:.0f} s")
        index = EmbeddingIndex(db, model)
        count = index.count()
        vectors = {text: fake_embedding(text, dim) for text in texts}
        timings, full = [], []
        for text in texts:
            started = time.perf_counter()
            index.rank_messages(vectors[text], LIMIT, max_scan=count)
            full.append(time.perf_counter() - started)
        for text in texts:
            started = time.perf_counter()
            index.rank_messages(vectors[text], LIMIT)
            timings.append(time.perf_counter() - started)
        steps = index.last_scan.steps
        tracemalloc.start()
        index.rank_messages(vectors[texts[0]], LIMIT)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        fused = []
        ranker = _Precomputed(index, vectors)
        for text in texts:
            started = time.perf_counter()
            recall(RecallRequest(text, sources=("message",), semantic=ranker), history=store)
            fused.append(time.perf_counter() - started)
        found, found_big, brute, big = [], [], [], []
        for text in texts[:exact_queries]:
            started = time.perf_counter()
            exact = set(exact_top(index, vectors[text], LIMIT))
            brute.append(time.perf_counter() - started)
            found.append(len(exact & set(index.rank_messages(vectors[text], LIMIT, max_scan=count))) / LIMIT)
            started = time.perf_counter()
            ranked = index.rank_messages(vectors[text], LIMIT, max_scan=count, pool=BIG_POOL)
            big.append(time.perf_counter() - started)
            found_big.append(len(exact & set(ranked)) / LIMIT)
        print(f"rank_messages, all {count} vectors x {dim} dims: median {median_ms(full):.1f} ms, "
              f"p95 {p95_ms(full):.1f} ms = {median_ms(full) / median_ms(lexical):.2f} x lexical recall")
        print(f"  as configured (the newest {min(count, SCAN_LIMIT)}): median {median_ms(timings):.1f} ms, "
              f"p95 {p95_ms(timings):.1f} ms = {median_ms(timings) / median_ms(lexical):.2f} x lexical recall; "
              f"{len(steps)} steps of <= {max(steps)} rows, tracemalloc peak {peak / 1e6:.2f} MB")
        print(f"  recall with the semantic list fused: median {median_ms(fused):.1f} ms, "
              f"p95 {p95_ms(fused):.1f} ms = {median_ms(fused) / median_ms(lexical):.2f} x lexical")
        print(f"  brute-force cosine scan (replaced): median {median_ms(brute):.0f} ms; "
              f"two-pass ranking finds {statistics.mean(found):.0%} of its top {LIMIT} "
              f"(min {min(found):.0%}, {len(found)} queries); with a pool of {BIG_POOL}: "
              f"{statistics.mean(found_big):.0%} (min {min(found_big):.0%}) in {median_ms(big):.1f} ms")
        index.close()
    store.close()


def run_assemble(env: dict[str, str], fake, model: str, dim: int, queries: int, latency: float) -> None:
    from bench_history import Corpus

    from agenttui.bootstrap import build_services
    from agenttui.core.context.assemble import assemble
    from agenttui.core.recall import retrieval
    from agenttui.core.recall.semantic import EmbeddingRanker, prepare, semantic_state

    corpus = Corpus(seed=7)
    corpus.rng.seed(123)  # fresh queries: nothing of them is kept yet
    texts = [" ".join(corpus.text().split()[:8]) for _ in range(queries)]
    services = build_services(environ=env)
    services.settings.recall.embedding_model = model
    fake.embedding_dim = dim
    cid = services.history.create_conversation("bench").id

    lexical_prompts: dict[str, list[dict]] = {}
    now = datetime.now(UTC)  # one clock reading: prompts differ only by what recall chose

    def timed(text: str) -> tuple[float, bool]:
        """Seconds of one assembly, and whether the semantic list changed the prompt."""
        started = time.perf_counter()
        built = assemble(services, cid, text, mark_used=False, now=now)
        seconds = time.perf_counter() - started
        lexical_prompts.setdefault(text, built.messages)  # the first pass is the lexical one
        return seconds, built.messages != lexical_prompts[text]

    services.settings.recall.semantic = False
    for text in texts:  # warm: stores, note index, and each query's lexical prompt kept
        timed(text)
    services.settings.recall.semantic = True
    prepare(services, "warm up the openai client").result()  # import, connection
    fake.embedding_delay = latency
    state = semantic_state(services)

    deadline = retrieval.SEMANTIC_WAIT
    lexical, waiting, cold, prepared = [], [], [], []
    for text in texts:  # interleaved, so a busy moment of the machine hits every kind alike
        services.settings.recall.semantic = False
        lexical.append(timed(text)[0])
        services.settings.recall.semantic = True
        state.ranker = EmbeddingRanker(state)  # nothing kept: the query is new again
        retrieval.SEMANTIC_WAIT = 30.0  # the ranking awaited in full: a turn's cost before the deadline
        waiting.append(timed(text))
        retrieval.SEMANTIC_WAIT = deadline
        state.ranker = EmbeddingRanker(state)
        cold.append(timed(text))
        state.ranker.start_ranking(text, retrieval.CANDIDATES).result()  # done before the next timing
        state.ranker = EmbeddingRanker(state)
        prepare(services, text).result()  # the chat, while the user pauses typing
        prepared.append(timed(text))
    fake.embedding_delay = 0.0
    services.history.close()
    base = median_ms(lexical)
    print(f"-- assemble(), {dim}-dim vectors, /v1/embeddings answering after {latency * 1000:.0f} ms, "
          f"{queries} queries (SEMANTIC_WAIT {deadline * 1000:.0f} ms):")
    print(f"  lexical only (semantic off): median {base:.1f} ms, p95 {p95_ms(lexical):.1f} ms")
    for name, runs in [("waiting for the ranking (before)", waiting), ("cold (deadline missed)", cold),
                       ("pre-embedded (prepare, kept)", prepared)]:
        samples = [seconds for seconds, _ in runs]
        print(f"  {name}: median {median_ms(samples):.1f} ms, p95 {p95_ms(samples):.1f} ms, "
              f"{median_ms(samples) - base:+.1f} ms = {median_ms(samples) / base:.2f} x lexical; "
              f"the semantic list changed the prompt in {sum(changed for _, changed in runs)}/{queries}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--dims", type=int, nargs="*", default=[768], help="extra vector sizes to rank")
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--exact-queries", type=int, default=5)
    parser.add_argument("--latency", type=float, default=0.2, help="embeddings answer time for assemble()")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.batch)
        return

    from bench_history import Corpus, build

    from agenttui.core.config.paths import Paths
    from tests.fakes.openai_server import FakeOpenAI

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        paths = Paths.from_env({"AGENTTUI_HOME": str(home)})
        db = paths.history_db("default")
        db.parent.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        build(db, args.messages, max(1, args.messages // 100), Corpus())
        print(f"built {args.messages} messages in {time.perf_counter() - started:.0f} s")
        with FakeOpenAI() as fake:
            env = dict(os.environ, AGENTTUI_HOME=str(home), OPENAI_BASE_URL=fake.base_url,
                       OPENAI_API_KEY="sk-bench", PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
                       PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)]))
            env.pop("AGENTTUI_PROFILE", None)
            run_backfill(db, env, fake, args.messages, args.batch)
            run_ranking(db, fake, args.dims, args.queries, args.exact_queries)
            dim = args.dims[-1] if args.dims else 64
            run_assemble(env, fake, f"bench-{dim}" if args.dims else MODEL, dim, args.queries, args.latency)


if __name__ == "__main__":
    main()
