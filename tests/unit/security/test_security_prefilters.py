"""The fast paths of redaction find exactly what the plain patterns find.

Each speed-up (literal-anchored alternations, byte-view prefilters, rules
rewritten to start with a literal) is compared with the straightforward
definition it replaces, on generated text dense in near-misses.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenttui.security import context_rules, crypto_keys, find_secrets, redact_secrets
from agenttui.security.anchored import AnchoredPattern
from agenttui.security.crypto_keys import _seed_phrases_in, bip39_words, find_seed_phrases, find_wallet_keys
from agenttui.security.secret_patterns import PROVIDER_RULES
from tests.unit.security.secret_corpus import PROVIDERS, Gen, base58check, build_corpus, complete_mnemonic

BIP39 = sorted(bip39_words())


def _fragments(*parts: str):
    """Text made of the given fragments (and a little noise), densely."""
    return st.lists(
        st.one_of(st.sampled_from(parts), st.text(alphabet="aZ9 _-.:=\n\t", max_size=3)),
        max_size=40,
    ).map("".join)


def _same(pattern: AnchoredPattern, text: str) -> None:
    got = [(m.start(), pattern.end(m), m.groupdict()) for m in pattern.finditer(text)]
    want = [(m.start(), m.end(), m.groupdict()) for m in pattern.as_one_regex().finditer(text)]
    for (_, _, g), (_, _, w) in zip(got, want, strict=False):  # unequal lengths fail the assert below
        g.pop("_end", None)
        w.pop("_end", None)
    assert got == want


ASSIGN_PARTS = (
    "pass", "password", "pwd", "sandi", "secret", "token", "key", "auth", "session",
    "cookie", "sig", "seed", "mnemonic", "cred", "_", ".", "-", '"', "'", "]", " ", "=",
    ":", ":=", "=>", "==", "::", "://", "Abc123xyz", '"v a l"', "'q'", ";", "(", "\n",
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_fragments(*ASSIGN_PARTS))
def test_anchored_assignment_scan_equals_the_alternation(text):
    _same(context_rules._ASSIGN, text.lower())


PROSE_PARTS = (
    "password", "passwd", "passcode", "passphrase", "pass", "sandi", "private key",
    "secret key", "api key", "access token", "auth token", "token", "nya", "ku", " ",
    " is ", " was ", " adalah ", " itu ", ":", " for the ", "wifi", "Tr0ub4dor&3", "x",
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_fragments(*PROSE_PARTS))
def test_anchored_prose_scan_equals_the_alternation(text):
    _same(context_rules._PROSE, text.lower())


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(_fragments("-u", "--user", "-b", "--cookie", " ", "'", '"', "me:pw", "a=b", "-", ":"))
def test_anchored_flag_scans_equal_the_alternations(text):
    _same(context_rules._CURL_USER, text)
    _same(context_rules._COOKIE_FLAG, text.lower())


def test_anchors_that_would_change_the_meaning_are_refused():
    with pytest.raises(ValueError):
        AnchoredPattern({"pass": "", "password": ""}, "x")  # prefix of another
    with pytest.raises(ValueError):
        AnchoredPattern({"abab": ""}, "x")  # overlaps itself


# --- seed phrases: prefilter + regions vs. the exact scan over all text ------

SHORT_BIP39 = [w for w in BIP39 if len(w) == 3]
SEPARATORS = (" ", "  ", ",", ", ", "\n", " 1. ", " 12) ", " 3:", "\u00a0", "\u3000", "\t")
NOISE = (
    "the", "a", "is", "abandonment", "Abandon", "(", ";", "-", "é", "😀", "9", "7.", "zzz", "x.",
    "\u2003", "ab", "of",
)
_seed_like_run = st.tuples(
    st.lists(st.sampled_from(SHORT_BIP39 + BIP39[:30]), min_size=10, max_size=14),
    st.sampled_from(SEPARATORS),
).map(lambda t: t[1].join(t[0]))
_seed_text = st.lists(
    st.one_of(_seed_like_run, st.sampled_from(NOISE), st.sampled_from(SEPARATORS)), max_size=12
).map(" ".join)


def _exact_seeds(text: str) -> list:
    return list(_seed_phrases_in(text, 0, len(text)))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(_seed_text)
def test_seed_prefilter_finds_what_the_exact_scan_finds(text):
    assert list(find_seed_phrases(text, text)) == _exact_seeds(text)


def test_shortest_possible_seed_phrase_is_found():
    phrase = " ".join(complete_mnemonic(SHORT_BIP39[:11], SHORT_BIP39))
    text = "x\n" + phrase + "\ny"  # 47 characters: the region minimum
    assert [text[s:e] for s, e, *_ in find_seed_phrases(text, text)] == [phrase]


@pytest.mark.parametrize(
    "sep",
    [" ", ", ", "\n", "\u00a0", "\u3000", " 1. ", "\t"],
)
def test_seed_phrase_with_any_separator_is_found(sep):
    words = complete_mnemonic(BIP39[100:111])
    text = f"Seed: {sep.join(words)} (keep it safe)."
    assert [c[2] for c in find_seed_phrases(text, text)] == ["seed_phrase"]
    assert _exact_seeds(text) == list(find_seed_phrases(text, text))


def test_seed_phrase_inside_ordinary_prose_is_found():
    prose = "The user prefers short answers, uses Neovim, and forgot his password. " * 50
    seed = " ".join(complete_mnemonic(BIP39[500:523]))
    text = prose + seed + " " + prose
    assert [text[s:e] for s, e, *_ in find_seed_phrases(text, text)] == [seed]


# --- WIF / xprv: alphanumeric-run scan vs. the class-led regex --------------

_WIF_REGEX = re.compile(r"[5KL9c](?<![A-Za-z0-9][5KL9c])[1-9A-HJ-NP-Za-km-z]{50,51}+(?![A-Za-z0-9])")


def _wif_reference(text: str) -> list:
    out = []
    for m in _WIF_REGEX.finditer(text):
        payload = crypto_keys.base58check_decode(m.group())
        if payload and payload[0] in (0x80, 0xEF) and len(payload) in (33, 34):
            out.append((*m.span(), "wif_private_key", crypto_keys.PROVIDER))
    return out


def _wifs(seed: int) -> list[str]:
    g = Gen(seed)
    keys = []
    for version in (0x80, 0xEF):
        for suffix in (b"", b"\x01"):
            keys.append(base58check(bytes([version]) + g.r.randbytes(32) + suffix))
    return keys


WIF_PARTS = (*_wifs(1), "x", "_", "-", " ", "é", "0", "A" * 51)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WIF_PARTS), max_size=12).map("".join))
def test_wif_scan_equals_the_regex(text):
    got = [c for c in find_wallet_keys(text, text) if c[2] == "wif_private_key"]
    assert got == _wif_reference(text)


def test_testnet_and_mainnet_wif_are_found_public_addresses_are_not():
    for key in _wifs(7):
        assert [m.kind for m in find_secrets(f"key {key}.")] == ["wif_private_key"]
    text = "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"
    assert redact_secrets(text) == text


# --- provider rules rewritten to start with a literal -----------------------

_OLD_PROVIDER_PATTERNS = {
    "stripe_key": (re.compile(r"[sr]k_(?<![A-Za-z0-9][sr]k_)(?:live|test)_[A-Za-z0-9]{16,}+"), 0),
    "azure_storage_key": (
        re.compile(r"(?:AccountKey|SharedAccessKey|AccessKey)=([A-Za-z0-9+/]{30,}+={0,2})"),
        1,
    ),
    "azure_sas_signature": (re.compile(r"[?&;]sig=([A-Za-z0-9%+/=]{20,}+)"), 1),
}


def _rule_spans(rule, text: str) -> list[tuple[int, int]]:
    return [(m.start(rule.group) - rule.lead, m.end(rule.group)) for m in rule.regex.finditer(text)]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    _fragments(
        "sk_live_", "rk_test_", "xsk_live_", "_sk_test_", "k_live_", "AccountKey=",
        "SharedAccessKey=", "AccessKey=", "Key=", "?sig=", "&sig=", ";sig=", "sig=",
        "Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3", "==", "%2F", "+/",
    )
)
def test_rewritten_provider_rules_match_like_the_originals(text):
    for rule in PROVIDER_RULES:
        if rule.kind in _OLD_PROVIDER_PATTERNS and "whsec" not in rule.regex.pattern:
            old, group = _OLD_PROVIDER_PATTERNS[rule.kind]
            assert _rule_spans(rule, text) == [m.span(group) for m in old.finditer(text)]


def test_every_hint_is_implied_by_its_rule():
    """A family hint that missed a member's match would silently drop recall."""
    g = Gen(3)
    texts = [s.text for s in build_corpus()] + [make(g) for _, make in PROVIDERS.values()]
    checked = 0
    for rule in PROVIDER_RULES:
        if rule.hint is None:
            continue
        for text in texts:
            for m in rule.regex.finditer(text):
                checked += 1
                assert rule.hint.search(text, m.start() - rule.lead, m.end()), (rule.kind, text[:80])
    assert checked >= 50
