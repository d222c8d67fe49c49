"""Secret redaction: corpus recall/FP, each provider, output shape."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenttui.security import SecretMatch, contains_secret, find_secrets, redact_secrets
from tests.unit.security.corpus_report import leaked_fragments, redaction_figures
from tests.unit.security.secret_corpus import PROVIDERS, Gen, build_corpus

RECALL_MIN = 0.98
FP_MAX = 0.01


def test_corpus_recall_and_false_positive_rate():
    fig = redaction_figures()
    print(
        f"\nredaction: recall {fig.recall:.4f} over {fig.positives} positives, "
        f"FP rate {fig.fp_rate:.4f} over {fig.negatives} negatives"
    )
    assert fig.positives >= 300 and fig.negatives >= 200
    assert fig.recall >= RECALL_MIN, [s.text[:80] for s, _ in fig.missed[:10]]
    assert fig.fp_rate <= FP_MAX, [o[:80] for _, o in fig.false_positives[:10]]


def test_corpus_from_another_seed_holds_the_same_bars():
    fig = redaction_figures(seed=99)
    assert fig.recall >= RECALL_MIN
    assert fig.fp_rate <= FP_MAX


@pytest.mark.parametrize("name", sorted(PROVIDERS))
def test_each_provider_is_found_with_its_kind(name):
    kind, make = PROVIDERS[name]
    g = Gen(hash(name) & 0xFFFF)
    for template in ("{s}", "token {s} here", "X={s}\n", '"{s}"'):
        secret = make(g)
        text = template.format(s=secret)
        matches = find_secrets(text)
        assert [m.kind for m in matches] == [kind], (text, matches)
        m = matches[0]
        assert text[m.start : m.end] == secret
        out = redact_secrets(text)
        assert out == text.replace(secret, f"[REDACTED:{kind}]")


def test_positive_corpus_leaks_no_fragment_and_is_idempotent():
    for s in build_corpus():
        out = redact_secrets(s.text)
        if s.positive:
            assert not leaked_fragments(s, out), (s.kind, out)
            assert "[REDACTED:" in out
        assert redact_secrets(out) == out, (s.text, out)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("password=hunter2", "password=[REDACTED:password]"),
        ('"api_key": "a8F3kLm9Qz2Xw7Rt5Yp1"', '"api_key": "[REDACTED:api_key]"'),
        ("DB_PASSWORD='s3cr3t-Pw'", "DB_PASSWORD='[REDACTED:password]'"),
        ("postgres://app:Pa55w0rd@db:5432/x", "postgres://app:[REDACTED:url_password]@db:5432/x"),
        ("Authorization: Bearer abcDEF1234567890ghiJKL", "Authorization: Bearer [REDACTED:auth_header]"),
        ("  password: Tr0ub4dor&3\n", "  password: [REDACTED:password]\n"),
        ("my password is Tr0ub4dor&3.", "my password is [REDACTED:password]."),
    ],
)
def test_assignments_keep_the_key(text, expected):
    assert redact_secrets(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I forgot my password",
        "lupa password",
        "commit 3f786850e387550fdab836ed7e6dc881de23001b",
        "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "id 123e4567-e89b-42d3-a456-426614174000",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGk3Zm9vYmFyYmF6cXV4cXV1eHh5eXp6MTIzNDU2Nzg5 me@host",
        "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----",
        "0x52908400098527886E0F7030069857D2E4169EE7",
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
        "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
        "OPENAI_API_KEY=YOUR_API_KEY",
        "token: <token>",
        "password=xxx",
        "password: ***",
        "PASSWORD=changeme",
        "sk-...",
        "api_key=${API_KEY}",
        "export TOKEN=$GITHUB_TOKEN",
    ],
)
def test_leaves_ordinary_text_alone(text):
    assert redact_secrets(text) == text
    assert not contains_secret(text)


def test_private_key_block_is_redacted_whole_even_when_truncated():
    body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nq8fK2v0xR9z3Lw5TgB1mN4pQ7sY2uV8eH6jD0aW3\n"
    full = f"key:\n-----BEGIN PRIVATE KEY-----\n{body}-----END PRIVATE KEY-----\nend"
    assert redact_secrets(full) == "key:\n[REDACTED:private_key]\nend"
    cut = f"key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n{body}"
    out = redact_secrets(cut)
    assert "MIIEvQ" not in out and "q8fK2v" not in out


def test_wallet_secrets():
    # BIP39 test vector (trezor/python-mnemonic vectors.json): a valid checksum.
    seed = "legal winner thank year wave sausage worth useful legal winner thank yellow"
    assert redact_secrets(f"my seed: {seed}!") == "my seed: [REDACTED:seed_phrase]!"
    assert redact_secrets(seed) == "[REDACTED:seed_phrase]"  # standing alone
    eleven = " ".join(seed.split()[:11])
    assert redact_secrets(eleven) == eleven
    wif = "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ"  # textbook example key
    assert find_secrets(f"wif {wif}") == [SecretMatch("wif_private_key", 4, 4 + len(wif))]
    broken = wif[:-1] + ("K" if wif[-1] != "K" else "L")  # checksum fails
    assert redact_secrets(broken) == broken


def test_ordinary_bip39_words_survive():
    """Twelve dictionary words without a valid checksum are prose, even after 'seed:'."""
    words = "abandon ability able about above absent absorb abstract absurd abuse access accident"
    for text in (words, f"my seed: {words}", f"{words}\n", f"We met {words} yesterday."):
        assert redact_secrets(text) == text


def test_checksum_valid_twelve_words_in_running_prose_need_a_hint():
    seed = "legal winner thank year wave sausage worth useful legal winner thank yellow"
    running = f"Then {seed} was all he said."
    assert redact_secrets(running) == running  # 1 in 16 word lists pass a 4-bit checksum
    assert "legal" not in redact_secrets(f"my recovery phrase is {seed} ok")
    assert "legal" not in redact_secrets(f'words = "{seed}"')


def test_extra_patterns_from_config():
    text = "internal ticket token ACME-1234-SECRET and more"
    assert redact_secrets(text) == text
    assert redact_secrets(text, [r"ACME-\d{4}-[A-Z]+"]) == "internal ticket token [REDACTED:custom] and more"
    assert redact_secrets("pin=4242", [r"pin=(\d+)"]) == "pin=[REDACTED:custom]"
    # an invalid pattern is ignored rather than breaking a save
    assert redact_secrets(text, ["(unclosed"]) == text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_arbitrary_text_never_breaks_and_redaction_is_a_fixed_point(text):
    once = redact_secrets(text)
    assert redact_secrets(once) == once
    for m in find_secrets(text):
        assert 0 <= m.start < m.end <= len(text)


def test_security_package_never_imports_textual_or_rich():
    code = (
        "import sys, agenttui.security as s; s.redact_secrets('password=x1y2z3'); "
        "s.is_suspicious_note('hi'); "
        "print(any(m.split('.')[0] in ('textual', 'rich') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
