"""The syntax tree of a Python regular expression, for the literal analyses.

:mod:`.literals` (what every match of a secret rule starts with) and
:mod:`.injection_patterns` (what every match of an injection rule contains)
reason about a pattern's structure. Python's own parser is private
(``re._parser``, ``sre_parse`` before 3.11): its module moved once and its
node shapes are not promised. This module parses the syntax ``re`` accepts
into nodes of the same shape, with its own constants:

* a sequence is a ``list`` of ``(op, argument)`` nodes;
* ``(LITERAL, code point)``, ``(NOT_LITERAL, code point)``, ``(ANY, None)``;
* ``(IN, members)``: a class, members ``(LITERAL, c)``, ``(RANGE, (lo, hi))``,
  ``(CATEGORY, name)``, a leading ``(NEGATE, None)``;
* ``(AT, where)``: ``^ $ \\A \\Z \\b \\B``;
* ``(SUBPATTERN, (group or None, add flags, del flags, sequence))``,
  ``(ATOMIC_GROUP, sequence)``, ``(ASSERT | ASSERT_NOT, (direction, sequence))``;
* ``(BRANCH, (None, [sequence, ...]))``;
* ``(MAX_REPEAT | MIN_REPEAT | POSSESSIVE_REPEAT, (min, max, sequence))``;
* ``(GROUPREF, n)``, and ``(OTHER, text)`` for what the analyses never look
  into (conditional groups): they treat it as "anything".

``re`` applies three simplifications while parsing, and so does this parser,
because the analyses' results depend on them: a branch whose alternatives
share a first node has it moved out in front; a branch of single characters
becomes a class; a plain ``(?:...)`` is spliced into its sequence (and a
repeat of one repeats its content). Only patterns ``re.compile`` accepts are
parsed (it is called first): the parser need not explain syntax errors.
"""

from __future__ import annotations

import re
from typing import Any

Node = tuple[str, Any]


class Seq(list[Node]):
    """A sequence of nodes. Two sequences are equal only when they are the same
    object, as ``re``'s are: a branch's shared first node is moved out only
    when it is a plain one (a character, a class, an anchor), never a group or
    a repeat, however alike."""

    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__  # type: ignore[assignment]

LITERAL, NOT_LITERAL, ANY, IN, AT = "literal", "not_literal", "any", "in", "at"
RANGE, CATEGORY, NEGATE = "range", "category", "negate"
SUBPATTERN, ATOMIC_GROUP, ASSERT, ASSERT_NOT = "subpattern", "atomic_group", "assert", "assert_not"
BRANCH, GROUPREF, OTHER = "branch", "groupref", "other"
MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT = "max_repeat", "min_repeat", "possessive_repeat"
REPEATS = frozenset({MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT})
UNBOUNDED = 2**32 - 1  # the max of *, + and {n,}

AT_BEGINNING, AT_END, AT_BEGINNING_STRING, AT_END_STRING = "beginning", "end", "beginning_string", "end_string"
AT_BOUNDARY, AT_NON_BOUNDARY = "boundary", "non_boundary"

_CATEGORIES: dict[str, Node] = {
    "A": (AT, AT_BEGINNING_STRING), "Z": (AT, AT_END_STRING),
    "b": (AT, AT_BOUNDARY), "B": (AT, AT_NON_BOUNDARY),
    "d": (IN, [(CATEGORY, "digit")]), "D": (IN, [(CATEGORY, "not_digit")]),
    "s": (IN, [(CATEGORY, "space")]), "S": (IN, [(CATEGORY, "not_space")]),
    "w": (IN, [(CATEGORY, "word")]), "W": (IN, [(CATEGORY, "not_word")]),
}
_ESCAPES = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92}
_FLAGS = {"i": re.IGNORECASE, "L": re.LOCALE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE,
          "a": re.ASCII, "u": re.UNICODE}
_DIGITS = frozenset("0123456789")
_HEX = frozenset("0123456789abcdefABCDEF")
_OCT = frozenset("01234567")


def parse(pattern: str, flags: int = 0) -> tuple[Seq, int]:
    """The tree of ``pattern`` and its flags (``flags`` plus global inline ones like ``(?i)``)."""
    re.compile(pattern, flags)  # a bad pattern fails here, with re's own message
    parser = _Parser(pattern, flags)
    tree = parser.alternation(nested=0)
    flags = parser.flags
    if not flags & (re.ASCII | re.LOCALE):
        flags |= re.UNICODE  # a str pattern is Unicode unless told otherwise, as re records it
    return tree, flags


class _Parser:
    def __init__(self, pattern: str, flags: int) -> None:
        self.text = pattern
        self.at = 0
        self.flags = flags
        self.groups = 0

    # -- reading
    def peek(self) -> str | None:
        return self.text[self.at] if self.at < len(self.text) else None

    def take(self) -> str:
        char = self.text[self.at]
        self.at += 1
        return char

    def match(self, char: str) -> bool:
        if self.peek() == char:
            self.at += 1
            return True
        return False

    def until(self, end: str) -> str:
        stop = self.text.index(end, self.at)
        out, self.at = self.text[self.at:stop], stop + 1
        return out

    def digits(self, allowed: frozenset[str], most: int) -> str:
        out = ""
        while len(out) < most and (c := self.peek()) is not None and c in allowed:
            out += self.take()
        return out

    # -- structure
    def alternation(self, nested: int, verbose: bool = False) -> Seq:
        items = [self.sequence(nested, verbose or bool(self.flags & re.VERBOSE), first=not nested)]
        while self.match("|"):
            items.append(self.sequence(nested, verbose or bool(self.flags & re.VERBOSE)))
        if len(items) == 1:
            return items[0]
        out = Seq()
        while all(items) and all(item[0] == items[0][0] for item in items[1:]):
            out.append(items[0][0])  # a first node common to all: moved in front
            for item in items:
                del item[0]
        members: list[Node] = []
        for item in items:
            if len(item) != 1:
                break
            op, arg = item[0]
            if op == LITERAL:
                members.append((op, arg))
            elif op == IN and arg[0][0] != NEGATE:
                members.extend(arg)
            else:
                break
        else:  # single characters only: a class
            out.append((IN, list(dict.fromkeys(members))))
            return out
        out.append((BRANCH, (None, items)))
        return out

    def sequence(self, nested: int, verbose: bool, first: bool = False) -> Seq:
        out = Seq()
        while (char := self.peek()) is not None and char not in "|)":
            self.take()
            if verbose and char in " \t\n\r\v\f":
                continue
            if verbose and char == "#":
                while self.peek() is not None and self.take() != "\n":
                    pass
                continue
            if char == "\\":
                out.append(self.escape(self.take()))
            elif char == "[":
                out.append(self.char_class())
            elif char in "*+?{":
                self.repeat(char, out)
            elif char == ".":
                out.append((ANY, None))
            elif char == "^":
                out.append((AT, AT_BEGINNING))
            elif char == "$":
                out.append((AT, AT_END))
            elif char == "(":
                node = self.group(nested, verbose, first and not out)
                if node is not None:
                    out.append(node)
                verbose = verbose or bool(self.flags & re.VERBOSE)  # after a leading (?x)
            else:
                out.append((LITERAL, ord(char)))
        spliced = Seq()
        for op, arg in out:  # a plain (?:...) is its content
            if op == SUBPATTERN and arg[0] is None and not arg[1] and not arg[2]:
                spliced.extend(arg[3])
            else:
                spliced.append((op, arg))
        return spliced

    def repeat(self, char: str, out: Seq) -> None:
        if char == "{":
            here = self.at
            low = self.digits(_DIGITS, 10)
            high = self.digits(_DIGITS, 10) if self.match(",") else low
            if (not low and not high and self.peek() == "}" and self.text[here] == "}") or not self.match("}"):
                self.at = here  # not a repeat: a literal "{"
                out.append((LITERAL, ord("{")))
                return
            least, most = int(low) if low else 0, int(high) if high else UNBOUNDED
        else:
            least, most = {"?": (0, 1), "*": (0, UNBOUNDED), "+": (1, UNBOUNDED)}[char]
        op, arg = out[-1]
        body = arg[3] if op == SUBPATTERN and arg[0] is None and not arg[1] and not arg[2] else Seq([out[-1]])
        kind = MIN_REPEAT if self.match("?") else POSSESSIVE_REPEAT if self.match("+") else MAX_REPEAT
        out[-1] = (kind, (least, most, body))

    def group(self, nested: int, verbose: bool, first: bool) -> Node | None:
        capture, atomic, add, remove = True, False, 0, 0
        if self.match("?"):
            char = self.take()
            if char == "P":
                if self.match("<"):
                    self.until(">")
                else:  # (?P=name): a back reference
                    self.take()
                    self.until(")")
                    return (GROUPREF, None)
            elif char == ":":
                capture = False
            elif char == "#":
                self.until(")")
                return None
            elif char in "=!<":
                direction = 1
                if char == "<":
                    direction, char = -1, self.take()
                body = self.alternation(nested + 1, verbose)
                self.match(")")
                return (ASSERT if char == "=" else ASSERT_NOT, (direction, body))
            elif char == "(":
                start = self.at - 3
                depth = 2  # inside "(?(": the condition's ")" and the group's
                while depth:  # (?(1)yes|no): never looked into
                    c = self.take()
                    depth += {"(": 1, ")": -1}.get(c, 0)
                    if c == "\\":
                        self.take()
                return (OTHER, self.text[start:self.at])
            elif char == ">":
                capture, atomic = False, True
            else:  # flags: (?i) for the whole pattern, (?i:...) or (?-i:...) for a group
                add, remove, scoped = self.flag_letters(char)
                if not scoped:
                    self.flags |= add
                    return None
                capture = False
        if capture:
            self.groups += 1
        group = self.groups if capture else None
        body = self.alternation(nested + 1, (verbose or bool(add & re.VERBOSE)) and not remove & re.VERBOSE)
        self.match(")")
        return (ATOMIC_GROUP, body) if atomic else (SUBPATTERN, (group, add, remove, body))

    def flag_letters(self, char: str) -> tuple[int, int, bool]:
        add = remove = 0
        while char not in "-:)":
            add |= _FLAGS[char]
            char = self.take()
        if char == "-":
            char = self.take()
            while char != ":":
                remove |= _FLAGS[char]
                char = self.take()
        return add, remove, char == ":"

    # -- characters
    def escape(self, char: str, in_class: bool = False) -> Node:
        if char in _CATEGORIES and not (in_class and _CATEGORIES[char][0] == AT):
            return _CATEGORIES[char]
        if char in _ESCAPES:
            return (LITERAL, _ESCAPES[char])
        if char == "x":
            return (LITERAL, int(self.digits(_HEX, 2), 16))
        if char == "u":
            return (LITERAL, int(self.digits(_HEX, 4), 16))
        if char == "U":
            return (LITERAL, int(self.digits(_HEX, 8), 16))
        if char == "N":
            import unicodedata

            self.match("{")
            return (LITERAL, ord(unicodedata.lookup(self.until("}"))))
        if char == "0" or (in_class and char in _OCT):
            return (LITERAL, int(char + self.digits(_OCT, 2), 8))
        if char.isdigit():  # \12 is group 12; \123 (three octal digits) a character
            digits = char + self.digits(_DIGITS, 1)
            if len(digits) == 2 and digits[0] in _OCT and digits[1] in _OCT and (c := self.peek()) and c in _OCT:
                return (LITERAL, int(digits + self.take(), 8))
            return (GROUPREF, int(digits))
        return (LITERAL, ord(char))

    def char_class(self) -> Node:
        negate = self.match("^")
        members: list[Node] = []
        while True:
            char = self.take()
            if char == "]" and members:
                break
            first: Node = self.escape(self.take(), in_class=True) if char == "\\" else (LITERAL, ord(char))
            if self.peek() == "-" and self.text[self.at + 1] != "]":
                self.take()
                end = self.take()
                last = self.escape(self.take(), in_class=True) if end == "\\" else (LITERAL, ord(end))
                members.append((RANGE, (first[1], last[1])))
                continue
            members.append(first[1][0] if first[0] == IN else first)  # \d in a class: its category
        members = list(dict.fromkeys(members))
        if len(members) == 1 and members[0][0] == LITERAL:
            return (NOT_LITERAL, members[0][1]) if negate else members[0]
        return (IN, [(NEGATE, None), *members] if negate else members)
