"""Does work grow linearly with the input? For tests that feed regexes adversarial text.

The timing primitive is the security tests' (``_best`` in
tests/unit/security/test_security_linear_time.py: best CPU time of a few
calls, the garbage collector paused). Here the input is walked up in steps of
4x, from 4 kB to 1 MiB, and each step's time is compared with the one before:
linear work gives ~4, quadratic ~16. A ratio, not a time, so a slow or busy
machine does not fail it; CPU time, so other processes do not inflate it; a
step is judged only once it costs ``JUDGED_FROM_S`` (timer jitter dominates
below), and a suspect step is measured again before it fails. Starting small
means a quadratic regression fails in seconds instead of hanging on 1 MiB.
"""

from __future__ import annotations

import gc
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from re import _parser  # the stdlib's own pattern parser: what re will actually run
from re._constants import BRANCH, IN, LITERAL, MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT, RANGE, SUBPATTERN

from tests.unit.security.test_security_linear_time import _best

RATIO_MAX = 8.0  # per 4x step: linear ~4, quadratic ~16
JUDGED_FROM_S = 0.02
START = 4 * 1024
MAX_CHAR_RUNS = 6  # per pattern: each input walked up to TOP costs ~1.3 scans of TOP
# The suite walks to 256 KiB: a quadratic pattern shows its x16 steps long before
# (the ones found cost seconds at 10-40 kB), and walking ~200 patterns x 6 inputs
# to 1 MiB took over an hour on a busy 2-core machine. LINEAR_TOP=1048576 walks
# to 1 MiB by hand.
TOP = int(os.environ.get("LINEAR_TOP", 256 * 1024))


@dataclass(frozen=True)
class Step:
    size: int
    seconds: float
    bigger_seconds: float

    @property
    def ratio(self) -> float:
        return self.bigger_seconds / max(self.seconds, 1e-6)

    def __str__(self) -> str:
        return (f"{self.size:,} -> {4 * self.size:,} chars: "
                f"{self.seconds:.4f}s -> {self.bigger_seconds:.4f}s (x{self.ratio:.1f})")


def _cpu(fn: Callable[[str], object], text: str, runs: int = 1) -> float:
    """Best CPU time of ``runs`` calls. The caller pauses the garbage collector: ``_best``'s
    own ``gc.collect()`` per call cost more than the patterns did, thousands of times over."""
    best = float("inf")
    for _ in range(runs):
        t0 = time.process_time()
        fn(text)
        best = min(best, time.process_time() - t0)
    return best


def superlinear_step(fn: Callable[[str], object], make: Callable[[int], str],
                     start: int = START, top: int = TOP) -> Step | None:
    """The first 4x step from ``start`` to ``top`` chars where ``fn`` grew more than ``RATIO_MAX``x; None if none."""
    paused = gc.isenabled()
    gc.disable()
    try:
        size, seconds = start, _cpu(fn, make(start))
        while size < top:
            bigger = make(4 * size)
            bigger_seconds = _cpu(fn, bigger)
            step = Step(size, seconds, bigger_seconds)
            if bigger_seconds >= JUDGED_FROM_S and step.ratio > RATIO_MAX:  # again, best of 3, before failing
                step = Step(size, _best(fn, make(size)), _best(fn, bigger))
                if step.ratio > RATIO_MAX:
                    return step
            size, seconds = 4 * size, bigger_seconds
        return None
    finally:
        if paused:
            gc.enable()


def repeat(unit: str) -> Callable[[int], str]:
    """``unit`` repeated to ``n`` characters."""
    return lambda n: (unit * (n // len(unit) + 1))[:n]


BASE64 = "QUJDRGVmZ2hpams0NTY3OA+/x9Zr"


def blob_with_words(n: int) -> str:
    """A pasted blob: "what does this blob mean: <base64 on one line> thanks"."""
    head, tail = "what does this blob mean: ", " thanks"
    return head + repeat(BASE64)(max(n - len(head) - len(tail), 0)) + tail


def line_with_few_words(n: int) -> str:
    """One long line, a few words in it, the rest one letter."""
    words = "see the note about the lease "
    return words + "x" * max(n - 2 * len(words), 0) + words


GENERIC_INPUTS: dict[str, Callable[[int], str]] = {
    "letters": repeat("a"),
    "digits": repeat("7"),
    "spaces": repeat(" "),
    "newlines": repeat("\n"),
    "prose": repeat("the quick brown fox jumps over the lazy dog, again and again. "),
    "base64 blob": blob_with_words,
    "a 1 MB line with few words": line_with_few_words,
}


def repeated_chars(pattern: re.Pattern) -> list[str]:
    """Characters ``pattern`` matches under a repeat: the runs most likely to make it retry."""
    found: dict[str, None] = {}

    def walk(items, under_repeat: bool) -> None:
        for op, av in items:
            if op in (MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT):
                walk(av[2], True)
            elif op is SUBPATTERN:
                walk(av[3], under_repeat)
            elif op is BRANCH:
                for branch in av[1]:
                    walk(branch, under_repeat)
            elif op is LITERAL and under_repeat:
                found[chr(av)] = None
            elif op is IN and under_repeat:
                for kind, value in av:
                    if kind is LITERAL:
                        found[chr(value)] = None
                    elif kind is RANGE:
                        found[chr(value[0])] = None

    source = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode("latin-1")
    flags = pattern.flags & ~re.UNICODE if isinstance(pattern.pattern, bytes) else pattern.flags
    walk(list(_parser.parse(source, flags)), False)
    covered = {"a", "7", " ", "\n"}  # runs the generic inputs already have
    return [c for c in found if (c.isprintable() or c == "\t") and c not in covered][:MAX_CHAR_RUNS]


def adversarial_inputs(pattern: re.Pattern) -> dict[str, Callable[[int], str]]:
    """The generic inputs plus a run of each character the pattern repeats."""
    inputs = dict(GENERIC_INPUTS)
    for char in repeated_chars(pattern):
        inputs[f"run of {char!r}"] = repeat(char)
    return inputs


def scan_all(pattern: re.Pattern, anchored: bool = False) -> Callable[[str], object]:
    """Every match of ``pattern`` in a text: the most work any use of it (search, sub, split) can do.

    ``anchored``: the code only ever calls ``fullmatch`` on it (one try, at the start).
    """
    if anchored:
        return lambda text: pattern.fullmatch(text)
    if isinstance(pattern.pattern, bytes):
        return lambda text: sum(1 for _ in pattern.finditer(text.encode("utf-8")))
    return lambda text: sum(1 for _ in pattern.finditer(text))
