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


def start_literals(pattern: str, flags: int = 0, max_class: int = 16) -> list[str] | None:
    """Strings every match of a case-sensitive `pattern` starts with, reading further than
    `literal_prefixes`: zero-width assertions are passed (they only restrict), a class of
    at most `max_class` characters is expanded, and so is the first character of a
    repeat of one. `SK(?<![A-Za-z0-9]SK)[0-9a-f]{32}` starts with one of 'SK0' … 'SKf'
    (its `literal_prefixes` is 'SK', which lower-cased is a word part, not a needle).
    None under IGNORECASE, or when the expansion would exceed 64 strings."""
    parsed, all_flags = C.parse(pattern, flags)
    if all_flags & re.IGNORECASE:
        return None
    outs = [""]
    for op, av in parsed:
        if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            continue
        if op == C.LITERAL:
            outs = [o + chr(av) for o in outs]
            continue
        node = (op, av)
        last = False
        if op in C.REPEATS and av[0] >= 1 and len(av[2]) == 1:
            node, last = av[2][0], True  # its first character, then the rest is unknown
        chars = _class_chars(node, max_class)
        if chars is None:
            break
        outs = [o + c for o in outs for c in chars]
        if len(outs) > 64:
            return None
        if last:
            break
    return outs


def _class_chars(node: C.Node, limit: int) -> list[str] | None:
    """The characters a literal or a class of literals and ranges matches, if few."""
    op, av = node
    if op == C.LITERAL:
        return [chr(av)]
    if op != C.IN:
        return None
    chars: list[str] = []
    for member, value in av:
        if member == C.LITERAL:
            chars.append(chr(value))
        elif member == C.RANGE and value[1] - value[0] < limit:
            chars.extend(map(chr, range(value[0], value[1] + 1)))
        else:
            return None  # a negation or a category
    return sorted(set(chars)) if len(set(chars)) <= limit else None
