"""Literal prefixes of a regex: what every match must start with.

Used to gate rules by the keyword pass (`gitleaks_scan.keyword_hits`): a rule
whose every match starts with one of a few literals of ≥ 3 characters need not
run on a text in which none of them occurs. Also used by
scripts/generate_gitleaks_rules.py to tell anchored rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import regex_tree as C


def _prefixes(items: Sequence[C.Node], limit: int = 64) -> list[str] | None:
    out = _prefixes_full(items, limit)
    return None if out is None else out[0]


def _prefixes_full(items: Sequence[C.Node], limit: int) -> tuple[list[str], bool] | None:
    """(prefixes, whether they span the whole of `items`), or None."""
    outs = [""]
    for op, av in items:
        if op == C.AT:
            continue  # \b, ^: zero-width
        if op == C.LITERAL:
            outs = [o + chr(av) for o in outs]
            continue
        if op == C.IN and len(av) <= 8 and all(o == C.LITERAL for o, _ in av):
            outs = [o + chr(v) for o in outs for _, v in av]
        elif op == C.SUBPATTERN:
            sub = _prefixes_full(av[3], limit)
            if sub is None:
                return None
            outs = [o + s for o in outs for s in sub[0]]
            if not sub[1] or any(s == "" for s in sub[0]):
                return outs, False  # the subpattern goes on (or may end early): stop here
        elif op == C.BRANCH:
            alts: list[str] = []
            whole = True
            for alt in av[1]:
                sub = _prefixes_full(alt, limit)
                if sub is None:
                    return None
                alts.extend(sub[0])
                whole = whole and sub[1]
            outs = [o + s for o in outs for s in alts]
            if not whole:
                return (outs, False) if len(outs) <= limit else None
        else:
            return outs, False
        if len(outs) > limit:
            return None
    return outs, True


def literal_prefixes(pattern: str, flags: int = 0) -> list[str] | None:
    """Literal strings every match starts with (lower-cased under IGNORECASE), or None."""
    parsed, all_flags = C.parse(pattern, flags)
    out = _prefixes(parsed)
    if out is None:
        return None
    if all_flags & re.IGNORECASE:
        out = [o.lower() for o in out]
    return out


def gate_needles(pattern: str, flags: int = 0, min_len: int = 3) -> tuple[str, ...] | None:
    """Lower-case needles that gate `pattern`, or None when it cannot be gated."""
    pre = literal_prefixes(pattern, flags)
    if not pre or any(len(p) < min_len for p in pre):
        return None
    return tuple(sorted({p.lower() for p in pre}))
