"""Injection screen time at N and 4N characters of adversarial input (linear: ratio ~4).

    .venv/bin/python bench/bench_injection_linear.py [--n 5000]

Prints, per input, the median CPU time of 5 runs at N and at 4N and their
ratio; quadratic work would show ~16. The baseline is the same run's N. This
replaces a timed unit test (it failed once under load); the unit test checks
the rules' shape instead (tests/unit/security/test_injection_families.py).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]

from agenttui.security import injection_reasons  # noqa: E402
from tests.unit.security.test_security_linear_time import ADVERSARIAL  # noqa: E402

EXTRA = {  # shapes the ten-language families could trip on
    "cyrillic words": lambda n: ("забудь все предыдущие " * (n // 22 + 1))[:n],
    "cjk run": lambda n: ("忽略之前" * (n // 4 + 1))[:n],
    "html comment opens": lambda n: ("<!-- " * (n // 5 + 1))[:n],
    "markdown image opens": lambda n: ("![a](http://x?" * (n // 14 + 1))[:n],
    "curl without pipe": lambda n: ("curl " * (n // 5 + 1))[:n],
}


def _median_cpu(text: str, runs: int = 5) -> float:
    times = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            t0 = time.process_time()
            injection_reasons(text)
            times.append(time.process_time() - t0)
    finally:
        gc.enable()
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=5_000)
    args = parser.parse_args()
    worst = 0.0
    print(f"{'input':28} {'N ms':>9} {'4N ms':>9} {'ratio':>6}")
    for name, make in {**ADVERSARIAL, **EXTRA}.items():
        t1, t4 = _median_cpu(make(args.n)), _median_cpu(make(4 * args.n))
        ratio = t4 / max(t1, 1e-6)
        worst = max(worst, ratio)
        print(f"{name:28} {t1 * 1e3:9.2f} {t4 * 1e3:9.2f} {ratio:6.1f}")
    print(f"worst ratio {worst:.1f} (linear ~4, quadratic ~16)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
