"""Seeks run only around long alphanumeric runs find what a whole-text scan finds."""

from __future__ import annotations

import random

from agenttui.security import gitleaks_scan, redaction
from agenttui.security.crypto_keys import alnum_view, find_wallet_keys
from agenttui.security.redaction import _needles


def _whole_text(c, lowered: str) -> list[tuple[int, list[int]]]:
    return [(r, [m.start() for m in rx.finditer(lowered)]) for r in c.seeking for rx in c.rules[r].seeks]


def _around_runs(c, lowered: str) -> list[tuple[int, list[int]]]:
    return list(gitleaks_scan._seek_starts(c, lowered, alnum_view(lowered.encode("latin-1", "replace"))))


def test_run_shaped_seeks_are_recognised() -> None:
    c = gitleaks_scan.compiled(_needles()[1])
    shapes, _ = gitleaks_scan._run_seeks(c)
    assert {rx.pattern for rx in shapes} >= {"ey[a-z0-9]{17}", r"s\.[a-z0-9]{24}"}


def test_same_starts_as_whole_text_scan() -> None:
    c = gitleaks_scan.compiled(_needles()[1])
    rng = random.Random(7)
    filler = "ab0s.ey k9f_-\nSKEY"
    texts = [
        "".join(rng.choice(filler) if rng.random() < 0.3 else rng.choice("0123456789abcdef")
                for _ in range(rng.randint(0, 300)))
        for _ in range(1500)
    ]
    # A vault-shaped match that ends on the 's' of the next one: a whole-text
    # scan does not start a match inside the previous one.
    texts.append("s." + "a" * 23 + "s.b" + "b" * 30)
    texts.append("x = 1\n" * 50 + "token eyabcdefghijklmnopq1234 and s.abcdefghijklmnopqrstuvwx\n")
    for text in texts:
        assert _around_runs(c, text) == _whole_text(c, text), text
    assert any(starts for _, starts in _whole_text(c, texts[-1]))


def _present(c, lowered: str):
    return redaction.keyword_pass(lowered.encode("latin-1", "replace"), c)[1]


def test_seeks_led_by_a_needle_are_tried_where_the_keyword_pass_found_it() -> None:
    """'password' and 'kind:' seeks start with needles of the keyword pass ('pass',
    'kind'): absent, no scan; located, a match at each of their starts. Either way the
    starts are a whole-text scan's."""
    c = gitleaks_scan.compiled(_needles()[1])
    needles = gitleaks_scan._seek_needles(c)
    assert {needles[rx] for r in c.seeking for rx in c.rules[r].seeks if rx.pattern.startswith(("password", "kind:"))} \
        == {"pass", "kind"}
    rng = random.Random(11)
    words = ["password", "passwd", "pass", " = ", ": ", "'", "\"", "=     \"", "kind:", "kind: secret", "secret", "\n",
             "x", "key", "token", "ey", "abcdefghijklmnopq12", " "]
    texts = ["".join(rng.choice(words) for _ in range(rng.randint(0, 60))) for _ in range(800)]
    texts += ["apiVersion: v1\nkind: Secret\ndata:\n  password: aGVsbG8=\n" * 3,
              "nothing here", "passwordpassword =     'x'\n" * 40 + "kind:kind: secret"]
    matched = 0
    for text in texts:
        lowered = text.lower()
        present = _present(c, lowered)
        assert "pass" not in present or "pass" in present.positions  # located: the path under test
        alnum = alnum_view(lowered.encode("latin-1", "replace"))
        whole = _whole_text(c, lowered)
        assert list(gitleaks_scan._seek_starts(c, lowered, alnum, present)) == whole, text
        matched += any(starts for _, starts in whole)
    assert matched > 50


def test_an_absent_needle_skips_its_seek_scan() -> None:
    c = gitleaks_scan.compiled(_needles()[1])
    lowered = 'password =     "hunter22"'  # (the seek wants five of [`'"\\s=] before a quote)
    # A (wrong) keyword pass that saw no 'pass': the seek is not run at all.
    starts = dict(gitleaks_scan._seek_starts(c, lowered, None, redaction.Present(set())))
    assert not any(starts.values())
    assert any(starts for _, starts in _whole_text(c, lowered))


def test_seek_runs_serve_the_wallet_keys() -> None:
    """The runs found once for the seeks give the wallet rules the same candidates."""
    c = gitleaks_scan.compiled(_needles()[1])
    key = "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ"  # WIF of the Bitcoin wiki's example
    for text in (f"wif: {key}\n", f"x {key} y {'a' * 30} z", "short words only", f"{key}{key}",
                 "xprv" + "9" * 107 + " and " + key):
        alnum = alnum_view(text.encode("latin-1", "replace"))
        runs = gitleaks_scan.seek_runs(c, alnum)
        assert runs is not None
        assert list(find_wallet_keys(text, text, None, alnum, runs)) == list(find_wallet_keys(text, text))
