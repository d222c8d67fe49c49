"""A final group of bounded class runs, rewritten, matches as the rule's own pattern does.

`kingfisher.cloudconvert.1` ends in `((?:C{30,34}\\.?C{200,500}\\.?C{600,700}))`; `re`
backtracked through it (~2 ms a match). `bounded_run_tail` says where such a match
ends without backtracking: the spans and groups must be the original's, for runs
around each bound and with the optional dots at the places that decide.
"""

from __future__ import annotations

import random
import re

from agenttui.security import gitleaks_scan
from agenttui.security.run_tail import bounded_run_tail


def test_rewrites_only_the_cloudconvert_rule() -> None:
    led = [(r.id, gitleaks_scan.literal_led(r.pattern)) for r in gitleaks_scan.compiled().rules]
    changed = [rule_id for rule_id, pattern in led if bounded_run_tail(pattern, re.ASCII) != pattern]
    assert changed == ["kingfisher.cloudconvert.1"]


def test_left_alone_when_a_piece_might_not_fit_or_a_literal_splits_the_run() -> None:
    assert bounded_run_tail(r"k((?:[a-z.]{1,30}\.?[a-z.]{5,9}))") == r"k((?:[a-z.]{1,30}\.?[a-z.]{5,9}))"
    assert bounded_run_tail(r"k((?:[a-z]{3,4}\.?[a-z]{5,9}))") == r"k((?:[a-z]{3,4}\.?[a-z]{5,9}))"
    assert bounded_run_tail(r"k((?:[a-z.]{3,4}\.?[a-z.]{5,9}))x") == r"k((?:[a-z.]{3,4}\.?[a-z.]{5,9}))x"


def test_same_matches_as_the_original_pattern() -> None:
    rule = next(r for r in gitleaks_scan.compiled().rules if r.id == "kingfisher.cloudconvert.1")
    original = re.compile(gitleaks_scan.literal_led(rule.pattern), re.ASCII)
    assert rule.regex.pattern != original.pattern
    rng = random.Random(20260602)
    found = 0
    for _ in range(300):
        size = rng.choice([rng.randint(lo, hi) for lo, hi in ((800, 1300), (825, 840), (1225, 1245), (1090, 1110))])
        run = [rng.choice(rng.choice(("ab.", "aB9.-_", "a", "..a", "xyzXYZ019+/=~"))) for _ in range(size)]
        for at in (34, 35, 534, 535, 536):  # where a dot decides how far the pieces reach
            if at < size and rng.random() < 0.5:
                run[at] = "."
        lead = rng.choice(("cloudconvert_token = ", "CloudConvert key: ", "cloudconvert\nsecret\n", "cloudconvertkey"))
        text = rng.choice(("", "x ")) + lead + rng.choice(("", "'")) + "".join(run) + rng.choice(("", " ", "\n!abc"))
        endpos = rng.choice((len(text), rng.randint(0, len(text))))
        want, got = original.search(text, 0, endpos), rule.regex.search(text, 0, endpos)
        assert (want is None) == (got is None), text[:60]
        if want is not None and got is not None:
            assert want.regs == got.regs, text[:60]
            found += 1
    assert found > 100
