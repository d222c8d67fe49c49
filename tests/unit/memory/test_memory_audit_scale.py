"""M9 at scale, on the corpus of bench/bench_audit.py: planted trouble is found,
and the audit grows linearly (a ratio, never an absolute time)."""

from __future__ import annotations

import importlib.util
import statistics
import time
from pathlib import Path

import pytest

from agenttui.core.audit import audit

BENCH = Path(__file__).resolve().parents[3] / "bench" / "bench_audit.py"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_audit", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_planted_duplicates_conflicts_secrets_and_injections_are_found():
    bench = _bench()
    items, planted = bench.make_corpus(2500, seed=5)
    assert len(items) == 2500
    assert planted["duplicates"] and planted["conflicts"] and planted["secrets"]
    assert bench.check_planted(items, planted) == []


@pytest.mark.slow
def test_audit_time_scales_linearly_from_2500_to_10000_items():
    """Security results are cached by text, so after one warm-up pass each
    timed run measures the audit's own algorithms (near-duplicate clusters,
    conflicts, flags) -- the part that would go quadratic if done pairwise."""
    bench = _bench()
    big, _ = bench.make_corpus(10_000, seed=3)
    small = big[:2500]
    audit(big, now=bench.NOW)  # warm the per-text security cache for both sets

    def cpu(items):
        start = time.process_time()
        audit(items, now=bench.NOW)
        return time.process_time() - start

    t_small = statistics.median(cpu(small) for _ in range(7))
    t_big = statistics.median(cpu(big) for _ in range(7))
    ratio = t_big / t_small
    # Measured ~6x: template words shared by many notes of the bench corpus add a
    # small quadratic term to the prefix index; an all-pairs loop would be 16x.
    assert ratio < 10, f"10k/2.5k = {ratio:.1f}x (linear is 4, quadratic 16)"
