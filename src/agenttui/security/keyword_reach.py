"""How far into a match its rule's keyword can start: the bound that lets a
windowed rule skip the parts of a window where no match can start.

A generated rule is searched in a window around each hit of its keywords
(`gitleaks_scan._windowed`). When every match of the rule starts with a
bounded-width prefix and then a literal run that holds one of the keywords
(`(?:.{0,24}[=:]\\s{0,8})?(xapp-…)`, `[a-z0-9]{14}\\.atlasv1\\.…`), a match
holds a keyword hit at most `reach` characters after its start. So no match
starts more than `reach` before the window's first hit, nor after its last:
those stretches need no match attempt (a class-led pattern costs one at every
position, and such rules were most of the generated rules' time on
secret-dense text).

Sound by construction: every node before the literal run must have a bounded
width; a group on the way is looked into only when it is not optional (it is
entered at its start, a plain or capturing group of the top-level sequence).
Anything else yields None (the whole window is searched).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import regex_tree as C
from .required_literals import exact


def _width(node: C.Node) -> int | None:
    """The most characters `node` can match, or None when unbounded or unknown."""
    op, av = node
    if op in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN):
        return 1
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return 0
    if op == C.SUBPATTERN:
        return _seq_width(av[3])
    if op == C.ATOMIC_GROUP:
        return _seq_width(av)
    if op == C.BRANCH:
        widths = [_seq_width(b) for b in av[1]]
        return None if any(w is None for w in widths) else max(widths)  # type: ignore[type-var]
    if op in C.REPEATS:
        lo, hi, sub = av
        w = _seq_width(sub)
        if w is None or hi == C.UNBOUNDED:
            return None if w != 0 else 0
        return int(hi) * w
    return None  # GROUPREF, OTHER


def _seq_width(seq: Sequence[C.Node]) -> int | None:
    total = 0
    for node in seq:
        w = _width(node)
        if w is None:
            return None
        total += w
    return total


def _chars(node: C.Node) -> frozenset[str] | None:
    """The (lowered) characters a one-character node matches, if few."""
    if node[0] not in (C.LITERAL, C.IN):
        return None
    got = exact(node)
    if not got or any(len(c) != 1 or not c.isascii() for c in got):
        return None
    return frozenset(got)


def _repeat_first(node: C.Node) -> frozenset[str] | None:
    """The characters a repeat of one character node starts with, when it repeats at least once."""
    if node[0] not in C.REPEATS or node[1][0] < 1 or len(node[1][2]) != 1:
        return None
    return _chars(node[1][2][0])


def _run_reach(run: list[frozenset[str]], keywords: frozenset[str]) -> int | None:
    """The first offset in `run` (a sequence of character sets) at which every string
    it matches holds a keyword, or None."""
    for j in range(len(run)):
        for size in sorted({len(k) for k in keywords}):
            if j + size > len(run):
                break
            strings = {""}
            for chars in run[j : j + size]:
                strings = {s + c for s in strings for c in chars}
                if len(strings) > _MAX_STRINGS:
                    break
            else:
                if strings <= keywords:
                    return j
    return None


_MAX_STRINGS = 64


def _reach_seq(seq: Sequence[C.Node], keywords: frozenset[str], offset: int) -> tuple[int | None, int | None]:
    """(reach if found, else None; the width of `seq` added to `offset`, None if unbounded)."""
    i = 0
    while i < len(seq):
        op, av = seq[i]
        chars = _chars(seq[i])
        if chars is not None:
            run = []
            j = i
            while j < len(seq) and (chars := _chars(seq[j])) is not None:
                run.append(chars)
                j += 1
            if j < len(seq) and (first := _repeat_first(seq[j])) is not None:
                run.append(first)  # `xapp-[0-9]{1,3}`: the run ends with the repeat's first character
            spot = _run_reach(run, keywords)
            if spot is not None:
                return offset + spot, offset
            offset += j - i
            i = j
            continue
        if op == C.SUBPATTERN:
            found, after = _reach_seq(av[3], keywords, offset)
            if found is not None:
                return found, after
            if after is None:
                return None, None
            offset = after
            i += 1
            continue
        w = _width(seq[i])
        if w is None:
            return None, None
        offset += w
        i += 1
    return None, offset


def keyword_reach(pattern: str, flags: int, keywords: Sequence[str]) -> int | None:
    """The most characters between a match's start and the start of a keyword it holds
    (keywords lower-case, as the prefilter finds them), or None when unknown."""
    try:
        tree, _ = C.parse(pattern, flags)
    except (re.error, ValueError, IndexError):
        return None
    found, _ = _reach_seq(tree, frozenset(k for k in keywords if k), 0)
    return found



def repeat_led(pattern: str, flags: int) -> bool:
    """Whether a match attempt starts with a repeat or an alternation (`(?:.{0,24}[=:])?`,
    `[a-z0-9]{14}`): such an attempt costs many steps even where it fails, so
    trying only the positions a match can start at pays; a pattern led by a
    character or an anchor fails at once where it cannot match."""
    try:
        tree, _ = C.parse(pattern, flags)
    except (re.error, ValueError, IndexError):
        return False
    while tree and tree[0][0] == C.SUBPATTERN:
        tree = tree[0][1][3]
    return bool(tree) and (tree[0][0] in C.REPEATS or tree[0][0] == C.BRANCH)
