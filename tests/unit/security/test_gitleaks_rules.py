"""Rules generated from gitleaks' config: conversion, examples, prefilter.

Test data: gitleaks' own rule examples (tests/unit/security/data/
gitleaks_examples.json, extracted by scripts/extract_gitleaks_examples.py
from cmd/generate/config/rules/*.go; MIT licence, see the file's "source").
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from agenttui.security import find_secrets, gitleaks_rules, gitleaks_scan
from agenttui.security.redaction import ascii_lower

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = json.loads((Path(__file__).parent / "data/gitleaks_examples.json").read_text())
RULE_IDS = {r["id"] for r in gitleaks_rules.RULES}
# Examples of rules that are in the Go sources but not in config/gitleaks.toml,
# or that agenttui dropped on purpose (gitleaks_rules.DROPPED says why).
IN_CONFIG = {rid: ex for rid, ex in EXAMPLES["rules"].items() if rid in RULE_IDS}

sys.path.insert(0, str(ROOT / "scripts"))
import generate_gitleaks_rules as gen  # noqa: E402


def _kinds(text: str) -> set[str]:
    """Ids of the generated rules that match (Nosey Parker and Kingfisher rules may share a kind name)."""
    return {rule.id for _, _, rule in gitleaks_scan.find_rule_matches(text, ascii_lower(text))}


def test_generated_module_keeps_licence_and_source():
    doc = gitleaks_rules.__doc__ or ""
    assert "MIT License" in doc and "Zachary Rice" in doc and gitleaks_rules.SOURCE_COMMIT in doc
    assert len(gitleaks_rules.RULES) >= 200
    assert set(gitleaks_rules.DROPPED) == {"generic-api-key", "pkcs12-file"}


@pytest.mark.parametrize("rule_id", sorted(IN_CONFIG))
def test_rule_finds_gitleaks_true_positives_and_not_its_false_positives(rule_id):
    ex = IN_CONFIG[rule_id]
    missed = [tp for tp in ex["tps"] if rule_id not in _kinds(tp)]
    # The one documented exception: agenttui treats AWS-style "…EXAMPLE" values as placeholders.
    missed = [tp for tp in missed if "EXAMPLE" not in tp]
    assert not missed
    assert not [fp for fp in ex["fps"] if rule_id in _kinds(fp)]


def test_whole_redactor_recall_on_gitleaks_examples():
    tps = [tp for ex in IN_CONFIG.values() for tp in ex["tps"] if "EXAMPLE" not in tp]
    found = sum(bool(find_secrets(tp)) for tp in tps)
    assert len(tps) >= 200
    assert found == len(tps)


@pytest.mark.parametrize(
    ("go", "py"),
    [
        (r"\b(p8e-(?i)[a-z0-9]{32})(?:x|$)", r"\b(p8e-(?i:[a-z0-9]{32}))(?:x|$)"),
        (r"(a(?i)b|c)d", r"(a(?i:b)|(?i:c))d"),
        (r"x(?i)y", r"x(?i:y)"),
        (r"\b(sha256~[\w-]{43})(?:[^\w-]|\z)", r"\b(sha256~[\w-]{43})(?:[^\w-]|\Z)"),
        (r"\b(pat[[:alnum:]]{14})", r"\b(pat[A-Za-z0-9]{14})"),
    ],
)
def test_re2_syntax_is_converted(go, py):
    assert gen.go_to_python(go) == py
    re.compile(py)


def test_generic_prefix_is_cut_and_rule_anchored_at_its_keyword():
    go = r"""(?i)[\w.-]{0,50}?(?:adafruit)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|:)([a-z0-9_-]{32})"""
    py, cut = gen.convert(go)
    assert cut and py.startswith("(?i)(?:adafruit)")
    assert gen.anchored(py, ["adafruit"])
    assert gen.anchored(r"\b(pat[A-Za-z0-9]{14})", ["pat"]) is not False  # literal prefix 'pat' is a keyword
    assert not gen.anchored(r"[a-z]{3}x", ["x"])


def test_fallback_keyword_scan_equals_the_automaton():
    c = gitleaks_scan.compiled()
    text = " ".join(EXAMPLES["rules"]["stripe-access-token"]["tps"]) + " ghp_ xoxb- AKIA curl hvs. glpat-"
    view = ascii_lower(text).encode("latin-1", "replace")
    assert sorted(gitleaks_scan.keyword_hits(view, c)) == sorted(gitleaks_scan.find_loop_hits(view, c.keywords))


def test_keys_of_user_password_pairs_are_kept():
    text = "curl --user deploy:Zq8vW2nB7xK1 https://ci.example.org/api"
    out = [text[m.start : m.end] for m in find_secrets(text)]
    assert out == ["Zq8vW2nB7xK1"]
