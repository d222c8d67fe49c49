"""Every prompt of the public recall dev sets is the same with the app's postings as without them.

    .venv/bin/python bench/check_postings_prompts.py realtalk|realmem|memdaily [--limit N] [--digests FILE]

The app ranks recall from postings it keeps in memory (core/history/bm25_postings.py);
a one-shot command (``agenttui ask --dry-run``) ranks with SQLite. This runs
bench/bench_recall_public.py's histories and questions (each asked between the imports of
its sessions, so the postings meet appended messages as the app does) and builds every
question's prompt twice -- SQLite ranking, then the postings (built at the first question)
-- with recall's caches emptied before each, and counts the prompts that differ. Exit 1
when any does. Default settings, no embeddings.

``--digests FILE`` writes one line per question (its id and the SHA-256 of the prompt built
from the postings), so two trees' prompts can be compared: a change meant only to be
faster must leave the file byte for byte the same.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

import bench_recall_public as public  # noqa: E402

from agenttui.core.context.assemble import assemble  # noqa: E402
from agenttui.core.history.term_counts import TermCountCache  # noqa: E402
from agenttui.core.recall import retrieval  # noqa: E402

DATA = {"realmem": ROOT / "bench/data/recall_dev", "realtalk": ROOT / "bench/data/recall_dev/local",
        "memdaily": ROOT / "bench/data/recall_dev/local"}
counts: collections.Counter[str] = collections.Counter()
digests: list[str] = []


def _fresh(services) -> None:
    """Recall's caches emptied: the second build must rank again, not find the first's result."""
    retrieval._lexical_cache.clear()
    services.history._term_counts = TermCountCache()


def _both(self, question, evidence, now, semantic):
    services = self.services
    cid = services.history.create_conversation().id
    _fresh(services)
    by_sqlite = assemble(services, cid, question, now=now, mark_used=False, semantic=False)
    if not services.history.ranking_index_ready:
        services.history.keep_ranking_index()
    _fresh(services)
    by_postings = assemble(services, cid, question, now=now, mark_used=False, semantic=False)
    counts["from postings" if services.history.ranking_index_ready else "postings not ready"] += 1
    counts["same" if by_sqlite.messages == by_postings.messages else "different"] += 1
    self.last_built = by_postings
    wire = json.dumps(by_postings.messages, ensure_ascii=False, sort_keys=True, default=str)
    digests.append(f"{len(digests)} {hashlib.sha256(wire.encode()).hexdigest()}")
    return (public.Outcome(public.evidence_found(by_postings, evidence), by_postings.tokens,
                           by_postings.recall_tokens), list(by_postings.warnings))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", choices=sorted(DATA))
    parser.add_argument("--limit", type=int, default=0, help="questions per type (0: all)")
    parser.add_argument("--digests", type=Path, default=None, metavar="FILE",
                        help="write each prompt's SHA-256, one line per question (module doc)")
    args = parser.parse_args()
    histories = public.read_histories(args.dataset, DATA[args.dataset])
    if histories is None:
        print(f"{args.dataset}: no data under {DATA[args.dataset]}", file=sys.stderr)
        return 2
    public.Profile.agenttui = _both
    picked = public.pick_questions(histories, args.limit)
    timing: collections.defaultdict[str, float] = collections.defaultdict(float)
    for history in histories:
        if picked.get(history["history"]):
            public.run_history(history, picked[history["history"]], None, None, timing)
    print(f"{args.dataset}: {dict(counts)}")
    if args.digests is not None:
        args.digests.write_text("".join(line + "\n" for line in digests))
    return 1 if counts["different"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
