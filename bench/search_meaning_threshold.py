"""Can a similarity threshold keep the History search box's meaning hits honest?

The search box adds the ten messages nearest the query in meaning
(``core/recall/search_by_meaning.py``). For keyboard mash they are noise. This
measures whether a cut on the query's cosine, as a z-score against the
history's own spread (cosines with 256 random messages of the same history),
separates real finds from noise: REALTALK questions and their evidence turns
(real) against 20 gibberish strings and 60 RealMem questions (another
person's life: off-topic), over the first histories of REALTALK, with any
``/v1/embeddings`` endpoint (``bench/minilm_embeddings_server.py``)::

    /tmp/embvenv/bin/python bench/minilm_embeddings_server.py --model minilm-onnx --port 18941 &
    .venv/bin/python bench/search_meaning_threshold.py --url http://127.0.0.1:18941/v1 --histories 2

Needs the dev sets (``scripts/build_recall_devsets.py``). Prints, per z cut,
the share of top-10 evidence turns kept and the hits kept per noise query.
The finding (module doc of ``search_by_meaning``): no cut separates them, so
the box gates on the query's words instead.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import urllib.request
from pathlib import Path

import numpy as np

DATA = Path(__file__).parent / "data" / "recall_dev"
GIBBERISH = ["qqqzzz", "asdfgh", "zxcvb qwert", "xkcd zzz 927", "lorem ipsum dolor", "jjjj kkkk", "blorptastic",
             "ghjkl", "aaaaaaa", "foo bar baz", "wxyzzy", "qwertyuiop", "mnbvcxz", "plugh", "xyzzy frobozz",
             "hjkl hjkl", "zzzz", "abc123", "test", "asdf"]
CUTS = (2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0)


def _embed(url: str, texts: list[str]) -> np.ndarray:
    out: list[list[float]] = []
    for start in range(0, len(texts), 64):
        body = json.dumps({"input": texts[start:start + 64], "model": "bench"}).encode()
        request = urllib.request.Request(f"{url}/embeddings", body, {"content-type": "application/json"})
        out += [item["embedding"] for item in json.load(urllib.request.urlopen(request, timeout=600))["data"]]
    matrix = np.array(out, dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1, norms)


def _read(name: str) -> list[dict]:
    with gzip.open(DATA / name, "rt") as lines:
        return [json.loads(line) for line in lines]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--histories", type=int, default=2)
    args = parser.parse_args()
    rng = random.Random(7)
    offtopic = [q["text"] for h in _read("realmem.jsonl.gz") for q in h["questions"]]
    rng.shuffle(offtopic)
    noise: dict[str, list[list[float]]] = {"gibberish": [], "off-topic": []}
    evidence_z: list[float] = []
    for history in _read("local/realtalk.jsonl.gz")[:args.histories]:
        turns = [t for s in history["sessions"] for t in s["turns"]]
        vectors = _embed(args.url, [t["text"] for t in turns])
        background = rng.sample(range(len(turns)), min(256, len(turns)))

        def top_z(queries: list[str], vectors: np.ndarray = vectors,
                  background: list[int] = background) -> list[tuple[list[float], list[int]]]:
            found = []
            for query in _embed(args.url, queries):
                scores = vectors @ query
                spread = scores[background]
                top = np.argsort(-scores)[:10]
                found.append((((scores[top] - spread.mean()) / (spread.std() or 1)).tolist(), top.tolist()))
            return found

        questions = history["questions"]
        for question, (z, top) in zip(questions, top_z([q["text"] for q in questions]), strict=True):
            wanted = set(question["evidence"])
            evidence_z += [score for score, row in zip(z, top, strict=True) if turns[row]["id"] in wanted]
        noise["gibberish"] += [z for z, _ in top_z(GIBBERISH)]
        noise["off-topic"] += [z for z, _ in top_z(offtopic[:60])]
    print(f"evidence turns in the top 10: {len(evidence_z)}")
    print(f"{'z cut':>6} {'evidence kept':>14} {'gibberish hits/q':>17} {'any':>5} {'off-topic hits/q':>17} {'any':>5}")
    for cut in CUTS:
        kept = sum(z >= cut for z in evidence_z) / max(1, len(evidence_z))
        cells = []
        for rows in noise.values():
            counts = [sum(z >= cut for z in row) for row in rows]
            cells += [statistics.mean(counts), sum(1 for c in counts if c) / len(counts)]
        print(f"{cut:>6} {kept:>14.2f} {cells[0]:>17.1f} {cells[1]:>5.2f} {cells[2]:>17.1f} {cells[3]:>5.2f}")


if __name__ == "__main__":
    main()
