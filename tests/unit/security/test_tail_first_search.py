"""The curl rules' tail-first search finds what their regex's `search` finds.

gitleaks' `curl-auth-user` and `curl-auth-header` read up to five lines past
`curl` for the flag; `tail_first_search` looks for the flag's part first and
skips a `curl` that has none in reach. The matches (spans and groups) must be
those of `Pattern.search` at any `pos` and `endpos`.
"""

from __future__ import annotations

import random
import re

from agenttui.security import gitleaks_scan
from agenttui.security.tail_first_search import tail_first_search

_PIECES = (
    "curl", "curl ", "xcurl", "CURL", " -u ", "-u", " --user ", "--user=", " -H ", "--header", " --header=",
    "\n", "\n\n", "\n\n\n", "\r\n", "\r", "\n\r", " ", "\t", "user:pass", "'ab:cdef'", '"abc:defg"',
    '"Authorization: Bearer abcdefghij123"', "'Authorization: Basic YWJjZGVmZ2g='", '"X-Api-Key: 0123456789abcdef"',
    "abc", ":", "$A:${B}", "https://e.com", "'", '"', "-d 'x'", "\\\n",
)


def _curl_rules() -> list[gitleaks_scan._Rule]:
    return [r for r in gitleaks_scan.compiled().rules if r.id in ("curl-auth-user", "curl-auth-header")]


def test_only_the_curl_rules_have_the_shape() -> None:
    shaped = [r.id for r in gitleaks_scan.compiled().rules if tail_first_search(r.regex) is not None]
    assert sorted(shaped) == ["curl-auth-header", "curl-auth-user"]


def test_same_matches_as_search_on_random_curl_text() -> None:
    rng = random.Random(20260601)
    found = 0
    for _ in range(3000):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 60)))
        for rule in _curl_rules():
            fast = tail_first_search(rule.regex)
            assert fast is not None
            for _ in range(2):
                pos = rng.randint(-2, len(text))
                endpos = rng.randint(pos, len(text) + 3)
                want, got = rule.regex.search(text, pos, endpos), fast(text, pos, endpos)
                assert (want is None) == (got is None), (rule.id, text, pos, endpos)
                if want is not None and got is not None:
                    assert want.regs == got.regs, (rule.id, text, pos, endpos)
                    found += 1
    assert found > 100  # the comparison is not only of misses


def test_the_flag_five_lines_on_and_blank_lines_counted_as_the_regex_counts_them() -> None:
    for rule in _curl_rules():
        fast = tail_first_search(rule.regex)
        assert fast is not None
        for breaks in range(1, 14):
            for line_end in ("\n", "\n\n", "\r\n", "\n\r\n", "\n\n\n"):
                text = "curl x" + line_end * breaks + ' -u ab:cdef -H "Authorization: Bearer abcdefghij"\n'
                want, got = rule.regex.search(text, 0, len(text)), fast(text, 0, len(text))
                assert (want is None) == (got is None) and (want is None or want.regs == got.regs)  # type: ignore[union-attr]


def test_reach_is_what_the_lines_part_takes() -> None:
    rule = _curl_rules()[0]
    fast = tail_first_search(rule.regex)
    lines = re.compile(r"(?:.*|.*(?:[\r\n]{1,2}.*){1,5})")
    rng = random.Random(7)
    for _ in range(20000):
        text = "".join(rng.choice(("\n", "\r", "a", "\n\n", " ")) for _ in range(rng.randint(0, 16)))
        assert fast.__self__._in_reach(text, 0, len(text)) == (lines.fullmatch(text) is not None), text  # type: ignore[attr-defined]
