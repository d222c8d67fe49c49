"""A weak key's value (`key=`, `session=`, `cookie=`) is taken when it looks generated:
`find_assignments` reads `values.looks_random` inline for such values (token characters,
a digit and a letter), and must say what it says."""

from __future__ import annotations

import random
import string

from agenttui.security.context_rules import find_assignments
from agenttui.security.redaction import ascii_lower
from agenttui.security.secret_patterns import GENERIC
from agenttui.security.values import looks_random


def _values(seed: int) -> list[str]:
    rng = random.Random(seed)
    pools = [
        string.ascii_lowercase + string.digits,
        string.hexdigits,
        "ab12",
        string.ascii_letters + string.digits + "+/=_.~-",
    ]
    out = []
    for _ in range(300):
        pool = rng.choice(pools)
        size = rng.choice([12, 15, 16, 17, 24, 40, 64])
        value = "".join(rng.choice(pool) for _ in range(size))
        out.append(rng.choice("0123456789") + value + rng.choice("abcXYZ"))  # a digit and a letter
    return out + ["0abcdefabcdefabcd1", "1111111111111111a", "changeme12345678", "a1a1a1a1a1a1a1a1a1"]


def test_a_weak_keys_value_is_taken_as_looks_random_says() -> None:
    for seed in range(3):
        for value in _values(seed):
            for key in ("key", "session", "cookie"):
                text = f"{key}={value}\n"
                got = [c for c in find_assignments(text, ascii_lower(text)) if c[3] == GENERIC]
                want = [(len(key) + 1, len(text) - 1, "high_entropy", GENERIC)] if looks_random(value) else []
                assert got == want, (key, value)
