"""Formats the public rule sets' examples showed we missed, with values generated here.

Each case was missed by `redact_secrets` before its rule or check was added:
PowerShell's `ConvertTo-SecureString "…" -AsPlainText`, a secret as the
default of an environment lookup, Android's `buildConfigField` with a
secret's name, Salesforce access tokens, Vault's long `s.CAES…` tokens, and
provider-keyed hex keys whose entropy sits just under a 3.5-bit floor
(normal for hex). The negatives are the ordinary text each change must leave
alone, and the conference-call passcodes that are no secret.
"""

from __future__ import annotations

import random
import string

import pytest

from agenttui.security import find_secrets, redact_secrets
from agenttui.security.values import shannon_entropy

_RNG = random.Random(20261128)
_ALNUM = string.ascii_letters + string.digits


def _rand(n: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _low_entropy_hex(n: int = 32) -> str:
    """A hex value from 10 of the 16 digits (letters and digits both): random,
    but under 3.5 bits of entropy, as about one real hex key in twenty is."""
    digits = "0123456789abcdef"
    while True:
        pool = _RNG.sample(digits, 10)
        value = "".join(_RNG.choice(pool) for _ in range(n))
        if 3.2 < shannon_entropy(value) < 3.5 and not value.isdigit() and any(c.isalpha() for c in value):
            return value


_PASSWORD = _rand(10) + "!7"
_SECRETS = {
    "securestring first": (f'$p = ConvertTo-SecureString "{_PASSWORD}" -AsPlainText -Force', _PASSWORD),
    "securestring -String single": (f"ConvertTo-SecureString -String '{_PASSWORD}' -AsPlainText -Force", _PASSWORD),
    "securestring switches first": (f'ConvertTo-SecureString -AsPlainText -Force "{_PASSWORD}"', _PASSWORD),
    "python getenv": (f"SECRET_KEY = os.getenv('DJANGO_SECRET_KEY', '{_PASSWORD}')", _PASSWORD),
    "python environ.get": (f'token = os.environ.get("API_TOKEN","{_PASSWORD}")', _PASSWORD),
    "ruby ENV.fetch": (f'password: ENV.fetch("DB_PASSWORD", "{_PASSWORD}")', _PASSWORD),
    "node process.env": (f'const secret = process.env.JWT_SECRET || "{_PASSWORD}";', _PASSWORD),
    "gradle buildConfigField": (f"buildConfigField 'String', 'API_KEY', '\"{_PASSWORD}\"'", _PASSWORD),
    "kotlin buildConfigField": (f'buildConfigField("String", "MAPS_API_KEY", "\\"{_PASSWORD}\\"")', _PASSWORD),
    "salesforce token": (
        (tok := "00D" + _rand(12) + "!" + _rand(96, _ALNUM + "._")), tok),
    "vault long token": (
        f"export VAULT_ADDR=https://vault:8200; vault login -method=token {(v := 's.CAES' + _rand(90))}", v),
    "hex key under 3.5 bits": (f"todoist api key {(h := _low_entropy_hex(40))}", h),
}


@pytest.mark.parametrize("name", sorted(_SECRETS))
def test_public_format_is_redacted(name: str) -> None:
    text, secret = _SECRETS[name]
    out = redact_secrets(text)
    assert secret not in out, out
    assert "[REDACTED" in out


@pytest.mark.parametrize(
    "text",
    [
        "ConvertTo-SecureString $password -AsPlainText -Force",  # a variable, no literal
        "Use ConvertTo-SecureString to turn an encrypted standard string into a secure string.",
        'level = os.getenv("LOG_LEVEL", "info")',
        'url = os.getenv("TOKEN_URL", "https://auth.example.com/token")',
        'pw = os.getenv("DB_PASSWORD", "")',
        'key = os.getenv("SECRET_KEY", "changeme")',
        'buildConfigField "String", "BASE_URL", "\\"https://api.example.com\\""',
        'buildConfigField "String", "API_KEY", "\\"${apiKey}\\""',
        "todoist api key 12345678901234567890123456789012",  # digits in a row, no key
        "todoist api key abcdefabcdefabcdefabcdefabcdefab",
        # A conference call's access code under its dial-in number is handed to every invitee.
        "Where: Conf. Call\nCall-in #: 800/711-8000\nPasscode: 4153030\nHere is the overview.",
        "Conference Plus will be hosting this call:\nthe number: 1-800-991-9019\nthe passcode: 6871082#\n",
    ],
)
def test_ordinary_text_is_kept(text: str) -> None:
    assert find_secrets(text) == [], redact_secrets(text)


def test_passcode_without_a_dial_in_number_is_still_redacted() -> None:
    code = "".join(_RNG.choice(string.digits) for _ in range(7))
    assert code not in redact_secrets(f"wifi passcode: {code}")
    word = _rand(9) + "4"
    assert word not in redact_secrets(f"Dial-in: 1-800-991-9019\npasscode: {word}")
