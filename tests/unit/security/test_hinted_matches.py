"""Rules tried only near their hint (`reach`) find exactly what a full scan finds."""

from __future__ import annotations

import random

import pytest

from agenttui.security.secret_patterns import PROVIDER_RULES, Rule, hinted_matches

_REACHING = [r for r in PROVIDER_RULES if r.reach is not None]

# Pieces that make near-misses and runs of tokens: digit runs of every length
# around the telegram token's 8-10, discord bodies of 22-28 characters, AWS
# prefixes glued to letters, tokens back to back.
_PIECES = [
    "1", "12345678", "123456789", "1234567890", "12345678901", ":AA", ":AB",
    "x" * 33, "aB3_-" * 7, ".", ".abcdef.", "M", "N", "O", "MN", "a" * 22, "b" * 27,
    "AKIA", "ASIA", "AIza", "ACCA", "A", "ABCDEFGHIJKLMNOP", "Q7RZ2MNB4KXW6JDA", "2345", " ", "\n", "é",
]


def _texts() -> list[str]:
    rng = random.Random(7)
    texts = [
        "bot 1234567890:AA" + "Xy9_-" * 6 + "abc ok",  # 10 digits: the farthest start
        "12345678901:AA" + "k" * 33,  # 11 digits: no match (lookbehind), nor at the inner starts
        "M" + "q" * 27 + ".abcdef." + "z" * 30 + " and N" + "r" * 23 + ".ghijkl." + "y" * 27,
        "AKIAQ7RZ2MNB4KXW6JDA AKIAAKIAQ7RZ2MNB4KXW6JDA xASIAQ7RZ2MNB4KXW6JDA",
    ]
    for _ in range(400):
        texts.append("".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 40))))
    return texts


def test_some_rules_reach() -> None:
    assert {r.kind for r in _REACHING} >= {"telegram_bot_token", "discord_token", "aws_access_key_id"}


@pytest.mark.parametrize("rule", _REACHING, ids=lambda r: r.kind)
def test_same_matches_as_a_full_scan(rule: Rule) -> None:
    found_any = False
    for text in _texts():
        full = [m.span() for m in rule.regex.finditer(text)]
        near = [m.span() for m in hinted_matches(rule, text)]
        assert near == full, text
        found_any = found_any or bool(full)
    assert found_any  # the texts do hold matches of this rule
