"""The filler check counts only characters found twice in a row: it must say what
counting every character says."""

import itertools
import random
from collections import Counter

from agenttui.security.gitleaks_scan import _one_char_filler

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
