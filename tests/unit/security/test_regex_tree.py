"""security/regex_tree.py parses what `re` parses, into the same tree.

The oracle is CPython's own parser (`re._parser`, private): the analyses
built on the tree (required literals of the injection rules, keyword gates of
the secret rules) must give the same answers they gave when they read that
parser's output. Checked on every rule agenttui ships, gitleaks' generated
ones included, and on syntax the rules do not use yet.
"""

from __future__ import annotations

import re

import pytest

from agenttui.security import gitleaks_rules, regex_tree
from agenttui.security.injection_patterns import PLAIN_RULES, TWO_STEP_RULES, WORD_RULES
from agenttui.security.secret_patterns import PROVIDER_RULES

sre = pytest.importorskip("re._parser", reason="the oracle is CPython's private regex parser")

SYNTAX = [
    r"(?i)\bfoo(?:bar|baz)+[a-c\d]{2,}?x|fo(q)",
    r"(?:a+b|a+c)", r"(?:ab|ac|ad)", r"(?:a|b|[cd]|e)", r"(?:a|[^b])", r"x(?:y)*z", r"(a)(?:b)?\1",
    r"[]a]", r"[a-]", r"[-a]", r"[^a]", r"[\b\d\w.-]", r"[\x41-\x5a\u00e9\0\12]", r"\x41\u00e9\U0001F600\101(a)\1",
    r"a{2}b{,3}c{1,}d{}e{x}f{3,2", r"a*?b+?c??d{1,2}?e*+f++g?+", r"(?>ab|cd)e", r"(?=ab)(?!cd)(?<=ef)(?<!gh)i",
    r"(?P<name>a)(?P=name)", r"(a)?(?(1)b|c)", r"(?#comment)a", r"(?s:a.b)(?-i:c)", r"(?x) a b # comment",
    r"^\A\Z$\B\s\S\W\D", r"\N{EM DASH}", r"(?:(?:a|b)c|(?:a|b)d)", r"(?:\bab|\bac)",
]


def _rule_patterns() -> list[tuple[str, int]]:
    out = [(p, 0) for _, p in WORD_RULES + PLAIN_RULES]
    out += [(p, 0) for _, a, t, _ in TWO_STEP_RULES for p in (a, t)]
    out += [(r.regex.pattern, r.regex.flags) for r in PROVIDER_RULES]
    out += [(r["regex"], re.ASCII) for r in gitleaks_rules.RULES]
    return out


def _from_sre(items: object) -> list[object]:
    return [_sre_node(op, av) for op, av in items]  # type: ignore[attr-defined]


def _sre_node(op: object, av: object) -> tuple[str, object]:
    name = op.name.lower()  # type: ignore[attr-defined]
    if name == "in":
        return name, [_sre_node(o, a) for o, a in av]  # type: ignore[attr-defined]
    if name == "at":
        return name, av.name.lower().removeprefix("at_")  # type: ignore[attr-defined]
    if name == "category":
        return name, av.name.lower().removeprefix("category_")  # type: ignore[attr-defined]
    if name == "subpattern":
        group, add, remove, body = av  # type: ignore[misc]
        return name, (group, add, remove, _from_sre(body))
    if name == "atomic_group":
        return name, _from_sre(av)
    if name in ("assert", "assert_not"):
        return name, (av[0], _from_sre(av[1]))  # type: ignore[index]
    if name == "branch":
        return name, (None, [_from_sre(b) for b in av[1]])  # type: ignore[index]
    if name in ("max_repeat", "min_repeat", "possessive_repeat"):
        return name, (av[0], av[1], _from_sre(av[2]))  # type: ignore[index]
    if name == "groupref":
        return name, None
    if name == "groupref_exists":
        return "other", None
    return name, av


def _plain(items: list[regex_tree.Node]) -> list[object]:
    return [_plain_node(op, av) for op, av in items]


def _plain_node(op: str, av: object) -> tuple[str, object]:
    if op in (regex_tree.SUBPATTERN,):
        group, add, remove, body = av  # type: ignore[misc]
        return op, (group, add, remove, _plain(body))
    if op == regex_tree.ATOMIC_GROUP:
        return op, _plain(av)  # type: ignore[arg-type]
    if op in (regex_tree.ASSERT, regex_tree.ASSERT_NOT):
        return op, (av[0], _plain(av[1]))  # type: ignore[index]
    if op == regex_tree.BRANCH:
        return op, (None, [_plain(b) for b in av[1]])  # type: ignore[index]
    if op in regex_tree.REPEATS:
        return op, (av[0], av[1], _plain(av[2]))  # type: ignore[index]
    if op in (regex_tree.GROUPREF, regex_tree.OTHER):
        return op, None
    return op, av


@pytest.mark.parametrize("pattern", SYNTAX)
def test_syntax_parses_as_re_does(pattern: str) -> None:
    want = sre.parse(pattern)
    got, flags = regex_tree.parse(pattern)
    assert _plain(got) == _from_sre(want)
    assert flags == want.state.flags


def test_every_shipped_rule_parses_as_re_does() -> None:
    patterns = _rule_patterns()
    assert len(patterns) > 300  # the gitleaks table is in
    for pattern, flags in patterns:
        want = sre.parse(pattern, flags)
        got, got_flags = regex_tree.parse(pattern, flags)
        assert _plain(got) == _from_sre(want), pattern
        assert got_flags == want.state.flags, pattern


def test_a_bad_pattern_fails_with_res_message() -> None:
    with pytest.raises(re.error, match="unterminated character set"):
        regex_tree.parse("[ab")
