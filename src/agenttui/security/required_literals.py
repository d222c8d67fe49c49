"""Literals every match of a regex must contain: the anchors of a rule.

A multi-pattern prefilter (one Aho-Corasick pass, `gitleaks_scan`) can only
skip a rule on a text when the rule cannot match without one of a few
literals occurring. `literals.literal_prefixes` finds what a match *starts*
with; many rules of Nosey Parker and Kingfisher start with a class
(`\\b[a-z0-9]{32}\\.apps\\.googleusercontent\\.com`) and hold their literal
further in. This analysis finds the best set anywhere in the pattern.

Sound by construction, all strings lower-cased (the prefilter runs over the
lowered text): a sequence's candidate sets are its runs of finite nodes
(cross products of literals and small classes) and the sets required by its
non-optional groups; an alternation requires the union of its branches'
sets; an optional or unbounded-but-may-be-empty part requires nothing.
The best candidate has the longest shortest member (short needles hit
everywhere), then the fewest members.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import regex_tree as C

_MAX_EXACT = 64  # members of a finite set before it counts as "anything"
_MAX_UNION = 256  # members of an alternation's required set
_SMALL_CLASS = 10


def _class_chars(members: Sequence[C.Node]) -> set[str] | None:
    out: set[str] = set()
    for op, av in members:
        if op == C.LITERAL:
            out.add(chr(av).lower())
        elif op == C.RANGE and av[1] - av[0] < _SMALL_CLASS:
            out.update(chr(c).lower() for c in range(av[0], av[1] + 1))
        else:
            return None
        if len(out) > _SMALL_CLASS:
            return None
    return out


def _product(a: set[str], b: set[str]) -> set[str] | None:
    if len(a) * len(b) > _MAX_EXACT:
        return None
    return {x + y for x in a for y in b}


def exact(node: C.Node) -> set[str] | None:
    """The finite set of (lowered) strings `node` matches, or None."""
    op, av = node
    if op == C.LITERAL:
        return {chr(av).lower()}
    if op == C.IN:
        return _class_chars(av)
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return {""}  # zero-width
    if op == C.SUBPATTERN:
        return exact_seq(av[3])
    if op == C.ATOMIC_GROUP:
        return exact_seq(av)
    if op == C.BRANCH:
        out: set[str] = set()
        for alt in av[1]:
            sub = exact_seq(alt)
            if sub is None:
                return None
            out |= sub
            if len(out) > _MAX_EXACT:
                return None
        return out
    if op in C.REPEATS:
        lo, hi, body = av
        if lo != hi or lo > 8:
            return None
        one = exact_seq(body)
        if one is None:
            return None
        acc: set[str] | None = {""}
        for _ in range(lo):
            acc = _product(acc, one) if acc is not None else None
        return acc
    return None


def exact_seq(seq: Sequence[C.Node]) -> set[str] | None:
    acc: set[str] | None = {""}
    for node in seq:
        one = exact(node)
        if one is None or acc is None:
            return None
        acc = _product(acc, one)
    return acc


def _score(s: frozenset[str]) -> tuple[int, int]:
    return (min(map(len, s)), -len(s))


def _never(_: str) -> bool:
    return False


def _best(cands: list[frozenset[str]], avoid: Callable[[str], bool]) -> frozenset[str] | None:
    useful = [c for c in cands if c and "" not in c and not any(map(avoid, c))]
    return max(useful, key=_score) if useful else None


def required(node: C.Node, avoid: Callable[[str], bool] = _never) -> frozenset[str] | None:
    """A set of literals one of which every match of `node` contains, or None."""
    op, av = node
    if op == C.SUBPATTERN:
        return required_seq(av[3], avoid)
    if op == C.ATOMIC_GROUP:
        return required_seq(av, avoid)
    if op == C.BRANCH:
        out: set[str] = set()
        for alt in av[1]:
            sub = required_seq(alt, avoid)
            if sub is None:
                return None
            out |= sub
            if len(out) > _MAX_UNION:
                return None
        return frozenset(out)
    if op in C.REPEATS and av[0] >= 1:
        return required_seq(av[2], avoid)
    one = exact(node)
    if one and "" not in one and not any(map(avoid, one)):
        return frozenset(one)
    return None


def _lead(node: C.Node) -> set[str] | None:
    """Strings every match of `node` starts with (its alternatives' literal heads)."""
    op, av = node
    if op == C.SUBPATTERN:
        return _lead_seq(av[3])
    if op == C.ATOMIC_GROUP:
        return _lead_seq(av)
    if op == C.BRANCH:
        out: set[str] = set()
        for alt in av[1]:
            sub = _lead_seq(alt)
            if sub is None:
                return None
            out |= sub
        return out if len(out) <= _MAX_EXACT else None
    if op in C.REPEATS and av[0] >= 1:
        return _lead_seq(av[2])
    return exact(node)


def _lead_seq(seq: Sequence[C.Node]) -> set[str] | None:
    acc: set[str] = {""}
    for node in seq:
        one = exact(node)
        if one is None:
            lead = _lead(node)
            nxt = _product(acc, lead) if lead else None
            return nxt if nxt is not None else acc
        nxt = _product(acc, one)
        if nxt is None:
            return acc
        acc = nxt
    return acc


def required_seq(seq: Sequence[C.Node], avoid: Callable[[str], bool] = _never) -> frozenset[str] | None:
    cands: list[frozenset[str]] = []
    run: set[str] = {""}
    for node in seq:
        one = exact(node)
        if one is not None:
            nxt = _product(run, one)
            if nxt is not None:
                run = nxt
                continue
            cands.append(frozenset(run))
            run = one
            continue
        lead = _lead(node)
        joined = _product(run, lead) if lead else None
        cands.append(frozenset(joined if joined is not None else run))
        run = {""}
        sub = required(node, avoid)
        if sub is not None:
            cands.append(sub)
    cands.append(frozenset(run))
    return _best(cands, avoid)


def required_literals(
    pattern: str, flags: int = 0, avoid: Callable[[str], bool] = _never
) -> frozenset[str] | None:
    """Lower-cased literals, one of which occurs in every match of `pattern`; None if none is known.

    `avoid`: literals not to use (common in ordinary text, so a poor gate); a
    set holding one is passed over for the next best.
    """
    tree, _ = C.parse(pattern, flags)
    return required_seq(tree, avoid)
