"""Provider rules gated by hand-given needles: every match holds one of them."""

from __future__ import annotations

import random
import string

import pytest

from agenttui.security import find_secrets
from agenttui.security.secret_patterns import PROVIDER_RULES, Rule

_GATED = [r for r in PROVIDER_RULES if r.needles is not None]


def _tokens() -> list[str]:
    rng = random.Random(3)

    def run(alphabet: str, n: int) -> str:
        return "".join(rng.choice(alphabet) for _ in range(n))

    alnum, hexd = string.ascii_letters + string.digits, "0123456789abcdef"
    tokens = [f"gh{c}_" + run(alnum, 36) for c in "pousr"]
    tokens += [f"gl{k}-" + run(alnum + "_-", 24) for k in "pat dt rt ptt cbt oas soat ffct imt agent ft".split()]
    tokens += ["https://hooks.slack.com/services/T0A1B2C3D/B4E5F6G7H/" + run(alnum, 24)]
    tokens += ["SK" + run(hexd, 32), "AC" + run(hexd, 32) + ":" + run(hexd, 32)]
    tokens += ["https://discordapp.com/api/webhooks/123456789/" + run(alnum + "_-", 40)]
    tokens += [run(string.digits, n) + ":AA" + run(alnum + "_-", 33) for n in (8, 9, 10)]
    tokens += [f"do{c}_v1_" + run(hexd, 64) for c in "opr"]
    return tokens


@pytest.mark.parametrize("rule", _GATED, ids=lambda r: r.kind)
def test_every_match_holds_a_needle(rule: Rule) -> None:
    assert rule.needles and all(n == n.lower() and len(n) >= 3 for n in rule.needles)
    text = "\n".join(f"value: {t} end" for t in _tokens())
    matches = list(rule.regex.finditer(text))
    assert matches, rule.kind
    for m in matches:
        assert any(n in m.group().lower() for n in rule.needles), m.group()


def test_gated_tokens_are_still_found() -> None:
    for token in _tokens():
        assert find_secrets(f"here it is: {token} ok"), token
