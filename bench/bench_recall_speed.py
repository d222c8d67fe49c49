"""Prompt assembly with recall at scale: 200,000 messages and 2,000 notes.

    .venv/bin/python bench/bench_recall_speed.py [--messages 200000] [--notes 2000] [--queries 200]
        [--corpus zipf|realistic]

Builds one profile (messages over 2,000 conversations, Zipf-distributed
pseudo-words as in bench_history.py, dates spread over 18 months; 2,000
notes written through the memory file), then times
``agenttui.core.context.assemble.assemble`` for a question in a *new* conversation:

* ``recall`` -- default settings (retrieval over every conversation, notes
  ranked by bm25, project memory), as the app runs it: with the common words'
  postings in memory (``HistoryStore.keep_ranking_index``, built at start-up;
  the build's time is printed);
* ``command`` -- the same as a one-shot command (``agenttui ask``) runs it,
  SQLite scoring every match, in fresh services (neither pass finds rows the
  other read);
* ``baseline`` -- the same call with ``[recall] enabled = false`` (system
  prompt with memory selection, window) measured in the same run, so the
  difference is what recall costs.

Each question is preceded by one appended message (outside the timing), as
in real use, so caches that last only until the next message do not flatter
the figure.

Questions mix pseudo-words of every frequency (a few of the 20 most common,
mid-frequency and rare ones, 4-10 words) and a third of them carry a time
phrase ("last week", "in March", "the week before <words>").

The services are closed and opened again after building, as a profile is
after its first session: the history store's close runs ``PRAGMA optimize``,
which writes the ANALYZE statistics every later query is planned with (one
plan, the branch walk of the page read, cost ~0.2 s a turn with them and went
unseen while the bench timed a database that had none).

The built profile (history and notes, before that earlier session) is kept under
the temporary directory, keyed by ``--messages``, ``--notes`` and the code that
builds it (this file's builders, ``bench_history.py``, the history schema), and
copied for each run, so repeated runs skip the build; ``--rebuild`` ignores it.

Prints medians and p95 of both (wall clock, and the process's CPU time, which
the other sessions of a shared machine disturb less), the difference of
medians, the ratio, and the load average. Then, in a pass of its own after the
timed ones (the probes cost a little), where recall's CPU time goes per
question: the FTS5 ranking, the rows read for it, the term counts, the
neighbours, the notes' index, and the rest (Python: fusion, dedup, quoting,
the fill) -- so a change can be aimed at what costs.
``--corpus realistic`` fills the profile instead with bench_recall's one user
(bench/recall_corpus.py: English and Indonesian turns with real vocabulary,
stop words, dates, related words; as many sessions as the messages need) and
its notes, and asks its questions: pseudo-words match few messages and no
related words, so this shows whether real text costs recall more.
Goal (issue "Recall"): recall ≤ 20 ms median, ≤ 60 ms p95.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_history import Corpus  # noqa: E402

from agenttui.bootstrap import build_services  # noqa: E402
from agenttui.core.config.paths import Paths  # noqa: E402
from agenttui.core.context.assemble import assemble  # noqa: E402
from agenttui.core.history import schema as history_schema  # noqa: E402
from agenttui.core.history.rows import to_ts as _ts  # noqa: E402
from agenttui.core.history.schema import LINK_AS_ONE_BRANCH  # noqa: E402
from agenttui.core.memory import file as memory_file  # noqa: E402
from agenttui.core.memory.file import ScopeData  # noqa: E402
from agenttui.core.models import MemoryItem, Message  # noqa: E402

TODAY = datetime(2026, 11, 23, 12, tzinfo=UTC)
CONVERSATIONS = 2_000


class RealisticCorpus:
    """bench_recall's corpus scaled to ``messages``: ``text()`` hands out its messages (repeated
    if short), then its notes, in the order build_history and build_notes ask for them."""

    name = "realistic"

    def __init__(self, messages: int, notes: int, seed: int = 7) -> None:
        from recall_corpus import generate

        corpus = generate(sessions=max(1, -(-messages // 84)), messages_per_session=84,
                          notes=max(1, notes), seed=seed, per_kind=0)
        said = [m.text for session in corpus.sessions for m in session.messages] or ["hello"]
        noted = [n.text for n in corpus.notes] or ["a note"]
        self._texts = iter([said[k % len(said)] for k in range(messages)]
                           + [noted[k % len(noted)] for k in range(notes)])
        self.questions = [q.text for q in corpus.questions]

    def text(self) -> str:
        return next(self._texts, "hello")


def build_history(services, messages: int, corpus: Corpus) -> None:
    history = services.history
    cids = [history.create_conversation(title=f"conversation {i}").id for i in range(CONVERSATIONS)]
    history.close()
    start = TODAY - timedelta(days=540)
    step = timedelta(days=540) / max(1, messages)
    per = max(1, messages // CONVERSATIONS)
    rows = ((cids[min(i // per, CONVERSATIONS - 1)], "user" if i % 2 == 0 else "assistant",
             corpus.text(), _ts(start + step * i)) for i in range(messages))
    conn = sqlite3.connect(str(history.db_path), isolation_level=None)
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO messages (conversation_id, role, content, created) VALUES (?, ?, ?, ?)", rows)
    conn.execute("UPDATE conversations SET message_count = "
                 "(SELECT COUNT(*) FROM messages WHERE conversation_id = conversations.id)")
    for statement in LINK_AS_ONE_BRANCH:  # raw rows: one branch each (schema v6)
        conn.execute(statement)
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def build_notes(paths: Paths, profile: str, notes: int, corpus: Corpus) -> None:
    for scope, path in (("user", paths.user_memory_file), ("profile", paths.profile_memory_file(profile))):
        items = [MemoryItem(kind="note", scope=scope, text=corpus.text()[:200],
                            created=TODAY - timedelta(days=k % 500), updated=TODAY - timedelta(days=k % 500))
                 for k in range(notes // 2)]
        memory_file.write(path, ScopeData(scope=scope, items=items))


def questions(corpus: Corpus | RealisticCorpus, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    if isinstance(corpus, RealisticCorpus):
        pool = corpus.questions
        return rng.sample(pool, min(count, len(pool))) + rng.choices(pool, k=max(0, count - len(pool)))
    common, middle, rare = corpus.words[:20], corpus.words[200:2000], corpus.words[5000:]
    times = ("last week", "in March", "yesterday", "two weeks ago")
    out = []
    for k in range(count):
        words = rng.sample(common, 2) + rng.sample(middle, rng.randint(1, 4)) + rng.sample(rare, rng.randint(1, 4))
        rng.shuffle(words)
        text = "what about " + " ".join(words) + "?"
        if k % 3 == 1:
            text = f"{text[:-1]} {rng.choice(times)}?"
        elif k % 3 == 2:
            text = f"what did I say the week before {' '.join(rng.sample(middle + rare, 2))}?"
        out.append(text)
    return out


def cached_profile(messages: int, notes: int, corpus: str = "zipf") -> Path:
    """Where the profile built for these parameters (and this building code) is kept."""
    key = hashlib.sha256()
    key.update(f"{messages}:{notes}".encode())
    if corpus != "zipf":
        key.update(f":{corpus}".encode() + (ROOT / "bench" / "recall_corpus.py").read_bytes()
                   + inspect.getsource(RealisticCorpus).encode())
    for source in (inspect.getsource(build_history), inspect.getsource(build_notes),
                   Path(inspect.getfile(Corpus)).read_text(), Path(inspect.getfile(history_schema)).read_text()):
        key.update(source.encode())
    return Path(tempfile.gettempdir()) / "agenttui-bench-recall-speed" / key.hexdigest()[:16]


def build_profile(home: str, messages: int, notes: int, corpus: Corpus | RealisticCorpus, *,
                  rebuild: bool) -> str:
    """Fill ``home`` with the built profile, from the cache when it is there; says which."""
    cache = cached_profile(messages, notes, getattr(corpus, "name", "zipf"))
    if cache.is_dir() and not rebuild:
        shutil.copytree(cache, home, dirs_exist_ok=True)
        return f"copied from {cache}"
    environ = {"AGENTTUI_HOME": home}
    services = build_services(paths=Paths.from_env(environ), cwd=Path(home), environ=environ)
    build_history(services, messages, corpus)
    build_notes(services.paths, services.profile_name, notes, corpus)
    services.close()
    partial = cache.with_name(cache.name + f".{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    shutil.copytree(home, partial)
    shutil.rmtree(cache, ignore_errors=True)
    partial.rename(cache)  # whole or absent: a build cut short leaves no cache behind
    return f"built, kept in {cache}"


def time_assemble(services, cid: str, texts: list[str], repeat: int = 1,
                  cpu: list[float] | None = None) -> list[float]:
    """Wall-clock seconds of each question's assembly (``cpu``, when given, gets CPU seconds)."""
    samples = []
    elsewhere = services.history.create_conversation().id
    for text in texts:
        # as in real use, each turn adds a message first: caches valid only until the next
        # append (exact term counts) must not make later questions look cheaper than they are
        services.history.append(elsewhere, Message(role="user", content="ok"))
        best = best_cpu = float("inf")
        for _ in range(repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            assemble(services, cid, text, mark_used=False, now=TODAY)
            best = min(best, time.perf_counter() - start)
            best_cpu = min(best_cpu, time.process_time() - start_cpu)
        samples.append(best)
        if cpu is not None:
            cpu.append(best_cpu)
    return samples


class Probes:
    """CPU seconds spent in named functions while installed (a breakdown pass, not the timing)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self._undo: list[tuple[object, str, object]] = []

    def wrap(self, owner: object, name: str, label: str) -> None:
        original = getattr(owner, name)
        spent = self.spent
        spent.setdefault(label, 0.0)

        def probed(*args, **kwargs):
            start = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                spent[label] += time.process_time() - start

        setattr(owner, name, probed)
        self._undo.append((owner, name, original))

    def remove(self) -> None:
        for owner, name, original in reversed(self._undo):
            setattr(owner, name, original)
        self._undo.clear()


def breakdown(services, cid: str, texts: list[str]) -> list[tuple[str, float]]:
    """Recall's CPU milliseconds per question by part (see the module doc), over ``texts``."""
    from agenttui.core.context import assemble as assemble_module
    from agenttui.core.history import recall_queries
    from agenttui.core.history.bm25_postings import Bm25Postings
    from agenttui.core.history.store import HistoryStore
    from agenttui.core.recall.index import SideIndex

    probes = Probes()
    # part of "candidate queries": the FTS5 bm25 ranking and the rows read for it
    probes.wrap(recall_queries, "_ranked_on_index", "rank on the index + its rows")
    probes.wrap(recall_queries, "_rows_by_id", "  of which rows read")
    probes.wrap(Bm25Postings, "ranked", "  of which from postings (or not)")
    probes.wrap(HistoryStore, "recall_candidates", "candidate queries (all)")
    probes.wrap(HistoryStore, "term_counts", "term counts")
    probes.wrap(HistoryStore, "first_neighbours", "neighbours at once")
    probes.wrap(HistoryStore, "neighbour", "neighbours walked one by one")
    probes.wrap(HistoryStore, "recent_in_span", "span's own messages")
    probes.wrap(SideIndex, "search", "notes index (also memory selection)")
    probes.wrap(assemble_module, "recall", "recall (total)")
    try:
        time_assemble(services, cid, texts)
    finally:
        probes.remove()
    n = max(1, len(texts))
    ms = {label: seconds * 1000 / n for label, seconds in probes.spent.items()}
    # the notes' index is searched by memory selection (outside recall) and by recall's notes
    queries = ("candidate queries (all)", "term counts", "neighbours at once",
               "neighbours walked one by one", "span's own messages")
    ms["the rest of recall (Python)"] = ms["recall (total)"] - sum(ms[label] for label in queries)
    return list(ms.items())


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--notes", type=int, default=2_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rebuild", action="store_true", help="build the profile even if it is cached")
    parser.add_argument("--corpus", choices=("zipf", "realistic"), default="zipf",
                        help="pseudo-words (default) or bench_recall's real-vocabulary user (module doc)")
    args = parser.parse_args()
    corpus = Corpus() if args.corpus == "zipf" else RealisticCorpus(args.messages, args.notes)
    with tempfile.TemporaryDirectory() as home:
        environ = {"AGENTTUI_HOME": home}
        began = time.perf_counter()
        how = build_profile(home, args.messages, args.notes, corpus, rebuild=args.rebuild)
        services = build_services(paths=Paths.from_env(environ), cwd=Path(home), environ=environ)
        # one earlier session: its close runs PRAGMA optimize, which writes the planner's
        # statistics for the queries the session ran (a fresh connection's optimize does nothing)
        time_assemble(services, services.history.create_conversation().id, questions(corpus, 5, seed=1))
        services.close()
        services = build_services(paths=Paths.from_env(environ), cwd=Path(home), environ=environ)
        with sqlite3.connect(str(services.history.db_path)) as db:
            analyzed = db.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone()[0]
        print(f"{args.messages} messages, {args.notes} notes, {args.corpus} corpus ({how}) "
              f"in {time.perf_counter() - began:.1f} s "
              f"({'with' if analyzed else 'without'} planner statistics)")
        texts = questions(corpus, args.queries, seed=3)
        # as the app: the common words' postings built at start-up (in the background there)
        began, began_cpu = time.perf_counter(), time.process_time()
        services.history.keep_ranking_index()
        build_s, build_cpu = time.perf_counter() - began, time.process_time() - began_cpu
        cid = services.history.create_conversation().id
        time_assemble(services, cid, texts[:20])  # warm-up: page cache, note index, statement cache
        recall_cpu: list[float] = []
        with_recall = time_assemble(services, cid, texts, cpu=recall_cpu)
        built = assemble(services, cid, texts[0], mark_used=False, now=TODAY)
        parts = breakdown(services, cid, texts)
        services.close()
        # as a one-shot command (``agenttui ask``): SQLite ranks every match; fresh services, so
        # neither pass finds rows the other read
        services = build_services(paths=Paths.from_env(environ), cwd=Path(home), environ=environ)
        cid = services.history.create_conversation().id
        time_assemble(services, cid, texts[:20])
        command_cpu: list[float] = []
        command = time_assemble(services, cid, texts, cpu=command_cpu)
        command_parts = dict(breakdown(services, cid, texts))
        baseline_cpu: list[float] = []
        services.settings.recall.enabled = False
        baseline = time_assemble(services, cid, texts, cpu=baseline_cpu)
        services.close()
    rm, bm = statistics.median(with_recall) * 1000, statistics.median(baseline) * 1000
    rc, bc = statistics.median(recall_cpu) * 1000, statistics.median(baseline_cpu) * 1000
    print(f"recall:   median {rm:.1f} ms, p95 {pct(with_recall, 0.95):.1f} ms "
          f"(CPU: median {rc:.1f} ms, p95 {pct(recall_cpu, 0.95):.1f} ms)")
    print(f"command:  median {statistics.median(command) * 1000:.1f} ms, p95 {pct(command, 0.95):.1f} ms "
          f"(CPU: median {statistics.median(command_cpu) * 1000:.1f} ms; no postings: SQLite ranks, "
          f"as `agenttui ask`; the app's postings took {build_cpu:.2f} s CPU, {build_s:.2f} s to build)")
    print(f"baseline: median {bm:.1f} ms, p95 {pct(baseline, 0.95):.1f} ms "
          f"(CPU: median {bc:.1f} ms; recall off, same run)")
    print(f"recall adds {rm - bm:.1f} ms (median); ratio {rm / max(bm, 1e-9):.2f} (CPU {rc / max(bc, 1e-9):.2f}); "
          f"example prompt: {built.tokens} tokens, {len(built.recalled)} snippets, {built.recall_tokens} recalled")
    print("where recall's CPU goes, ms per question (a probed pass after the timed ones; "
          "parts nest: candidate queries hold the ranking):")
    print(f"  {'':38} {'app':>6} {'command':>8}")
    for label, ms in parts:
        print(f"  {label:38} {ms:6.2f} {command_parts.get(label, 0.0):8.2f}")
    print("load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
