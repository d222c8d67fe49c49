"""`char_classes` and `ascii_classes` read ASCII through a bytes table: they must say
what the per-character string methods say."""

from __future__ import annotations

import random

from agenttui.security.values import ascii_classes, char_classes


def _by_methods(value: str) -> int:
    return (any(c.islower() for c in value) + any(c.isupper() for c in value) + any(c.isdigit() for c in value)
            + any(not c.isalnum() for c in value))


def test_every_ascii_character_has_its_class() -> None:
    for code in range(128):
        c = chr(code)
        want = "l" if c.islower() else "u" if c.isupper() else "d" if c.isdigit() else "o"
        assert ascii_classes(c) == want.encode(), repr(c)


def test_char_classes_counts_like_the_string_methods() -> None:
    rng = random.Random(5)
    alphabet = [chr(c) for c in range(128)] + list("éÜß٣中")
    for _ in range(20000):
        value = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
        assert char_classes(value) == _by_methods(value), repr(value)
