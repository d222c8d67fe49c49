"""The redaction pipeline's cheaper bookkeeping finds exactly what the plain form finds.

- `starts_per_rule` groups keyword hits by keyword before handing them to rules:
  the same starts per rule, and the rules in the order of their first hit (the
  order `find_rule_matches` judges them in);
- `_url_password_only` searches for the userinfo from just before the first
  "://" of a match, not from its start;
- `_extend_long` joins extended spans in one pass instead of sorting again.
"""

from __future__ import annotations

import random
import re

from agenttui.security import gitleaks_scan
from agenttui.security.gitleaks_scan import _URL_USERINFO, _url_password_only, starts_per_rule
from agenttui.security.redaction import _extend_long, _merge, _merge_noting_long


def _hit_by_hit(rules_of: tuple[tuple[int, ...], ...], hits: list[tuple[int, int]]) -> dict[int, set[int]]:
    per_rule: dict[int, set[int]] = {}
    for k, start in hits:
        for r in rules_of[k]:
            per_rule.setdefault(r, set()).add(start)
    return per_rule


def test_starts_per_rule_keeps_starts_and_first_hit_order() -> None:
    rng = random.Random(3)
    for _ in range(300):
        n_rules = rng.randint(1, 12)
        rules_of = tuple(tuple(rng.sample(range(n_rules), rng.randint(0, min(3, n_rules)))) for _ in range(8))
        hits = [(rng.randrange(8), rng.randrange(200)) for _ in range(rng.randint(0, 40))]
        want = _hit_by_hit(rules_of, hits)
        got = starts_per_rule(rules_of, hits)
        assert list(got.items()) == list(want.items())


def test_starts_per_rule_on_the_real_rules() -> None:
    c = gitleaks_scan.compiled()
    text = "ghp_" + "a1B2" * 9 + " curl -u user:pw https://x ghp_" + "Z9" * 18 + " xoxb-1-2-abc sk_live_" + "q" * 24
    hits = gitleaks_scan.keyword_hits(text.lower().encode("latin-1"), c)
    assert hits
    assert list(starts_per_rule(c.rules_of, hits).items()) == list(_hit_by_hit(c.rules_of, hits).items())


def test_url_password_only_searches_as_from_the_match_start() -> None:
    rng = random.Random(5)
    letters = "0+.-9a"  # mostly no letter: a search started inside the scheme finds no match there
    checked = 0
    for _ in range(3000):
        parts = []
        for _ in range(rng.randint(1, 3)):
            scheme = rng.choice("ab") + "".join(rng.choice(letters) for _ in range(rng.randint(0, 24)))
            user = "".join(rng.choice("ux:/") for _ in range(rng.randint(0, 4)))
            password = "".join(rng.choice("pw@:") for _ in range(rng.randint(0, 4)))
            parts.append(
                rng.choice(["", "x", "-", ":"])
                + scheme
                + rng.choice(["://", ":/", "://"])
                + user
                + rng.choice([":", ""])
                + password
                + rng.choice(["@", ""])
                + "host"
            )
        text = rng.choice(["", " ", "see "]) + "".join(parts)
        for m in re.finditer(r"\S+", text):
            want_u = _URL_USERINFO.search(text, m.start(), m.end()) if "://" in m.group() else None
            want = want_u.span(1) if want_u else (m.start(), m.end())
            assert _url_password_only(text, m, m.start(), m.end()) == want, text
            checked += want_u is not None
    assert checked > 300  # the narrowed search was exercised where it finds a password


def test_extend_long_joins_as_a_full_merge_does() -> None:
    rng = random.Random(7)
    for _ in range(500):
        # Value characters with a rare space: a long span's run reaches into the
        # spans after it, and past the end of some of them.
        text = "".join(rng.choice("aZ9+=_" * 5 + " .") for _ in range(rng.randint(1, 700)))
        candidates = []
        pos = rng.randrange(20)
        while pos < len(text):
            end = min(len(text), pos + rng.choice([2, 5, 40, 100, 120]))
            candidates.append((pos, end, rng.choice("abc"), rng.randint(0, 3)))
            pos = end + rng.randint(1, 30)
        merged = _merge(candidates)
        want = _extend_long_by_full_merge(text, [list(s) for s in merged])
        assert _extend_long(text, [list(s) for s in merged]) == want
        # With the long spans noted by the merge, as redaction calls it.
        assert _extend_long(text, *_merge_noting_long(candidates)) == want


def _extend_long_by_full_merge(text: str, spans: list[list[object]]) -> list[list[object]]:
    """What `_extend_long` did before: extend, then merge all over again."""
    from agenttui.security.redaction import _LONG_SPAN, _VALUE_RUN

    for span in spans:
        start, end = span[0], span[1]
        assert isinstance(start, int) and isinstance(end, int)
        if end - start < _LONG_SPAN or end >= len(text):
            continue
        run = _VALUE_RUN.match(text, end - 1)
        if run is not None and run.end() > end:
            span[1] = run.end()
    return _merge(tuple(s) for s in spans)  # type: ignore[misc]
