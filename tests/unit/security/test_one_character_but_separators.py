"""`values._one_character_but_separators` is the set test it replaces, on every shape.

The placeholder check asks whether a value is one character repeated between
separators ("xxxx", "0000-0000"); it used to build the set of the value's
characters, and now strips and replaces in C. Both must agree everywhere: on
separators alone, at either end, in the middle, on one or two other characters,
and on random strings over an alphabet dense in separators and repeats.
"""

from __future__ import annotations

import random

from agenttui.security.values import _SYMBOLS, _one_character_but_separators, is_placeholder


def _by_set(value: str) -> bool:
    return len(set(value) - set(_SYMBOLS)) <= 1


def test_agrees_with_the_set_test_on_chosen_shapes() -> None:
    shapes = [
        "",
        "x",
        "xxxx",
        "----",
        "-",
        ":/",
        "x-x-x",
        "-x-",
        "xy",
        "x-y",
        "-x-y-",
        "0000-0000",
        "xxxx.xxxy",
        "yxxxx",
        " x x ",
        "x x y",
        "ab",
        "aab",
        "a/b/a",
        "é",
        "éé-é",
        "éx",
    ]
    for value in shapes:
        assert _one_character_but_separators(value) == _by_set(value), value


def test_agrees_with_the_set_test_on_random_strings() -> None:
    rng = random.Random(7)
    alphabet = _SYMBOLS + "xxxxyz0"
    for _ in range(20_000):
        value = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))
        assert _one_character_but_separators(value) == _by_set(value), value


def test_placeholders_of_one_repeated_character() -> None:
    assert is_placeholder("XXXX-XXXX")
    assert is_placeholder("0000-0000-0000")
    assert not is_placeholder("0000-0000-0001")
