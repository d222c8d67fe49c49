"""Recall on public conversations: does the prompt hold the turns a question names as evidence?

    .venv/bin/python bench/bench_recall_public.py [--limit 40] [--dataset realmem ...]
        [--history-tokens 2000] [--semantic-url http://127.0.0.1:8767/v1] [--json]

The development figure we steer by (the synthetic ``bench/bench_recall.py`` stays as a
regression test). Datasets come from ``bench/data/recall_dev/`` (built by
``scripts/build_recall_devsets.py``; sources, commits and licences in that folder's
README): RealMem (English, user-assistant; committed), REALTALK (English, two people;
rebuilt locally) and MemDaily (Chinese, user messages; rebuilt locally). A set that is
not there is skipped with a note.

Every history is imported into a fresh ``AGENTTUI_HOME`` through the real stores
(``HistoryStore.append_many``: redaction and FTS triggers run), one conversation per
session, turns keeping their roles and timestamps. Each question is asked in a new,
empty conversation at the moment the dataset asks it (``now``), after the sessions it
follows (RealMem asks mid-history: its query's own session and later ones are not yet
imported). Systems, all at the same history budget per question (``[recall]
history_tokens``, default 2,000):

* ``default`` -- ``assemble(services, cid, question, now=…, mark_used=False,
  semantic=False)``: what ``agenttui ask --dry-run --json --new`` builds, default settings;
* ``semantic`` -- the same with ``[recall] semantic = true`` against ``--semantic-url``
  (every message embedded through agenttui's own backfill first; the question's ranking
  prepared before ``assemble``, as the chat does while the user pauses typing);
* ``bm25`` -- FTS5 BM25 over all imported turns, ``\\w+`` lower-cased words OR-combined;
* ``bm25-cjk2`` -- the same over ``\\w+`` words with CJK runs cut into character bigrams
  (Chinese sets only: the plain baseline cannot match inside a run);
* ``dense`` -- cosine over the vectors agenttui stored, the question embedded by the
  same endpoint (with ``--semantic-url`` only);
* ``recency`` -- the newest turns.

Baselines fill with ``recall_baselines.fill_best_first`` (retrieval's rule) and quote
``role (date): text`` lines; their prompt is v0's system prompt, the block and the question.

Figures per dataset and question type: ``recall`` -- the share of a question's evidence
turns present in the prompt, averaged over questions (a turn is present when its id is
among ``built.recalled[*].message_ids`` or the first 60 characters of its text appear in
a prompt message; baselines: the turns they quoted); evidence recall by the evidence
turn's role (user / assistant, over evidence turns); and median prompt and recalled
tokens. ``--limit N`` asks at most N questions per dataset and type (0 = all). MemDaily's
questions whose text is ``[ERRORQ]`` (its generator failed; 46 of 3,000) are left out.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agenttui.core.recall.embedding_client import EmbeddingClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_recall import PREFIX_CHARS, _norm, make_services, prompt_text  # noqa: E402
from recall_baselines import (  # noqa: E402
    Bm25Index,
    cjk_bigram_tokens,
    dense_order,
    fill_best_first,
    history_budget,
)

from agenttui.core.context.assemble import RECALL_INTRO, AssembledPrompt, assemble  # noqa: E402
from agenttui.core.context.prompt import build_system_prompt  # noqa: E402
from agenttui.core.models import Message  # noqa: E402
from agenttui.core.tokens import estimate_tokens, wire_tokens  # noqa: E402

DATA = ROOT / "bench" / "data" / "recall_dev"
DATASETS = ("realmem", "realtalk", "memdaily")
#: MemDaily's text for a question its generator failed to write (8 comparative and 38 aggregative
#: ones; their evidence is listed, but nothing asks for it): not asked, by any system
UNASKED = "[ERRORQ]"


@dataclass
class Turn:
    key: int
    tid: str
    message_id: int
    role: str
    day: str
    text: str  # as stored (after redaction)


@dataclass
class Outcome:
    found: list[bool]
    prompt_tokens: int
    recalled_tokens: int

    @property
    def recall(self) -> float:
        return sum(self.found) / len(self.found) if self.found else 1.0


@dataclass
class Row:
    dataset: str
    qtype: str
    qid: str
    roles: list[str]  # of the evidence turns
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    miss: dict | None = None  # with --misses: what default left out and what it quoted instead


def read_histories(name: str, data_dir: Path) -> list[dict] | None:
    for path in (data_dir / f"{name}.jsonl.gz", data_dir / "local" / f"{name}.jsonl.gz"):
        if path.exists():
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                return [json.loads(line) for line in handle if line.strip()]
    return None


def pick_questions(histories: list[dict], limit: int, types: list[str] | None = None) -> dict[str, list[dict]]:
    """At most ``limit`` questions per type (0 = all), by history.

    Taken round-robin over the histories (each one's first question of a type, then
    each one's second, ...), so a small limit still covers every history.
    """
    taken: Counter = Counter()
    picked: dict[str, list[dict]] = {}
    queue = []
    for order, history in enumerate(histories):
        seen: Counter = Counter()
        for question in history["questions"]:
            if types and question["type"] not in types or question["text"].strip() == UNASKED:
                continue
            queue.append((seen[question["type"]], order, history["history"], question))
            seen[question["type"]] += 1
    for _, _, name, question in sorted(queue, key=lambda item: item[:2]):
        if limit and taken[question["type"]] >= limit:
            continue
        taken[question["type"]] += 1
        picked.setdefault(name, []).append(question)
    for questions in picked.values():  # back in the history's own order
        questions.sort(key=lambda q: q["after_sessions"])
    return picked


# --------------------------------------------------------------------------
# One history in one profile
# --------------------------------------------------------------------------
class Profile:
    """A fresh profile the history is imported into, and the baselines' indexes beside it."""

    def __init__(self, home: Path, lang: str, semantic_url: str | None, history_tokens: int | None,
                 embed_batch: int = 8, misses: bool = False) -> None:
        self.misses = misses
        self.services = make_services(home, semantic_url, history_tokens)
        self.embed_batch = embed_batch
        self.semantic_url = semantic_url
        self.budget = history_budget(self.services.settings.recall.history_tokens)
        self.turns: list[Turn] = []
        self.by_tid: dict[str, Turn] = {}
        self.by_message: dict[int, int] = {}
        self.bm25 = Bm25Index()
        self.bm25_cjk = Bm25Index(cjk_bigram_tokens) if lang == "zh" else None
        self.dense_keys: list[int] = []
        self.dense_rows: list = []
        self._matrix: Any = None  # numpy rows of dense_keys' vectors
        self._client: EmbeddingClient | None = None

    def import_session(self, session: dict) -> None:
        cid = self.services.history.create_conversation().id
        given = [Message(role=t["role"], content=t["text"], created=datetime.fromisoformat(t["time"]))
                 for t in session["turns"]]
        stored = self.services.history.append_many(cid, given)
        new = []
        for source, message in zip(session["turns"], stored, strict=True):
            turn = Turn(len(self.turns), source["id"], message.id, message.role, source["time"][:10],
                        message.content or "")
            self.turns.append(turn)
            self.by_tid[turn.tid] = turn
            self.by_message[turn.message_id] = turn.key
            new.append((turn.key, turn.text))
        self.bm25.add(new)
        if self.bm25_cjk is not None:
            self.bm25_cjk.add(new)

    def embed_new(self) -> float:
        """Backfill through agenttui, then read the new vectors for the dense ranker; seconds."""
        import numpy as np

        from agenttui.core.recall.embeddings import from_blob
        from agenttui.core.recall.semantic import backfill, probe_languages, semantic_state

        started = time.perf_counter()
        # small batches: a CPU model embedding long turns must answer each request within
        # the backfill's per-request timeout
        result = backfill(self.services, batch=self.embed_batch)
        if result.error is not None:
            raise SystemExit(f"embedding backfill failed: {result.error}")
        # what the app's background worker does after a complete pass: which languages the
        # model reads (recall.language_probe), once per profile; the questions then find it
        probe_languages(semantic_state(self.services))
        seconds = time.perf_counter() - started
        last = max((self.turns[k].message_id for k in self.dense_keys), default=0)
        with contextlib.closing(sqlite3.connect(self.services.history.db_path)) as db:
            rows = db.execute("SELECT message_id, vector FROM embeddings WHERE message_id > ? "
                              "ORDER BY message_id", (last,)).fetchall()
        for message_id, blob in rows:
            if message_id in self.by_message:
                self.dense_keys.append(self.by_message[message_id])
                self.dense_rows.append(np.asarray(from_blob(blob), dtype=np.float32))
        self._matrix = np.vstack(self.dense_rows) if self.dense_rows else None
        return seconds

    def query_vector(self, text: str):
        from agenttui.core.recall.embedding_client import EmbeddingClient

        if self._client is None:
            self._client = EmbeddingClient(self.semantic_url, "sk-bench-local",
                                           self.services.settings.recall.embedding_model)
        return self._client.embed([text])[0]

    # ---- the systems -------------------------------------------------------
    def line(self, key: int) -> str:
        turn = self.turns[key]
        return f"{turn.role} ({turn.day}): {' '.join(turn.text.split())}"

    def baseline(self, keys: list[int], evidence: list[Turn], question: str, now: datetime) -> Outcome:
        chosen = fill_best_first(keys, self.line, self.budget)
        picked = set(chosen)
        block = ""
        if chosen:
            ordered = sorted(chosen, key=lambda k: self.turns[k].message_id)
            block = f"{RECALL_INTRO}\n<recalled>\n" + "\n".join(self.line(k) for k in ordered) + "\n</recalled>"
        parts = build_system_prompt(self.services.settings, [], "", None, now=now)
        messages = [{"role": "system", "content": parts.text}]
        if block:
            messages.append({"role": "system", "content": block})
        messages.append({"role": "user", "content": question})
        return Outcome([t.key in picked for t in evidence], wire_tokens(messages), estimate_tokens(block))

    def agenttui(self, question: str, evidence: list[Turn], now: datetime, semantic: bool) -> tuple[Outcome, list[str]]:
        services = self.services
        cid = services.history.create_conversation().id
        if semantic:
            _prepare(services, question)
        built = assemble(services, cid, question, now=now, mark_used=False, semantic=semantic)
        if not semantic:
            self.last_built = built
        return Outcome(evidence_found(built, evidence), built.tokens, built.recall_tokens), list(built.warnings)

    def ask(self, row: Row, question: dict) -> None:
        evidence = [self.by_tid[tid] for tid in question["evidence"]]
        text, now = question["text"], datetime.fromisoformat(question["now"])
        row.outcomes["default"], warnings = self.agenttui(text, evidence, now, semantic=False)
        row.warnings.extend(warnings)
        if self.semantic_url:
            row.outcomes["semantic"], warnings = self.agenttui(text, evidence, now, semantic=True)
            row.warnings.extend(warnings)
        row.outcomes["bm25"] = self.baseline(self.bm25.search(text), evidence, text, now)
        if self.bm25_cjk is not None:
            row.outcomes["bm25-cjk2"] = self.baseline(self.bm25_cjk.search(text), evidence, text, now)
        if self.semantic_url and self._matrix is not None:
            order = dense_order(self.query_vector(text), self.dense_keys, self._matrix)
            row.outcomes["dense"] = self.baseline(order, evidence, text, now)
        newest = sorted(range(len(self.turns)), key=lambda k: -self.turns[k].message_id)
        row.outcomes["recency"] = self.baseline(newest, evidence, text, now)
        if self.misses and not all(row.outcomes["default"].found):
            row.miss = self.describe_miss(question, evidence, row)

    def describe_miss(self, question: dict, evidence: list[Turn], row: Row) -> dict:
        """What default left out, where the baselines ranked it, and what default quoted instead."""
        ranks = {name: index.search(question["text"]) for name, index in
                 (("bm25", self.bm25), ("bm25-cjk2", self.bm25_cjk)) if index is not None}
        by_message = self.by_message
        quoted = [[self.turns[by_message[m]].text[:80] for m in snippet.message_ids if m in by_message]
                  for snippet in self.last_built.recalled]
        return {
            "qid": question["qid"], "type": question["type"], "question": question["text"],
            "units": ["".join(u.split()) for u in _cjk_units(question["text"])],
            "evidence": [{"text": t.text, "role": t.role, "found": got,
                          **{f"rank_{n}": (r.index(t.key) if t.key in r else None) for n, r in ranks.items()},
                          **{f"found_{s}": o.found[i] for s, o in row.outcomes.items() if s != "default"}}
                         for i, (t, got) in enumerate(zip(evidence, row.outcomes["default"].found, strict=True))],
            "quoted": quoted,
        }

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        self.services.history.close()


def _prepare(services, text: str) -> None:
    """The question's embedding and ranking, ready before assemble (module doc)."""
    from agenttui.core.recall.semantic import prepare

    ready = prepare(services, text)
    if ready is not None:
        with contextlib.suppress(Exception):  # the failure is assemble's to report (a warning)
            ready.result(timeout=60)


def _cjk_units(text: str) -> tuple[str, ...]:
    """The CJK units recall searches for ``text`` (as ``retrieval._lexical`` prepares it)."""
    from agenttui.core.recall.cjk import query_units
    from agenttui.core.recall.text import without_current
    from agenttui.core.recall.turn_shape import asking_first, without_tag_questions

    return query_units(asking_first(without_current(without_tag_questions(text))))


def evidence_found(built: AssembledPrompt, evidence: list[Turn]) -> list[bool]:
    recalled_ids = {mid for snippet in built.recalled for mid in snippet.message_ids}
    text = prompt_text(built)
    found = []
    for turn in evidence:
        prefix = _norm(turn.text)[:PREFIX_CHARS]
        found.append(turn.message_id in recalled_ids or (bool(prefix) and prefix in text))
    return found


def run_history(history: dict, questions: list[dict], semantic_url: str | None,
                history_tokens: int | None, timing: defaultdict[str, float], embed_batch: int = 8,
                misses: bool = False) -> list[Row]:
    rows = []
    asked_at: dict[int, list[dict]] = defaultdict(list)
    for question in questions:
        asked_at[question["after_sessions"]].append(question)
    last = max(asked_at)
    with tempfile.TemporaryDirectory(prefix="agenttui-recall-public-") as tmp:
        profile = Profile(Path(tmp) / "home", history["lang"], semantic_url, history_tokens, embed_batch, misses)
        try:
            for index in range(last + 1):
                if asked_at.get(index):
                    if semantic_url:
                        timing["embed_s"] += profile.embed_new()
                    started = time.perf_counter()
                    for question in asked_at[index]:
                        row = Row(history["dataset"], question["type"], question["qid"],
                                  [profile.by_tid[t].role for t in question["evidence"]])
                        profile.ask(row, question)
                        rows.append(row)
                    timing["ask_s"] += time.perf_counter() - started
                if index < last:
                    started = time.perf_counter()
                    profile.import_session(history["sessions"][index])
                    timing["import_s"] += time.perf_counter() - started
            timing["turns"] += len(profile.turns)
        finally:
            profile.close()
    return rows


# --------------------------------------------------------------------------
# Summary
# --------------------------------------------------------------------------
def summarise(rows: list[Row]) -> dict:
    systems = [s for s in ("default", "semantic", "bm25", "bm25-cjk2", "dense", "recency")
               if any(s in r.outcomes for r in rows)]
    groups: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        groups[row.qtype].append(row)
    groups = dict(sorted(groups.items()))
    groups["overall"] = rows
    out: dict = {"systems": systems, "types": {}, "roles": {}, "tokens": {}}
    for name, members in groups.items():
        out["types"][name] = {"n": len(members), **{
            s: round(statistics.fmean(r.outcomes[s].recall for r in members), 3) for s in systems}}
    for role in ("user", "assistant"):
        pairs = [(r, i) for r in rows for i, got in enumerate(r.roles) if got == role]
        if pairs:
            out["roles"][role] = {"n": len(pairs), **{
                s: round(statistics.fmean(r.outcomes[s].found[i] for r, i in pairs), 3) for s in systems}}
    for s in systems:
        out["tokens"][s] = {"prompt": statistics.median(r.outcomes[s].prompt_tokens for r in rows),
                            "recalled": statistics.median(r.outcomes[s].recalled_tokens for r in rows)}
    return out


def table(name: str, summary: dict, info: str) -> str:
    systems = summary["systems"]
    width = max(28, *(len(k) + 2 for k in summary["types"]))
    head = f"{'question type':<{width}} {'n':>5}  " + " ".join(f"{s:>9}" for s in systems)
    lines = [f"{name}: {info}", head, "-" * len(head)]
    for kind, entry in summary["types"].items():
        lines.append(f"{kind:<{width}} {entry['n']:>5}  " + " ".join(f"{entry[s]:>9.3f}" for s in systems))
    lines.append("")
    for role, entry in summary["roles"].items():
        label = f"evidence in {role} turns"
        lines.append(f"{label:<{width}} {entry['n']:>5}  " + " ".join(f"{entry[s]:>9.3f}" for s in systems))
    for what in ("prompt", "recalled"):
        label = f"{what} tokens (median)"
        lines.append(f"{label:<{width}} {'':>5}  "
                     + " ".join(f"{summary['tokens'][s][what]:>9.0f}" for s in systems))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DATA)
    parser.add_argument("--dataset", action="append", choices=DATASETS, default=None)
    parser.add_argument("--limit", type=int, default=40, help="questions per dataset and type (0 = all)")
    parser.add_argument("--history-tokens", type=int, default=None,
                        help="[recall] history_tokens for agenttui and the baselines (default: the setting's)")
    parser.add_argument("--semantic-url", metavar="URL", default=None,
                        help="a /v1 endpoint serving embeddings (bench/minilm_embeddings_server.py): adds "
                             "the semantic and dense columns")
    parser.add_argument("--embed-batch", type=int, default=8,
                        help="texts per embeddings request in the backfill (a slow CPU model needs few)")
    parser.add_argument("--type", action="append", default=None, metavar="TYPE",
                        help="only questions of this type (repeatable)")
    parser.add_argument("--misses", type=Path, default=None, metavar="PATH",
                        help="write default's misses as JSON lines: the question, each evidence turn "
                             "(found or not, its rank in each BM25 baseline) and what default quoted")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report: dict = {}
    for name in args.dataset or DATASETS:
        histories = read_histories(name, args.data_dir)
        if histories is None:
            print(f"{name}: not built (see bench/data/recall_dev/README.md); skipped\n", file=sys.stderr)
            continue
        picked = pick_questions(histories, args.limit, args.type)
        started = time.perf_counter()
        timing: defaultdict[str, float] = defaultdict(float)
        rows: list[Row] = []
        for history in histories:
            if history["history"] in picked:
                rows.extend(run_history(history, picked[history["history"]], args.semantic_url,
                                        args.history_tokens, timing, args.embed_batch,
                                        args.misses is not None))
        if args.misses is not None:
            with args.misses.open("a", encoding="utf-8") as out:
                for row in rows:
                    if row.miss is not None:
                        out.write(json.dumps(row.miss, ensure_ascii=False) + "\n")
        warned = Counter(w for r in rows for w in r.warnings)
        summary = summarise(rows)
        info = (f"{len(picked)} histories, {timing['turns']:.0f} turns imported, {len(rows)} questions; "
                f"import {timing['import_s']:.1f} s, embed {timing['embed_s']:.1f} s, "
                f"ask {timing['ask_s']:.1f} s, total {time.perf_counter() - started:.1f} s")
        report[name] = {"summary": summary, "info": info, "warnings": dict(warned)}
        if not args.json:
            print(table(name, summary, info))
            for warning, count in warned.most_common(3):
                print(f"  warning x{count}: {warning[:150]}")
            print(flush=True)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
