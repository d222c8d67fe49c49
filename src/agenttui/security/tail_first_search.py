"""`Pattern.search` for rules that read a few lines past a literal, tail first.

gitleaks' curl rules are `curl(?<!\\wcurl)\\b(?:.*|.*(?:[\\r\\n]{1,2}.*){1,5})[ \\t\\n\\r]TAIL`
(a `curl`, up to five more lines, then `-u user:pass` or `-H "Authorization: …"`).
An attempt at a `curl` that has no TAIL in reach fails only after `re` has tried
TAIL at every character of those lines (~20-40 µs each; on secret-dense text
most `curl`s hold the other rule's flag). Here TAIL alone (led by a literal, so
`re` scans for it in C) is searched first, once per stretch of text: where its
first match after a `curl` is out of the lines' reach, or there is none, the
`curl` has no match and is not tried. Otherwise the rule's own regex is tried
there, so the matches (and their groups) are `search`'s own: the gate only
skips attempts that would fail.

Why the gate is exact: a match at a `curl` is that literal, then a string the
middle part (`LINES`) takes whole, then TAIL matching at the separator. TAIL
has no back-reference, so whether it matches at a position does not depend on
what came before; and the stretches `LINES` takes from a start are every
prefix of the longest one (any part of lines is lines), so TAIL's first match
is in reach if any is. The word boundaries are left to the regex.
"""

from __future__ import annotations

import re
from collections.abc import Callable

Search = Callable[[str, int, int], "re.Match[str] | None"]

# The shape, as the generator writes it (after `gitleaks_scan.literal_led`): a word
# literal, its lookbehind, `\b`, the lines (greedy or lazy), then the separator class.
# Read only against rule patterns, but anchored and possessive all the same: every
# module-level regex stays linear on any input (tests/unit/test_regex_linear_time.py).
_SHAPE = re.compile(
    r"\A(?P<lit>[A-Za-z0-9_]++)\(\?<!\\w(?P=lit)\)\\b"
    r"\(\?:\.\*(?P<lazy>\??+)\|\.\*(?P=lazy)\(\?:\[\\r\\n\]\{1,2\}\.\*(?P=lazy)\)\{1,(?P<most>[1-9])\}\)"
    r"\[ \\t\\n\\r\](?P<tail>.++)\Z",
    re.DOTALL,
)
# What would make TAIL's match depend on the part before it.
_BACK_REFERENCE = re.compile(r"\\[1-9]|\(\?P=|\(\?\(")


def tail_first_search(regex: re.Pattern[str]) -> Search | None:
    """A function with the results of `regex.search(text, pos, endpos)`, or None when
    `regex` is not of the shape above (or TAIL starts with no literal)."""
    shape = _SHAPE.fullmatch(regex.pattern)
    if shape is None or _BACK_REFERENCE.search(shape["tail"]):
        return None
    flags = regex.flags & ~re.UNICODE
    try:
        tail = re.compile(shape["tail"], flags)
    except re.error:
        return None
    leads = _leading_literals(tail)
    if not leads:
        return None
    return _TailFirst(regex, shape["lit"], tail, leads, int(shape["most"])).search


def _leading_literals(tail: re.Pattern[str]) -> tuple[str, ...] | None:
    """Strings one of which every match of `tail` starts with: its leading literals and
    alternations of literals (`(?:-u|--user)`), read no further; None if it has none
    or is case-insensitive (a scoped flag group is not read into)."""
    from . import regex_tree

    if tail.flags & re.IGNORECASE:
        return None
    tree, _ = regex_tree.parse(tail.pattern, tail.flags)
    leads = [""]
    for op, av in tree:
        if op == regex_tree.LITERAL:
            leads = [lead + chr(av) for lead in leads]
        elif op == regex_tree.BRANCH and all(
                alt and all(o == regex_tree.LITERAL for o, _ in alt) for alt in av[1]):
            leads = [lead + "".join(chr(c) for _, c in alt) for lead in leads for alt in av[1]]
        else:
            break
    return tuple(leads) if leads[0] else None


_SEPARATORS = " \t\n\r"


class _TailFirst:
    def __init__(
        self, regex: re.Pattern[str], literal: str, tail: re.Pattern[str], leads: tuple[str, ...], most: int
    ) -> None:
        self.regex = regex
        self.literal = literal
        self.tail = tail  # TAIL, matched just past the separator
        self.leads = leads  # what TAIL starts with: found with `str.find`
        self.most = most  # line breaks the middle part may take

    def _tail_at(self, text: str, start: int, endpos: int) -> int:
        """The first position at or after `start` where TAIL matches after a separator, or -1:
        the first such start of each lead, the earliest of them."""
        tail = self.tail
        first = -1
        for lead in self.leads:
            # An earlier start of this lead, if any, begins before `first`.
            until = endpos if first < 0 else min(endpos, first + len(lead) - 1)
            at = text.find(lead, start, until)
            while at >= 0:
                if text[at - 1] in _SEPARATORS and tail.match(text, at, endpos) is not None:
                    first = at
                    break
                at = text.find(lead, at + 1, until)
        return first

    def _in_reach(self, text: str, start: int, separator: int) -> bool:
        """Whether the lines part can take `text[start:separator]` whole. `.` takes all but
        '\\n' (a '\\r' too), and each of its at most `most` line breaks takes one or two
        of '\\r' and '\\n': one '\\n', or two in a row (a blank line). So it needs a break
        per '\\n', less one per pair of adjacent ones (counted from the left of a run)."""
        breaks = text.count("\n", start, separator)
        if breaks <= self.most:
            return True
        if breaks > 2 * self.most:
            return False
        needed = 0
        at = text.find("\n", start, separator)
        while at >= 0:
            needed += 1
            if needed > self.most:
                return False
            at += 2 if text.startswith("\n", at + 1, separator) else 1
            at = text.find("\n", at, separator)
        return True

    def search(self, text: str, pos: int, endpos: int) -> re.Match[str] | None:
        literal, size = self.literal, len(self.literal)
        pos, endpos = max(pos, 0), min(endpos, len(text))
        tail_from, tail_at = -1, -1  # TAIL's first match at or after `tail_from` (-1: none)
        at = text.find(literal, pos, endpos)
        while at >= 0:
            after = at + size + 1  # TAIL's earliest start: the separator may follow the literal
            if tail_from < 0 or (tail_at >= 0 and after > tail_at):
                tail_from, tail_at = after, self._tail_at(text, after, endpos)
            if tail_at < 0:
                return None  # no TAIL after this literal, so none after any later one
            if self._in_reach(text, at + size, tail_at - 1):
                m = self.regex.match(text, at, endpos)
                if m is not None:
                    return m
            at = text.find(literal, at + 1, endpos)
        return None
