"""The keyword pass only skips rules that could not have matched.

Gated runs (own provider rules and finders skipped when none of their needles
occurs) must find exactly what ungated runs find, on every corpus we have.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenttui.security import gitleaks_scan, redaction
from agenttui.security.literals import gate_needles, literal_prefixes
from tests.unit.security.secret_corpus import build_corpus
from tests.unit.security.test_provider_key_formats import POSITIVES

EXAMPLES = json.loads((Path(__file__).parent / "data/gitleaks_examples.json").read_text())


def _texts() -> list[str]:
    texts = [s.text for s in build_corpus()] + [t for t, _ in POSITIVES]
    texts += [t for ex in EXAMPLES["rules"].values() for t in ex["tps"] + ex["fps"]]
    return texts


@pytest.mark.slow
def test_gated_rules_find_what_ungated_rules_find():
    keywords = gitleaks_scan.compiled(redaction._needles()[1])
    for text in _texts():
        lowered = redaction.ascii_lower(text)
        _, found = redaction.keyword_pass(lowered.encode("latin-1", "replace"), keywords)
        assert list(redaction._provider_candidates(text, found)) == list(redaction._provider_candidates(text)), text
        assert list(redaction._context_candidates(text, lowered, found)) == list(
            redaction._context_candidates(text, lowered)
        ), text


def test_literal_prefixes():
    assert literal_prefixes(r"\b(?:AKIA|ASIA)[A-Z]{16}") == ["AKIA", "ASIA"]
    assert literal_prefixes(r"(?i)(?:Foo|bar)x") == ["foox", "barx"]
    assert literal_prefixes(r"[a-z]+x") == [""]
    assert gate_needles(r"gh[pousr]_[a-z]") == ("gho_", "ghp_", "ghr_", "ghs_", "ghu_")
    assert gate_needles(r"[0-9]{8}:AA") is None  # no literal start: never gated


def test_byte_view_keeps_offsets_and_non_ascii_values():
    token = "ghp_" + "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"
    text = f"密码是 {token} 😀, DB_PASSWORD=пароль2024\u3000ok"
    view = redaction.byte_view(text)
    assert len(view) == len(text) and max(map(ord, view)) < 256
    spans = {text[m.start : m.end] for m in redaction.find_secrets(text)}
    assert spans == {token, "пароль2024"}
    want = "密码是 [REDACTED:github_token] 😀, DB_PASSWORD=[REDACTED:password]\u3000ok"
    assert redaction.redact_secrets(text) == want


def test_present_needles_finds_needles_across_chunk_boundaries():
    needles = ("key", "pass", "api key", "--", "sshpass")
    base = bytearray(b"." * 300_000)
    # Each needle straddles a chunk boundary (4 KB, then chunks growing fourfold).
    for at, needle in ((4095, b"api key"), (4096 + 16384 - 2, b"sshpass"), (4096 * 21 - 1, b"--")):
        base[at : at + len(needle)] = needle
    view = bytes(base)
    want = {n for n in needles if n.encode() in view}
    assert want == {"api key", "key", "sshpass", "pass", "--"}
    assert gitleaks_scan.present_needles(view, needles) == want
    assert gitleaks_scan.present_needles(view[:4102], needles) == {"api key", "key"}
    assert gitleaks_scan.present_needles(b"", needles) == set()
    assert gitleaks_scan.present_needles(b"no needle here", needles) == set()


def test_views_are_byte_view_and_ascii_lower():
    texts = ["plain ascii PASSWORD=x", "Ünïcödé ÀÉÎÕÜ ×÷ ß ÿ µ İstanbul 密码 😀\u3000\u2003end"]
    texts.append("".join(map(chr, range(512))))
    for text in texts:
        view, view_bytes, lowered, lowered_bytes = redaction._views(text)
        assert view == redaction.byte_view(text)
        assert view_bytes == view.encode("latin-1")
        assert lowered == redaction.ascii_lower(view)
        assert lowered_bytes == lowered.encode("latin-1")
