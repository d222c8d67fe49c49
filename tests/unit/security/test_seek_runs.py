"""Seeks run only around long alphanumeric runs find what a whole-text scan finds."""

from __future__ import annotations

import random

from agenttui.security import gitleaks_scan
from agenttui.security.crypto_keys import alnum_view
from agenttui.security.redaction import _needles


def _whole_text(c, lowered: str) -> list[tuple[int, list[int]]]:
    return [(r, [m.start() for m in rx.finditer(lowered)]) for r in c.seeking for rx in c.rules[r].seeks]


def _around_runs(c, lowered: str) -> list[tuple[int, list[int]]]:
    return list(gitleaks_scan._seek_starts(c, lowered, alnum_view(lowered.encode("latin-1", "replace"))))


def test_run_shaped_seeks_are_recognised() -> None:
    c = gitleaks_scan.compiled(_needles()[1])
    shapes, _ = gitleaks_scan._run_seeks(c)
    assert {rx.pattern for rx in shapes} >= {"ey[a-z0-9]{17}", r"s\.[a-z0-9]{24}"}


def test_same_starts_as_whole_text_scan() -> None:
    c = gitleaks_scan.compiled(_needles()[1])
    rng = random.Random(7)
    filler = "ab0s.ey k9f_-\nSKEY"
    texts = [
        "".join(rng.choice(filler) if rng.random() < 0.3 else rng.choice("0123456789abcdef")
                for _ in range(rng.randint(0, 300)))
        for _ in range(1500)
    ]
    # A vault-shaped match that ends on the 's' of the next one: a whole-text
    # scan does not start a match inside the previous one.
    texts.append("s." + "a" * 23 + "s.b" + "b" * 30)
    texts.append("x = 1\n" * 50 + "token eyabcdefghijklmnopq1234 and s.abcdefghijklmnopqrstuvwx\n")
    for text in texts:
        assert _around_runs(c, text) == _whole_text(c, text), text
    assert any(starts for _, starts in _whole_text(c, texts[-1]))
