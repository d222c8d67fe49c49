"""Recall ablation on the public dev sets: each ranking rule switched off alone, same profiles.

    .venv/bin/python bench/bench_recall_ablation.py [--limit 100] [--dataset realtalk ...]
        [--rules all,no-neighbours,rrf-60]

Every history is imported once (``bench_recall_public.run_history``) and each question
is asked once per variant, so the columns differ only by the rule. A variant replaces
one name of :mod:`agenttui.core.recall.retrieval` for the question and puts it back
(the lexical cache is cleared around it). A rule earns its place when switching it off
costs recall on some set and type and gains on none beyond noise
(docs/recall-benchmark.md, "Ablation").
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

import bench_recall_public as public  # noqa: E402

from agenttui.core.recall import retrieval  # noqa: E402

#: rule name -> the retrieval names it replaces, as that rule switched off
VARIANTS: dict[str, dict[str, object]] = {
    "all": {},
    "no-neighbours": {"with_neighbour": lambda history, snippet, request, terms: snippet},
    "no-greeting-skip": {"contentless": lambda text: False},
    "no-tag-cut": {"without_tag_questions": lambda text: text},
    "no-asking-first": {"asking_first": lambda text: text},
    "no-date-spans": {"read_time": lambda query, today: None},
    "no-statement-list": {"_in_first_person": lambda text: False},
    "no-feedback": {"FEEDBACK_NAMES": 0},
    "no-related": {"related_terms": lambda words, known: ()},
    "no-recency": {"RECENCY_BONUS": 0.0, "CURRENT_BONUS": 0.0},
    "rrf-60": {"RRF_K": 60},
}


def switched(rule: str) -> Callable[[], None]:
    """Apply ``rule``'s replacements; returns what puts the originals back."""
    replaced = VARIANTS[rule]
    before = {name: getattr(retrieval, name) for name in replaced}
    for name, value in replaced.items():
        setattr(retrieval, name, value)
    retrieval._lexical_cache.clear()

    def restore() -> None:
        for name, value in before.items():
            setattr(retrieval, name, value)
        retrieval._lexical_cache.clear()
    return restore


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=100, help="questions per dataset and type (0 = all)")
    parser.add_argument("--dataset", action="append", choices=public.DATASETS, default=None)
    parser.add_argument("--rules", default=",".join(VARIANTS), help="comma-separated: " + ", ".join(VARIANTS))
    args = parser.parse_args(argv)
    rules = [r for r in args.rules.split(",") if r]
    unknown = [r for r in rules if r not in VARIANTS]
    if unknown:
        parser.error(f"unknown rules: {', '.join(unknown)}")

    def ask(profile: public.Profile, row: public.Row, question: dict) -> None:
        evidence = [profile.by_tid[tid] for tid in question["evidence"]]
        text, now = question["text"], datetime.fromisoformat(question["now"])
        for rule in rules:
            restore = switched(rule)
            try:
                row.outcomes[rule], _ = profile.agenttui(text, evidence, now, semantic=False)
            finally:
                restore()
        row.outcomes["bm25"] = profile.baseline(profile.bm25.search(text), evidence, text, now)
        if profile.bm25_cjk is not None:
            row.outcomes["bm25-cjk2"] = profile.baseline(profile.bm25_cjk.search(text), evidence, text, now)

    public.Profile.ask = ask  # type: ignore[method-assign]
    for name in args.dataset or public.DATASETS:
        histories = public.read_histories(name, public.DATA)
        if histories is None:
            print(f"{name}: not built (see bench/data/recall_dev/README.md); skipped\n", file=sys.stderr)
            continue
        picked = public.pick_questions(histories, args.limit)
        started = time.perf_counter()
        timing: defaultdict[str, float] = defaultdict(float)
        rows: list[public.Row] = []
        for history in histories:
            if history["history"] in picked:
                rows.extend(public.run_history(history, picked[history["history"]], None, None, timing))
        systems = [*rules, "bm25", *(["bm25-cjk2"] if any("bm25-cjk2" in r.outcomes for r in rows) else [])]
        groups: dict[str, list[public.Row]] = defaultdict(list)
        for row in rows:
            groups[row.qtype].append(row)
        groups = {**dict(sorted(groups.items())), "overall": rows}
        print(f"{name}: {len(rows)} questions, {time.perf_counter() - started:.0f} s")
        print(f"{'':26}{'n':>6} " + "".join(f"{s[:16]:>17}" for s in systems))
        for kind, members in groups.items():
            print(f"{kind[:26]:26}{len(members):>6} " + "".join(
                f"{statistics.fmean(r.outcomes[s].recall for r in members):>17.3f}" for s in systems))
        for role in ("user", "assistant"):
            pairs = [(r, i) for r in rows for i, got in enumerate(r.roles) if got == role]
            if pairs:
                print(f"{'evidence in ' + role:26}{len(pairs):>6} " + "".join(
                    f"{statistics.fmean(r.outcomes[s].found[i] for r, i in pairs):>17.3f}" for s in systems))
        print(flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
