"""A pattern's last group of bounded class runs, rewritten so `re` does not backtrack through it.

`kingfisher.cloudconvert.1` ends in `((?:C{30,34}\\.?C{200,500}\\.?C{600,700}))`,
C a class that holds '.': one run of C characters, cut in three. Where the run
is shorter than the pieces' maxima, `re` gives the middle piece back one
character at a time and counts the last piece (up to 700 characters) again
after each: ~2 ms per match (a sixth of the generated rules' regex time on
secret-dense text).

What `re` finds there (greedy, first success): every piece but the last takes
its maximum and each optional literal is taken where it stands, unless the run
is too short to allow it; then the match ends where the run does. So the end
is the start plus min(run length, the all-maximum length with the literals
found). The rewrite says that directly: `(?=C{sum of minima})` (no match
otherwise, as before), the pieces at their maxima, the literals optional, the
last piece possessive from 0. It finds the same end when the minima add up to
at least the other pieces' maxima and literals (then the fixed pieces always
fit, once the lookahead holds). Nothing may follow the group: the pattern ends
there, so its match ends where the group does.
"""

from __future__ import annotations

import re

# `((?:C{a,b}\x?C{a,b}…))` at the very end: the same class each time, an escaped
# literal between. Read only against rule patterns, but anchored and possessive all
# the same: every module-level regex stays linear on any input
# (tests/unit/test_regex_linear_time.py).
_TAIL = re.compile(
    r"\(\(\?:(?P<cls>\[[^\]\\]*+(?:\\.[^\]\\]*+)*+\])\{[0-9]++,[0-9]++\}"
    r"(?:\\[^A-Za-z0-9]\?(?P=cls)\{[0-9]++,[0-9]++\})++\)\)\Z"
)
_PIECE = re.compile(r"(\\[^A-Za-z0-9]\?)?+\[[^\]\\]*+(?:\\.[^\]\\]*+)*+\]\{([0-9]++),([0-9]++)\}")


def bounded_run_tail(pattern: str, flags: int = 0) -> str:
    """`pattern` with its final run group rewritten as above, or unchanged."""
    m = _TAIL.search(pattern)
    if m is None:
        return pattern
    cls = m["cls"]
    body = pattern[m.start() + 4 : -2]  # between `((?:` and `))`
    pieces = [(p[1], int(p[2]), int(p[3])) for p in _PIECE.finditer(body)]
    try:
        members = re.compile(cls, flags & ~re.UNICODE)
    except re.error:
        return pattern
    if any(lit and not members.fullmatch(lit[1]) for lit, _, _ in pieces):
        return pattern  # a literal outside the class splits the run
    if any(lo > hi for _, lo, hi in pieces):
        return pattern
    least = sum(lo for _, lo, _ in pieces)
    fixed = sum(hi + (1 if lit else 0) for lit, _, hi in pieces[:-1]) + (1 if pieces[-1][0] else 0)
    if least < fixed:
        return pattern  # a fixed piece might not fit: `re` would give characters back
    parts = [f"{lit or ''}{cls}{{{hi}}}" for lit, _, hi in pieces[:-1]]
    last_lit, _, last_hi = pieces[-1]
    rewritten = f"(?={cls}{{{least}}})" + "".join(parts) + f"{last_lit or ''}{cls}{{0,{last_hi}}}+"
    return pattern[: m.start()] + "((?:" + rewritten + "))"
