"""Provider-documented token prefixes that were redacted only with a key name
beside them (`token: …`), bare they were kept: Atlassian, Bitbucket app
passwords, Braintree, Firebase Cloud Messaging, Plaid, Zapier hooks, Render,
Mailgun, Mapbox and Asana (documented_formats.py, source_derived_rules.py).
Values are generated here; the negatives are ordinary text with the same prefixes.
"""

from __future__ import annotations

import random
import string

import pytest

from agenttui.security import find_secrets, redact_secrets

_RNG = random.Random(20261128)
_ALNUM = string.ascii_letters + string.digits
_HEX = "0123456789abcdef"


def _r(n: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _uuid() -> str:
    return "-".join(_r(n, _HEX) for n in (8, 4, 4, 4, 12))


_TOKENS = {
    "atlassian": "ATATT3xFfGF0" + _r(180, _ALNUM + "_-") + "=" + _r(8, _HEX.upper()),
    "bitbucket": "ATBB" + _r(32),
    "braintree": f"access_token$production${_r(16, string.ascii_lowercase + string.digits)}${_r(32, _HEX)}",
    "fcm": "AAAA" + _r(7, _ALNUM + "_-") + ":APA91b" + _r(134, _ALNUM + "_-"),
    "plaid": "access-sandbox-" + _uuid(),
    "zapier": f"https://hooks.zapier.com/hooks/catch/{_r(7, string.digits)}/{_r(6, string.ascii_lowercase)}/",
    "render": "rnd_" + _r(32),
    "mailgun": "key-" + _r(32, _HEX),
    "mapbox": "sk.eyJ1IjoiZGV2IiwiYSI6Im" + _r(40) + "." + _r(22, _ALNUM + "_-"),
    "asana": f"2/{_r(16, string.digits)}/{_r(16, string.digits)}:{_r(32, _HEX)}",
}


@pytest.mark.parametrize("name", sorted(_TOKENS))
def test_documented_token_is_redacted_bare(name: str) -> None:
    token = _TOKENS[name]
    for text in (token, f"export VALUE={token}", f'"{token}"'):
        redacted = redact_secrets(text)
        secret_part = token.split("/catch/")[-1] if name == "zapier" else token
        assert secret_part not in redacted, redacted
        assert not any(secret_part[i : i + 10] in redacted for i in range(0, len(secret_part) - 10, 5)), redacted


@pytest.mark.parametrize("text", [
    "Zapier docs: https://hooks.zapier.com/hooks/catch/ is the base",
    "monkey-patched key-value store",
    "the key-3 slot in the table",
    "access-sandbox-mode is on",
    "rnd_seed = 42",
    "ATBB meeting notes",
    "sk.eyJ is how Mapbox secret tokens begin",
    "time 12:34:56 on 2024/01/02",
    "ratio 2/3:1",
])
def test_ordinary_text_with_those_prefixes_is_kept(text: str) -> None:
    assert find_secrets(text) == []
