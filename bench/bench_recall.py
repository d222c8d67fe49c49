"""Recall benchmark: does the prompt hold what the question needs? (issue "Recall", item 6)

    .venv/bin/python bench/bench_recall.py [--sessions 240] [--messages-per-session 84]
        [--notes 2000] [--seed 7] [--per-kind 0] [--failures 10] [--json]

One user's long history is generated (bench/recall_corpus.py: 240 sessions,
20,160 messages over 18 months in English and Indonesian, 2,000 memory
notes, ~180 questions of six kinds with planted facts and distractors) and
loaded into a fresh AGENTTUI_HOME through the real stores: conversations with
``HistoryStore.append_many`` (redaction and FTS triggers run), notes with
``MemoryStore.add_note`` (through the write gate). Every question is then
asked in a new, empty conversation, "today" being 2026-11-23:

* ``agenttui`` -- ``context.assemble(services, new_cid, question, now=today,
  mark_used=False)``, default settings;
* ``bm25`` -- baseline: its own SQLite FTS5 table (``unicode61``, no stemming,
  no stop words) over all user/assistant messages, the question's words
  OR-combined, best ``bm25()`` first;
* ``recency`` -- baseline: the most recent messages of all conversations.

Both baselines get the same token budget for retrieved history as agenttui
(``[recall] history_tokens`` minus the block's intro, counted with
``estimate_tokens`` of each quoted line) and the system prompt v0 had: soul,
today's date and the 20 most recent notes.

Figures, per question kind and overall:

* ``recall`` -- evidence recall: the share of a question's needed evidence
  present in the prompt, averaged over questions. A message is present when
  its id is among ``built.recalled[*].message_ids`` or the first 60
  characters of its text (whitespace collapsed) appear in a prompt message; a
  note when its id is in ``built.injected_ids`` or a recalled snippet's
  ``item_id``. Baselines: the ids they quoted, the notes they injected.
* ``full`` -- share of questions with *all* their evidence present.
* ``prompt`` / ``retrieved`` -- median tokens of the whole request
  (``built.tokens``, ``wire_tokens`` for the baselines) and of the block of
  retrieved history (``built.recall_tokens``).
* ``ratio agenttui/bm25`` -- overall recall of agenttui over that of bm25.
* ``assemble`` ms -- median and p95 of each ``assemble`` call (after one
  warm-up call), beside the bm25 baseline's query + fill in the same run:
  CPU time of this process (``time.process_time``), the figure to compare
  across runs, and wall time, which on a shared machine mostly measures the
  load (at load 10 on 2 cores a 30 ms CPU call takes ~150-250 ms of wall);
  the load average is printed with them.

About 20 s at the default size on 2 cores, most of it adding 2,000 notes
through the gate (each add re-reads and rewrites its scope's file); the
load times are printed.

``--semantic-url URL`` measures ``[recall] semantic = true``: every message
is embedded through agenttui's own backfill against that endpoint first
(``bench/minilm_embeddings_server.py`` serves a real model offline), then the
same questions are asked; the baselines do not change. Each question is
embedded and ranked before its timed ``assemble`` (``semantic.prepare``, as
the chat does while the user pauses typing): recall waits for a ranking only
``retrieval.SEMANTIC_WAIT``, and this measures the fused ranking, not timing.

``--failures N`` lists N questions where agenttui missed evidence: the
question, the missing evidence and what was recalled instead. The corpus is
written for this benchmark; LoCoMo, LongMemEval and MSC are held out.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from recall_baselines import Bm25Index, fill_best_first, history_budget  # noqa: E402
from recall_corpus import Corpus, Question, generate  # noqa: E402

from agenttui.core.context.assemble import RECALL_INTRO, AssembledPrompt, assemble  # noqa: E402
from agenttui.core.context.prompt import build_system_prompt  # noqa: E402
from agenttui.core.models import Message  # noqa: E402
from agenttui.core.tokens import estimate_tokens, wire_tokens  # noqa: E402

SYSTEMS = ("agenttui", "bm25", "recency")
PREFIX_CHARS = 60
BASELINE_NOTES = 20  # v0 injected the 20 most recent notes


@dataclass
class Loaded:
    """The corpus as stored: ids and (redacted) texts by corpus key."""

    message_ids: list[int]
    texts: list[str]
    roles: list[str]
    days: list[str]
    note_ids: list[str]
    history_seconds: float
    notes_seconds: float
    note_status: dict[str, int]
    redacted: int  # messages the store changed (redaction)


@dataclass
class Outcome:
    system: str
    found: list[bool]  # per needed evidence item (messages, then notes)
    prompt_tokens: int
    retrieved_tokens: int
    recalled: list[str] = field(default_factory=list)  # short lines, for the failure list

    @property
    def recall(self) -> float:
        return sum(self.found) / len(self.found) if self.found else 1.0


# --------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------
def make_services(home: Path, semantic_url: str | None = None, history_tokens: int | None = None):
    from agenttui.bootstrap import build_services
    from agenttui.core.config.paths import Paths

    environ = {"AGENTTUI_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    if semantic_url:
        environ.update(OPENAI_BASE_URL=semantic_url, OPENAI_API_KEY="sk-bench-local")
    services = build_services(paths=Paths.from_env(environ), cwd=home, environ=environ)
    if semantic_url:
        services.settings.recall.semantic = True
    if history_tokens is not None:
        services.settings.recall.history_tokens = history_tokens
    return services


def embed_all(services) -> float:
    """Backfill every message's vector through agenttui's own pipeline; returns seconds."""
    from agenttui.core.recall.semantic import backfill

    started = time.perf_counter()
    result = backfill(services)
    if result.error is not None:
        raise SystemExit(f"embedding backfill failed: {result.error}")
    return time.perf_counter() - started


def load(services, corpus: Corpus) -> Loaded:
    ids, texts, roles, days = [], [], [], []
    redacted = 0
    started = time.perf_counter()
    for session in corpus.sessions:
        cid = services.history.create_conversation().id
        given = [Message(role=m.role, content=m.text, created=m.created) for m in session.messages]
        stored = services.history.append_many(cid, given)
        for original, message in zip(session.messages, stored, strict=True):
            ids.append(message.id)
            texts.append(message.content or "")
            roles.append(message.role)
            days.append(original.created.date().isoformat())
            redacted += (message.content or "") != original.text
    history_seconds = time.perf_counter() - started
    note_ids: list[str] = []
    status: dict[str, int] = {}
    started = time.perf_counter()
    for note in corpus.notes:
        result = services.memory.add_note(note.text, scope=note.scope)
        status[result.status] = status.get(result.status, 0) + 1
        note_ids.append(result.item.id if result.item is not None else "")
    notes_seconds = time.perf_counter() - started
    return Loaded(ids, texts, roles, days, note_ids, history_seconds, notes_seconds, status, redacted)


# --------------------------------------------------------------------------
# Evidence
# --------------------------------------------------------------------------
def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def prompt_text(built: AssembledPrompt) -> str:
    parts = []
    for message in built.messages:
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(p.get("text", "") for p in content if isinstance(p, dict))
    return _norm("\n".join(parts))


def evidence_found(built: AssembledPrompt, question: Question, loaded: Loaded) -> list[bool]:
    """Per needed evidence item: is it in the prompt (see module doc)?"""
    recalled_ids = {mid for snippet in built.recalled for mid in snippet.message_ids}
    item_ids = set(built.injected_ids) | {s.item_id for s in built.recalled if s.item_id}
    text = prompt_text(built)
    found = []
    for key in question.evidence_messages:
        prefix = _norm(loaded.texts[key])[:PREFIX_CHARS]
        found.append(loaded.message_ids[key] in recalled_ids or (bool(prefix) and prefix in text))
    found.extend(loaded.note_ids[key] in item_ids for key in question.evidence_notes)
    return found


def _describe(built: AssembledPrompt) -> list[str]:
    lines = []
    for snippet in built.recalled:
        turn = next((t for t in snippet.turns if t.matched), None)
        body = turn.text if turn else snippet.text
        lines.append(f"[{snippet.source} {snippet.date.date()}] {body[:110]}")
    return lines


# --------------------------------------------------------------------------
# Baselines
# --------------------------------------------------------------------------
class Baselines:
    """bm25 and recency over the stored messages, with v0's system prompt."""

    def __init__(self, services, corpus: Corpus, loaded: Loaded) -> None:
        self.loaded = loaded
        self.by_id = {mid: key for key, mid in enumerate(loaded.message_ids)}
        self.text_budget = history_budget(services.settings.recall.history_tokens)
        self.index = Bm25Index()
        self.index.add(zip(loaded.message_ids, loaded.texts, strict=True))
        recent_ids = [i for i in loaded.note_ids if i][-BASELINE_NOTES:]
        items = {i.id: i for i in services.memory.items("all", include_expired=False)}
        settings = replace(services.settings, memory=replace(services.settings.memory,
                                                             inject_notes=BASELINE_NOTES))
        self.parts = build_system_prompt(settings, [items[i] for i in recent_ids if i in items], "",
                                         None, now=corpus.today)
        newest_first = sorted(range(len(loaded.message_ids)), key=lambda k: -loaded.message_ids[k])
        self.recency_keys = self._fill(newest_first)

    def _line(self, key: int) -> str:
        loaded = self.loaded
        return f"{loaded.roles[key]} ({loaded.days[key]}): {' '.join(loaded.texts[key].split())}"

    def _fill(self, keys) -> list[int]:
        return fill_best_first(keys, self._line, self.text_budget)

    def bm25_keys(self, question: str) -> list[int]:
        return self._fill(self.by_id[mid] for mid in self.index.search(question))

    def outcome(self, system: str, keys: list[int], question: Question) -> Outcome:
        chosen = set(keys)
        found = [key in chosen for key in question.evidence_messages]
        found.extend(self.loaded.note_ids[k] in self.parts.injected_ids for k in question.evidence_notes)
        block = ""
        if keys:
            ordered = sorted(keys, key=lambda k: self.loaded.message_ids[k])
            block = f"{RECALL_INTRO}\n<recalled>\n" + "\n".join(self._line(k) for k in ordered) + "\n</recalled>"
        messages = [{"role": "system", "content": self.parts.text}]
        if block:
            messages.append({"role": "system", "content": block})
        messages.append({"role": "user", "content": question.text})
        return Outcome(system, found, wire_tokens(messages), estimate_tokens(block),
                       [self._line(k)[:120] for k in keys[:8]])


# --------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------
def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] if ordered else 0.0
    return {"median_ms": round(statistics.median(ordered) * 1000, 2) if ordered else 0.0,
            "p95_ms": round(p95 * 1000, 2)}


def _prepare(services, text: str) -> None:
    """The question's embedding and ranking, ready before the turn (module doc)."""
    from agenttui.core.recall.semantic import prepare

    ready = prepare(services, text)
    if ready is not None:
        with contextlib.suppress(Exception):  # the failure is assemble's to report (a warning)
            ready.result(timeout=30)


def evaluate(services, corpus: Corpus, loaded: Loaded) -> tuple[list[dict], dict]:
    baselines = Baselines(services, corpus, loaded)
    warm = services.history.create_conversation().id
    assemble(services, warm, "warm-up question about nothing in particular", now=corpus.today, mark_used=False)
    rows, assemble_t, bm25_t, assemble_cpu, bm25_cpu = [], [], [], [], []
    for question in corpus.questions:
        cid = services.history.create_conversation().id
        if services.settings.recall.semantic:
            _prepare(services, question.text)
        started, cpu = time.perf_counter(), time.process_time()
        built = assemble(services, cid, question.text, now=corpus.today, mark_used=False)
        assemble_t.append(time.perf_counter() - started)
        assemble_cpu.append(time.process_time() - cpu)
        started, cpu = time.perf_counter(), time.process_time()
        bm25 = baselines.bm25_keys(question.text)
        bm25_t.append(time.perf_counter() - started)
        bm25_cpu.append(time.process_time() - cpu)
        outcomes = {
            "agenttui": Outcome("agenttui", evidence_found(built, question, loaded), built.tokens,
                                built.recall_tokens, _describe(built)),
            "bm25": baselines.outcome("bm25", bm25, question),
            "recency": baselines.outcome("recency", baselines.recency_keys, question),
        }
        rows.append({"question": question, "outcomes": outcomes, "warnings": built.warnings})
    # CPU is what the code costs; wall adds the waits of a shared machine (module doc)
    timing = {"assemble": _ms(assemble_cpu), "bm25": _ms(bm25_cpu),
              "assemble_wall": _ms(assemble_t), "bm25_wall": _ms(bm25_t),
              "load_average": [round(x, 2) for x in os.getloadavg()]}
    a, b = timing["assemble"]["median_ms"], timing["bm25"]["median_ms"]
    timing["ratio_assemble_vs_bm25"] = round(a / b, 1) if b else None
    return rows, timing


def summarise(rows: list[dict]) -> dict[str, dict]:
    groups: dict[str, list[dict]] = {}
    for row in rows:
        groups.setdefault(row["question"].kind, []).append(row)
    groups["overall"] = rows
    summary = {}
    for kind, members in groups.items():
        entry: dict = {"n": len(members)}
        for system in SYSTEMS:
            outs = [r["outcomes"][system] for r in members]
            entry[system] = {
                "recall": round(statistics.fmean(o.recall for o in outs), 3),
                "full": round(statistics.fmean(o.recall == 1.0 for o in outs), 3),
                "prompt_tokens": statistics.median(o.prompt_tokens for o in outs),
                "retrieved_tokens": statistics.median(o.retrieved_tokens for o in outs),
            }
        bm25 = entry["bm25"]["recall"]
        entry["ratio_agenttui_bm25"] = round(entry["agenttui"]["recall"] / bm25, 2) if bm25 else None
        summary[kind] = entry
    return summary


def failures(rows: list[dict], corpus: Corpus, loaded: Loaded, limit: int) -> list[dict]:
    """agenttui's misses, taken from each kind in turn (so a short list covers every kind)."""
    by_kind: dict[str, list[dict]] = {}
    for row in rows:
        question: Question = row["question"]
        outcome = row["outcomes"]["agenttui"]
        if outcome.recall == 1.0:
            continue
        needed = [("message", loaded.texts[k]) for k in question.evidence_messages]
        needed += [("note", corpus.notes[k].text) for k in question.evidence_notes]
        missing = [f"[{kind}] {text}" for (kind, text), ok in zip(needed, outcome.found, strict=True) if not ok]
        by_kind.setdefault(question.kind, []).append({
            "qid": question.qid, "question": question.text, "answer": question.answer,
            "missing": missing, "recalled": outcome.recalled[:6],
            "bm25_found": row["outcomes"]["bm25"].recall})
    out = [miss for turn in itertools.zip_longest(*by_kind.values()) for miss in turn if miss]
    return out[:limit] if limit else out


def _table(summary: dict[str, dict]) -> str:
    head = (f"{'kind':<12} {'n':>3}  {'recall agenttui/bm25/recency':>29}  {'full a/b/r':>16}  "
            f"{'prompt tok a/b/r':>18}  {'retrieved a/b/r':>17}  {'a/bm25':>6}")
    lines = [head, "-" * len(head)]
    for kind, e in summary.items():
        recall = "/".join(f"{e[s]['recall']:.2f}" for s in SYSTEMS)
        full = "/".join(f"{e[s]['full']:.2f}" for s in SYSTEMS)
        prompt = "/".join(f"{e[s]['prompt_tokens']:.0f}" for s in SYSTEMS)
        got = "/".join(f"{e[s]['retrieved_tokens']:.0f}" for s in SYSTEMS)
        ratio = f"{e['ratio_agenttui_bm25']:.2f}" if e["ratio_agenttui_bm25"] is not None else "-"
        lines.append(f"{kind:<12} {e['n']:>3}  {recall:>29}  {full:>16}  {prompt:>18}  {got:>17}  {ratio:>6}")
    return "\n".join(lines)


def run(sessions: int, messages_per_session: int, notes: int, seed: int, per_kind: int = 0,
        home: Path | None = None, failure_limit: int = 10, semantic_url: str | None = None,
        history_tokens: int | None = None) -> dict:
    started = time.perf_counter()
    corpus = generate(sessions=sessions, messages_per_session=messages_per_session, notes=notes,
                      seed=seed, per_kind=per_kind)
    generate_seconds = time.perf_counter() - started
    with tempfile.TemporaryDirectory(prefix="agenttui-recall-") as tmp:
        services = make_services(home or Path(tmp) / "home", semantic_url, history_tokens)
        loaded = load(services, corpus)
        embed_seconds = embed_all(services) if semantic_url else 0.0
        rows, timing = evaluate(services, corpus, loaded)
        services.history.close()
    return {
        "sizes": {"sessions": len(corpus.sessions), "messages": len(loaded.message_ids),
                  "notes": len(corpus.notes), "questions": len(corpus.questions), "seed": seed,
                  "today": corpus.today.date().isoformat()},
        "load": {"generate_s": round(generate_seconds, 2), "history_s": round(loaded.history_seconds, 2),
                 "notes_s": round(loaded.notes_seconds, 2), "note_status": loaded.note_status,
                 "messages_changed_by_redaction": loaded.redacted,
                 "embed_s": round(embed_seconds, 1), "semantic": bool(semantic_url)},
        "summary": summarise(rows),
        "timing": timing,
        "failures": failures(rows, corpus, loaded, failure_limit),
        "rows": rows,
    }


def _jsonable(result: dict) -> dict:
    out = {k: v for k, v in result.items() if k != "rows"}
    out["questions"] = [
        {"qid": r["question"].qid, "kind": r["question"].kind, "lang": r["question"].lang,
         "question": r["question"].text, "answer": r["question"].answer,
         **{s: {"recall": round(o.recall, 3), "prompt_tokens": o.prompt_tokens,
                "retrieved_tokens": o.retrieved_tokens} for s, o in r["outcomes"].items()}}
        for r in result["rows"]
    ]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=240)
    parser.add_argument("--messages-per-session", type=int, default=84)
    parser.add_argument("--notes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--per-kind", type=int, default=0, help="questions per kind (0 = all)")
    parser.add_argument("--failures", type=int, default=10, help="agenttui misses to list (0 = all)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--semantic-url", metavar="URL", default=None,
                        help="turn [recall] semantic on against this /v1 endpoint (see "
                             "bench/minilm_embeddings_server.py); every message is embedded first")
    parser.add_argument("--history-tokens", type=int, default=None,
                        help="[recall] history_tokens for agenttui and the baselines (default: the setting's)")
    args = parser.parse_args(argv)
    result = run(args.sessions, args.messages_per_session, args.notes, args.seed, args.per_kind,
                 failure_limit=args.failures, semantic_url=args.semantic_url,
                 history_tokens=args.history_tokens)
    if args.json:
        print(json.dumps(_jsonable(result), indent=2, ensure_ascii=False))
        return 0
    sizes, load_ = result["sizes"], result["load"]
    print(f"corpus: {sizes['sessions']} sessions, {sizes['messages']} messages, {sizes['notes']} notes, "
          f"{sizes['questions']} questions (seed {sizes['seed']}, today {sizes['today']})")
    print(f"generate {load_['generate_s']} s, load history {load_['history_s']} s, "
          f"notes through the gate {load_['notes_s']} s {load_['note_status']}, "
          f"messages changed by redaction: {load_['messages_changed_by_redaction']}"
          + (f", embedding backfill {load_['embed_s']} s ([recall] semantic on)" if load_["semantic"] else ""))
    print()
    print(_table(result["summary"]))
    timing = result["timing"]
    print()
    print(f"assemble() CPU: median {timing['assemble']['median_ms']} ms, p95 {timing['assemble']['p95_ms']} ms; "
          f"bm25 baseline query+fill: median {timing['bm25']['median_ms']} ms, p95 {timing['bm25']['p95_ms']} ms; "
          f"ratio {timing['ratio_assemble_vs_bm25']}")
    wall = timing["assemble_wall"]
    print(f"  wall: assemble median {wall['median_ms']} ms, p95 {wall['p95_ms']} ms; "
          f"bm25 median {timing['bm25_wall']['median_ms']} ms; load average "
          + ", ".join(map(str, timing["load_average"])))
    if result["failures"]:
        print("\nagenttui misses:")
        for miss in result["failures"]:
            print(f"\n{miss['qid']}: {miss['question']}  "
                  f"(answer: {miss['answer']}; bm25 recall {miss['bm25_found']:.2f})")
            for line in miss["missing"]:
                print(f"  needed   {line[:160]}")
            for line in miss["recalled"] or ["(nothing recalled)"]:
                print(f"  recalled {line[:160]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
