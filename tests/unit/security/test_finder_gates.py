"""Finders told which needles occur (the keyword pass) find what they find untold."""

from __future__ import annotations

import pytest

from agenttui.security import gitleaks_scan
from agenttui.security.command_rules import find_login_passwords, find_mysql_passwords
from agenttui.security.context_rules import find_flags, find_headers
from agenttui.security.prose_rules import find_aws_secrets, find_wallet_hex_keys
from agenttui.security.redaction import _needles, _views, keyword_pass

_AWS_SECRET = "GTd7FguoV8FWnFbB0JxXujr4qqaaABvvLOzAxzXM"  # 40 random characters
_HEX = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
TEXTS = [
    f"AKIAQ7RZ2MNB4KXW6JDA {_AWS_SECRET}",
    f"ASIAQ7RZ2MNB4KXW6JDA and then {_AWS_SECRET}",
    f"aws: {_AWS_SECRET}",
    f"my secret access key is {_AWS_SECRET}",
    f"Secret_Key {_AWS_SECRET}",
    f"the laws of {_AWS_SECRET}",
    f"wallet {_HEX}",
    f"private key: 0x{_HEX}",
    f"kunci privat dompet saya {_HEX}",
    f"dompet: {_HEX}",
    f"seed {_HEX}",
    f"privkey={_HEX} and the wallet {_HEX[::-1]}",
    f"Authorization: Bearer {_AWS_SECRET}",
    f"curl -H 'authorization: token {_AWS_SECRET}'",
    f"bearer {_AWS_SECRET}",
    "Cookie: session=9f8a7b6c5d4e3f2a1b0c",
    "curl --cookie 'sid=9f8a7b6c5d4e3f2a1b0c' https://x",
    "curl -b 'sid=9f8a7b6c5d4e3f2a1b0c' https://x",
    f"X-Api-Key: {_AWS_SECRET}",
    f"x-auth-token: {_AWS_SECRET} and max-width",
    "mytool --password hunter22x --verbose",
    f"cli --api-key={_AWS_SECRET}",
    "curl -u admin:s3cr3tPw https://x",
    "curl --user admin:s3cr3tPw https://x",
    "curl -U admin:s3cr3tPw https://x",
    "mysql -u root -pS3cretPw9 db",
    "mariadb-dump -u root -p 'S3cret Pw9' db",
    "echo $PW | docker login -u me -p s3cr3tPw9 registry.example",
    "podman login --username me -p s3cr3tPw9 quay.io",
    "helm registry login -p s3cr3tPw9 host",
    "oras login -u me -p s3cr3tPw9 host and nerdctl login -p Pw9s3cr3t",
]


_FINDERS = [
    find_aws_secrets, find_wallet_hex_keys, find_headers, find_flags, find_mysql_passwords, find_login_passwords,
]


@pytest.mark.parametrize("finder", _FINDERS)
def test_same_candidates_with_the_keyword_pass(finder) -> None:  # type: ignore[no-untyped-def]
    found_any = False
    for text in TEXTS:
        _, _, lowered, lowered_bytes = _views(text)
        _, found = keyword_pass(lowered_bytes, gitleaks_scan.compiled(_needles()[1]))
        untold = list(finder(text, lowered))
        assert list(finder(text, lowered, found)) == untold, text
        found_any = found_any or bool(untold)
    assert found_any
