"""Secrets in the formats detect-secrets' plugins and secretlint's rules describe.

The examples (data/source_derived_examples.json, scripts/make_source_derived_examples.py)
were written from those projects' rule sources with values generated here; each
must be redacted whole: no character of the secret left in the output. Before
source_derived_rules.py and source_derived_keywords.py, 46 of the 265 were
missed (C/C#/C++ keyword shapes, reversed comparisons, XML elements,
contraseña, passwords holding `${`/`{{`/`$(`, Telegram tokens without `AA`,
Twilio ids, short Artifactory keys, SoftLayer URLs, cloud ids next to their
keys, GitHub App `ghs_<id>_…` tokens, quoted base64 without a key). The negatives, and the near misses
below, are ordinary text those rules must leave alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenttui.security import find_secrets, redact_secrets

_DATA = json.loads((Path(__file__).parent / "data/source_derived_examples.json").read_text())
_EXAMPLES = _DATA["examples"]


def _uncovered(text: str, secret: str) -> str:
    """The characters of `secret` in `text` that no redacted span covers."""
    spans = [(m.start, m.end) for m in find_secrets(text)]
    at = text.index(secret)
    return "".join(c for i, c in enumerate(secret, at) if not any(s <= i < e for s, e in spans))


@pytest.mark.parametrize("example", _EXAMPLES, ids=[f"{e['source']}:{e['rule']}:{i}" for i, e in enumerate(_EXAMPLES)])
def test_source_derived_example_is_redacted_whole(example: dict[str, str]) -> None:
    assert _uncovered(example["text"], example["secret"]) == ""
    assert example["secret"] not in redact_secrets(example["text"])


def test_every_example_names_its_source() -> None:
    assert {e["source"] for e in _EXAMPLES} == set(_DATA["sources"])
    assert all(e["rule"] and e["file"] and e["family"] for e in _EXAMPLES)


_NEAR_MISSES = [
    *_DATA["negatives"],
    'if password == confirm:',
    '"admin" == role',
    'get_secret("db-password")',
    'std::string name("Alice");',
    'char buffer[32] = "hello";',
    'NSString *title = @"Settings";',
    "<password>${DB_PASSWORD}</password>",
    "<keyPassword>changeit</keyPassword>",
    "<secretName>prod-db</secretName>",
    "db_key = user_id",
    'client_key: "primary"',
    "contraseña: olvidada",
    "Version 12345678:abcdefghijklmnopqrstuvwxyzabcdefghi done",
    "AC power adapter, model ACE9-220",
    "AWS account: see the console",
    "account_id = 0",
    "client_id = 'my-app'",
    'value = "The quick brown fox jumps over the lazy dog"',
    'path = "/usr/local/lib/python3.11/site-packages/foo"',
    'mime = "application/vnd.openxmlformats-officedocument"',
    'digest = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"',
    "https://api.softlayer.com/rest/v3/SoftLayer_Account.json",
]


@pytest.mark.parametrize("text", _NEAR_MISSES)
def test_near_miss_is_left_alone(text: str) -> None:
    assert find_secrets(text) == [], redact_secrets(text)
