"""Redaction speed and output of this checkout against another one, in the same run.

A speed claim on a shared machine needs a baseline measured beside it: this runs
`redact_secrets` of two source trees in turns (one child process per tree per
round, old first), keeps the best CPU time (`time.process_time`) of each tree per
corpus, and prints MB/s of both and their ratio, with the machine's load. The
children redact the same text (written once to a temporary file), and each
reports a hash of its outputs: the run fails if the two trees redact differently.

Corpora: those of bench/bench_redaction.py (third table: dense, stdlib, docs;
first table: prose, code, logs, chat, mixed).

Run (the baseline is a worktree of the commit before the change):
    git worktree add /tmp/redact_old HEAD~1
    .venv/bin/python bench/bench_redaction_ab.py /tmp/redact_old/src [--rounds 5] [--runs 3] [--corpora dense,stdlib]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = "dense,stdlib,docs"


def _child(corpus_file: str, runs: int) -> None:
    """In a child: best CPU seconds and output hash per corpus, as JSON on stdout."""
    from agenttui.security import redact_secrets

    with open(corpus_file, "rb") as f:
        texts: dict[str, str] = pickle.load(f)  # written by this script's parent
    redact_secrets("warm-up: password=hunter2xyz ghp_" + "a1B2" * 9)  # rules compile on first use
    out: dict[str, tuple[float, str]] = {}
    for name, text in texts.items():
        best = float("inf")
        digest = ""
        for _ in range(runs):
            t0 = time.process_time()
            redacted = redact_secrets(text)
            best = min(best, time.process_time() - t0)
            digest = hashlib.sha256(redacted.encode("utf-8", "surrogatepass")).hexdigest()
        out[name] = (best, digest)
    print(json.dumps(out))


def _corpora(names: list[str]) -> dict[str, str]:
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_redaction

    every = {**bench_redaction._real_corpora(), **bench_redaction.corpora()}
    return {n: every[n] for n in names}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("baseline_src", help="the other tree's src directory (e.g. a worktree's /src)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3, help="redactions per corpus in each child")
    parser.add_argument("--corpora", default=DEFAULT)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.runs)
        return
    texts = _corpora(args.corpora.split(","))
    trees = {"old": str(Path(args.baseline_src).resolve()), "new": str(ROOT / "src")}
    best: dict[str, dict[str, float]] = {"old": {}, "new": {}}
    digests: dict[str, dict[str, str]] = {"old": {}, "new": {}}
    with tempfile.TemporaryDirectory() as tmp:
        corpus_file = os.path.join(tmp, "corpora.pickle")
        with open(corpus_file, "wb") as f:
            pickle.dump(texts, f)
        for _ in range(args.rounds):
            for tag, src in trees.items():
                env = {**os.environ, "PYTHONPATH": src}
                done = subprocess.run(
                    [sys.executable, __file__, src, "--child", corpus_file, "--runs", str(args.runs)],
                    env=env, capture_output=True, text=True, check=True,
                )
                for name, (seconds, digest) in json.loads(done.stdout).items():
                    best[tag][name] = min(seconds, best[tag].get(name, float("inf")))
                    digests[tag][name] = digest
    load = os.getloadavg()
    print(f"best of {args.rounds} rounds x {args.runs} runs, CPU time; load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'corpus':8s} {'MB':>5s} {'old MB/s':>9s} {'new MB/s':>9s} {'new/old':>8s}  output")
    same = True
    for name, text in texts.items():
        mb = len(text) / 1e6
        old, new = best["old"][name], best["new"][name]
        identical = digests["old"][name] == digests["new"][name]
        same &= identical
        print(f"{name:8s} {mb:5.2f} {mb / old:9.1f} {mb / new:9.1f} {old / new:8.2f}  "
              f"{'identical' if identical else 'DIFFERS'}")
    if not same:
        sys.exit("the two trees redact differently")


if __name__ == "__main__":
    main()
