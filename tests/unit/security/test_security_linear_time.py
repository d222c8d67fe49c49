"""Adversarial inputs take time proportional to their size (no backtracking blow-up).

Each input is timed at N and 4N characters; linear work gives a ratio near 4,
quadratic near 16. We assert < 8 — a ratio, not an absolute time, so a slow
machine does not fail it. Timings are this process's CPU time (other work on a
shared machine does not inflate them), the best of a few runs to damp noise.
"""

from __future__ import annotations

import gc
import time

import pytest

from agenttui.security import redact_secrets

RATIO_MAX = 8.0


def _best(fn, text: str, runs: int = 3) -> float:
    """Best CPU time of ``runs`` calls, with the garbage collector paused (as
    timeit does): in a long test session the heap is large, and collections
    triggered by a big input's allocations would be charged to the code under test."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            t0 = time.process_time()
            fn(text)
            best = min(best, time.process_time() - t0)
    finally:
        gc.enable()
    return best


def _ratio(fn, make, n: int) -> tuple[float, float, float]:
    """Ratio t(4N)/t(N); measured up to three times, keeping the best, to ride out noise.

    N grows from `n` until one call takes ≥ 20 ms (or N reaches 16n), so the
    ratio compares real work rather than timer jitter on fast inputs.
    """
    limit = 16 * n
    while n < limit and _best(fn, make(n), runs=1) < 0.02:
        n *= 2
    small, big = make(n), make(4 * n)
    best = (float("inf"), 0.0, 0.0)
    for _ in range(3):
        t1, t4 = _best(fn, small), _best(fn, big)
        best = min(best, (t4 / max(t1, 1e-6), t1, t4))
        if best[0] < RATIO_MAX:
            break
    return best


def _rep(unit: str):
    return lambda n: (unit * (n // len(unit) + 1))[:n]


ADVERSARIAL = {
    "one char": _rep("a"),
    "one long line of prose": _rep("the quick brown fox said password is not here, "),
    "sk- runs": _rep("sk-"),
    "equals run": _rep("="),
    "base64 run": _rep("QUJDRGVmZ2hpams0NTY3OA+/"),
    "ghp_ + long run": lambda n: "ghp_" + "A" * n,
    "key= runs": _rep("key="),
    "password: runs": _rep("password: "),
    "BEGIN without END": _rep("-----BEGIN PRIVATE KEY-----"),
    "url creds start": _rep("://a:"),
    "digits": _rep("1"),
    "jwt start": _rep("eyJ"),
    "discord-like": _rep("M" + "a" * 25 + "."),
    "hex": _rep("0123456789abcdef"),
    "bip39 words": _rep("abandon "),
    "bearer runs": _rep("bearer "),
    "cookie runs": _rep("cookie: a="),
    "spaced letters": _rep("a "),
    "AKIA runs": _rep("AKIA"),
    "zero-width": _rep("a\u200b"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_redaction_is_linear(name):
    ratio, t1, t4 = _ratio(redact_secrets, ADVERSARIAL[name], 25_000)
    assert ratio < RATIO_MAX, f"{name}: {t1:.4f}s -> {t4:.4f}s (x{ratio:.1f})"


# The injection screen's linearity is checked by counting, not timing (a timed
# version failed once under load on a clean clone): every rule is literal-led and
# bounded (tests/unit/security/test_injection_families.py), and the timings of
# these inputs at N and 4N are printed by bench/bench_injection_linear.py.


def test_megabyte_single_line_finishes():
    # A generous "answers fast" bound; the ratio tests above are the real check.
    text = "a" * 10**6
    t0 = time.perf_counter()
    assert redact_secrets(text) == text
    assert time.perf_counter() - t0 < 5.0
