"""Which languages an embedding model understands: measured once per endpoint and model.

An endpoint's model may read some languages and not others (all-MiniLM-L6-v2
is English-only): fused into keyword recall on a language it does not read,
its ranking is noise that pushes out what the words found (MemDaily, Chinese:
0.978 keyword-only, 0.964 with all-MiniLM-L6-v2's ranking fused). No per-query
score tells a weak model from a useful one; a probe does.

**The probe.** The shipped table (:mod:`recall.language_pairs`) holds, per
language, six pairs of sentences saying one thing in other words; the
unrelated pairs are the same sentences re-paired. The model embeds them, and
per language the **margin** is the mean cosine of related pairs minus the
mean cosine of unrelated ones, taken as a share of the distance from unrelated
to identical (``margin / (1 - unrelated)``): models differ in how close any
two texts are (multilingual-e5-small puts unrelated sentences at ~0.83,
MiniLM at ~0.1 in English, ~0.6 in Chinese), so a raw margin compares models
badly (e5's 0.05-0.11 everywhere, MiniLM's 0.10 in Chinese). Measured
(bench/minilm_embeddings_server.py): multilingual-e5-small 0.35 (Portuguese)
to 0.57 (English) in all twelve languages; all-MiniLM-L6-v2 0.61 in English,
0.10 (Russian) to 0.25 (Korean) in the eleven others. A language below
``UNDERSTOOD`` = 0.30, between the two, is **not understood**.

**At query time** (:meth:`semantic.EmbeddingRanker.start_ranking`) the query's
language group is read (:mod:`recall.query_language`); when the model does not
understand it, recall leaves the embedding ranking out and ranks by keywords
only -- nothing is sent for the query. A language the table lacks, a query
whose language nothing decides, or a probe not run yet: the ranking is fused
as before.

Measured (``bench/bench_recall_public.py --limit 0 --semantic-url``), semantic column
before -> after: all-MiniLM-L6-v2 MemDaily 0.964 -> 0.978 (keyword-only 0.978; noisy
0.885 -> 0.966), RealMem 0.473 -> 0.495 (keyword 0.470), REALTALK 0.765 -> 0.765;
multilingual-e5-small RealMem 0.513 -> 0.513, MemDaily 0.989 -> 0.989.

**Never on a turn's clock.** The probe runs in the background indexer
(:func:`semantic.backfill`) once a batch has been embedded (the endpoint
serves embeddings), one request per ``EMBED_BATCH`` sentences. Its margins are
kept in the profile's ``semantic.json`` per endpoint and model
(:mod:`recall.semantic_auto`), so a later session does not probe again;
``PROBE_VERSION`` changes when the table does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from agenttui.core.recall.language_pairs import PAIRS

PROBE_VERSION = 1  # the table's version: margins measured with another table are measured again
UNDERSTOOD = 0.30  # the lowest margin of a language the model understands (module doc)

Embed = Callable[[list[str]], Sequence[Sequence[float]]]


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))
    return dot / norm if norm else 0.0


def margins(embed: Embed, batch: int = 64) -> dict[str, float]:
    """Per language of the table, the margin (module doc) of the model behind ``embed``."""
    texts = [text for pairs in PAIRS.values() for pair in pairs for text in pair]
    vectors: list[Sequence[float]] = []
    for start in range(0, len(texts), batch):
        vectors.extend(embed(texts[start : start + batch]))
    found: dict[str, float] = {}
    at = 0
    for lang, pairs in PAIRS.items():
        firsts = [vectors[at + 2 * i] for i in range(len(pairs))]
        seconds = [vectors[at + 2 * i + 1] for i in range(len(pairs))]
        at += 2 * len(pairs)
        n = len(pairs)
        related = sum(_cosine(firsts[i], seconds[i]) for i in range(n)) / n
        unrelated = sum(_cosine(firsts[i], seconds[j]) for i in range(n) for j in range(n) if i != j) / (n * n - n)
        found[lang] = round((related - unrelated) / max(1.0 - unrelated, 1e-6), 4)
    return found


def not_understood(found: Mapping[str, float]) -> frozenset[str]:
    """The languages whose margin is below ``UNDERSTOOD``."""
    return frozenset(lang for lang, margin in found.items() if margin < UNDERSTOOD)
