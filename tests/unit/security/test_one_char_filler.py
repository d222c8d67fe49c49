"""The filler check counts only characters found twice in a row: it must say what
counting every character says."""

import itertools
import random
from collections import Counter

from agenttui.security.gitleaks_scan import _one_char_filler, filler_entropy_bound
from agenttui.security.values import shannon_entropy

_OTHERS = "abcdefghijklmnopqrstuvwxyz0123456789"


def _counted(secret: str) -> bool:
    n = len(secret)
    return n >= 8 and max(Counter(secret).values()) > 0.6 * n


def test_every_short_value_over_small_alphabets() -> None:
    for n in range(1, 12):
        for chars in itertools.product("ab\n", repeat=n):
            value = "".join(chars)
            assert _one_char_filler(value) == _counted(value), value


def test_long_values_with_one_character_spread_out() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        n = rng.randint(8, 600)
        share = rng.random()
        value = "".join("x" if rng.random() < share else rng.choice(_OTHERS) for _ in range(n))
        assert _one_char_filler(value) == _counted(value), value


def test_alternating_filler_is_not_one_character() -> None:
    assert not _one_char_filler("xaxaxaxaxaxa")
    assert not _one_char_filler("xa" * 100 + "x")  # long, 50%: no character is doubled
    assert _one_char_filler("xax" * 100)  # long, 67%
    assert _one_char_filler("ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxx")


def test_a_filler_never_has_more_entropy_than_its_bound() -> None:
    """The judging loop skips the filler check above `filler_entropy_bound`: the
    richest filler (just over 60% one character, every other one distinct) and
    random fillers must stay at or below it."""
    others = [chr(c) for c in range(0x100, 0x100 + 1000)]
    for n in range(8, 1200):
        k = int(0.6 * n) + 1  # the fewest copies that make a filler
        value = "x" * k + "".join(others[: n - k])
        assert _one_char_filler(value)
        assert shannon_entropy(value) <= filler_entropy_bound(n), n
    rng = random.Random(11)
    for _ in range(3000):
        n = rng.randint(8, 400)
        value = "".join("x" if rng.random() < 0.7 else rng.choice(_OTHERS) for _ in range(n))
        if _one_char_filler(value):
            assert shannon_entropy(value) <= filler_entropy_bound(n), value
