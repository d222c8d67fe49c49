"""Provider formats from the generated rule sets: gitleaks, Nosey Parker, Kingfisher.

`gitleaks_rules`, `noseyparker_rules` and `kingfisher_rules` are generated
(scripts/generate_*_rules.py) in one shape; ~1,100 rules are scanned as one
set. Every rule has literal keywords (gitleaks' own, or for the other two the
literals every match must contain, `required_literals`), so one automaton
pass decides which rules run at all; a rule's regex is compiled the first
time one of its keywords occurs (compiling all of them costs ~0.7 s).

How a text is scanned, as gitleaks does it, made fast and linear for Python:
- keyword prefilter: one Aho-Corasick pass (`ahocorasick_rs`, Rust) over a
  one-byte-per-character lowered view finds every rule keyword; a rule runs
  only near its keywords. (`bench/bench_redaction.py --engines` compares this
  with one `bytes.find` per keyword: the automaton is several times faster with
  ~250 keywords; without the package the `find` loop is the fallback.)
  agenttui's own rules need only know *whether* their needles occur, and
  theirs are common words ('key', 'pass', 'token', '--'): tens of thousands
  of hits per MB of prose, each a Python tuple. They are looked for apart:
  redaction does it in the pass that locates the rare anchors
  (`anchor_positions.present_and_located`: a sample first, then the needles
  not seen in it); `present_needles` reads growing chunks, each needle only
  until it is found.
- keywords common in ordinary text ('ey', 's.', 'password', 'secret') are
  replaced by per-rule *seek* regexes (literal-led, implied by the rule; see
  the generator), run over the lowered text;
- an *anchored* rule (every match starts with a keyword: most rules once the
  generator cut the generic `[\\w.-]{0,50}?` prefix) is tried with
  `Pattern.match` at each hit: no scanning at all;
- any other rule is searched in a window around a hit, [hit-512, hit+1024];
  hits inside an already searched stretch are skipped, so the windows cost
  O(len(text)) in total, and each window is bounded, so patterns that RE2
  runs in linear time but `re` might backtrack on (`curl .* -u`) are too.
  A match that reaches its window's end is searched again with up to 16 KB
  more, so long tokens (1Password `ops_…`) are not cut.
Then gitleaks' own checks: the secret group (else the first non-empty group),
minimum Shannon entropy, the rule's and the global allowlists and stopwords;
agenttui adds its placeholder check (`values.is_placeholder`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from itertools import chain
from math import log2
from operator import itemgetter

from .crypto_keys import alnum_view
from .literals import literal_prefixes, start_literals
from .needle_starts import located_starts
from .run_tail import bounded_run_tail
from .secret_patterns import CONTEXT, PROVIDER
from .values import is_placeholder, shannon_entropy

Candidate = tuple[int, int, str, int]

# Just below agenttui's own provider rules: where both match, the own kind
# name is kept (`openai_key`); the span is the union either way.
GITLEAKS = PROVIDER - 1
# Nosey Parker's and Kingfisher's rules name a span only when no own or
# gitleaks rule does (their kinds are coarser: "http-bearer-token").
OTHER_SETS = CONTEXT - 1
BEFORE, AFTER, STRIDE, LONG = 512, 1024, 512, 16_384


@dataclass(frozen=True)
class _Allow:
    target: str  # "secret", "match" or "line"
    regexes: tuple[re.Pattern[str], ...]
    stopwords: tuple[str, ...]


# Kingfisher's "any character" (530 of its rules, twice each): a repeat of an alternation,
# which `re` runs with a group frame per character. `(?s:.)` is the same character set as
# one item, repeated in one loop; no group is lost (the alternation captures nothing).
_ANY_OF_TWO = r"(?:.|[\n\r])"


@dataclass(eq=False)
class _Rule:
    id: str
    kind: str
    pattern: str
    group: int
    entropy: float
    anchored: bool
    allow: tuple[_Allow, ...]
    seeks: tuple[re.Pattern[str], ...]  # run over the lowered text, for common keywords
    gitleaks_globals: bool  # gitleaks' global allowlist is part of gitleaks' rules only
    keywords: tuple[str, ...] = ()

    @cached_property
    def regex(self) -> re.Pattern[str]:
        pattern = bounded_run_tail(literal_led(self.pattern), re.ASCII)
        return re.compile(pattern.replace(_ANY_OF_TWO, "(?s:.)"), re.ASCII)

    @cached_property
    def search(self) -> Callable[[str, int, int], re.Match[str] | None]:
        """`regex.search(text, pos, endpos)`, or a faster function with its results
        (`tail_first_search`: gitleaks' curl rules, which read lines past `curl`)."""
        from .tail_first_search import tail_first_search

        return tail_first_search(self.regex) or self.regex.search

    @cached_property
    def reach(self) -> int | None:
        """The most characters from a match's start to a keyword hit it holds, when
        every window start is a keyword hit (no seeks) and the pattern bounds it."""
        if self.seeks:
            return None
        from .keyword_reach import keyword_reach

        return keyword_reach(self.regex.pattern, re.ASCII, self.keywords)

    @cached_property
    def repeat_led(self) -> bool:
        from .keyword_reach import repeat_led

        return repeat_led(self.regex.pattern, re.ASCII)

    @cached_property
    def lead_literals(self) -> tuple[str, ...] | None:
        """Lower-cased literals one of which every match starts with, when `re` cannot
        scan for them itself: a case-insensitive or `\\b`-led pattern costs a match
        attempt at every position it searches (`kingfisher.documo.1`, `(?i)\\b(ey…`, was
        searched over each 1.5 KB window). `_near_hits` then tries only where the
        lowered text holds one. None when re scans for the literal, or there is none."""
        from . import regex_tree

        tree, flags = regex_tree.parse(self.regex.pattern, re.ASCII)
        if not flags & re.IGNORECASE and _literal_first(tree):
            return None
        prefixes = literal_prefixes(self.regex.pattern, re.ASCII)
        if not prefixes or len(prefixes) > _MAX_LEAD_LITERALS or not all(p and p.isascii() for p in prefixes):
            return None
        return tuple(sorted({p.lower() for p in prefixes}))

    @cached_property
    def window_needles(self) -> tuple[str, ...] | None:
        """Lower-case literals one of which every match holds, other than the rule's
        keywords (its windows always hold those): a window without any has no match.
        None when the pattern has no such few (then every window is searched)."""
        from .required_literals import required_literals

        try:
            needles = required_literals(
                self.pattern, re.ASCII, avoid=lambda x: len(x) < 2 or any(x in k for k in self.keywords)
            )
        except re.error:
            return None
        if not needles:
            return None
        if len(needles) > _MAX_WINDOW_NEEDLES:  # (' -u', '\t-u', ' --user', …): what they share
            common = _common_substring(needles)
            return None if common is None or any(common in k for k in self.keywords) else (common,)
        return tuple(sorted(needles))


_MAX_WINDOW_NEEDLES = 8  # more `in` tests per window than a window search saves
_MAX_LEAD_LITERALS = 8  # more `find` scans per hit than one search of its window costs


def _literal_first(tree: list[tuple[str, object]]) -> bool:
    """Whether a pattern's tree starts with a literal (in groups, maybe): what `re`
    scans for before it tries a match."""
    from . import regex_tree

    while tree:
        op, av = tree[0]
        if op != regex_tree.SUBPATTERN:
            return op == regex_tree.LITERAL
        tree = av[3]  # type: ignore[index]
    return False


def _common_substring(strings: frozenset[str]) -> str | None:
    """The longest string of at least 2 characters that all of `strings` hold, if any."""
    shortest = min(strings, key=len)
    for size in range(len(shortest), 1, -1):
        for i in range(len(shortest) - size + 1):
            part = shortest[i : i + size]
            if all(part in s for s in strings):
                return part
    return None


# `\b`, maybe a capturing group's `(`, then a literal of word characters not
# followed by a quantifier.
_LEADING_BOUNDARY = re.compile(r"\\b(\((?!\?))?([A-Za-z0-9_]+)(?![*+?{])")


def literal_led(pattern: str) -> str:
    """`\\bcurl…` as `curl(?<!\\wcurl)…`, `\\b(ey…` as `(ey(?<!\\wey)…`: the same
    matches and groups, but `re` finds a pattern that starts with a literal (also
    inside a leading group) by a fast scan for it, while one that starts with `\\b`
    costs a match attempt at every position of a rule's window (`curl-auth-header`
    was a tenth of the generated rules' time on secret-dense text; the JWT rules,
    `\\b(ey…`, searched every position of their windows). The literal's first
    character is a word character, so `\\b` before it says the character before
    is none: the lookbehind. A group is rewritten only when no alternative of it
    would lose the `\\b` and it is not repeated (each repetition would need one)."""
    m = _LEADING_BOUNDARY.match(pattern)
    if m is None:
        return pattern
    group, literal = m.group(1) or "", m.group(2)
    if group and not _plain_group(pattern, 2):
        return pattern
    return f"{group}{literal}(?<!\\w{literal}){pattern[m.end() :]}"


def _plain_group(pattern: str, open_at: int) -> bool:
    """Whether the group opened at `pattern[open_at]` has no `|` of its own and no
    quantifier after its `)`."""
    depth, i, n = 0, open_at, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":  # a class: `(`, `)` and `|` in it are characters
            i += 1
            if pattern[i : i + 1] == "^":
                i += 1
            if pattern[i : i + 1] == "]":  # a leading `]` is one of them too
                i += 1
            while i < n and pattern[i] != "]":
                i += 2 if pattern[i] == "\\" else 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return pattern[i + 1 : i + 2] not in ("*", "+", "?", "{")
        elif ch == "|" and depth == 1:
            return False
        i += 1
    return False


# Identity equality: functions cached on it (`_run_seeks`, `_seek_needles`) would
# otherwise hash every rule on each redaction (~0.1 ms a call, a short text's whole cost).
@dataclass(frozen=True, eq=False)
class _Compiled:
    rules: tuple[_Rule, ...]
    keywords: tuple[bytes, ...]
    rules_of: tuple[tuple[int, ...], ...]  # keyword index -> rule indexes
    automaton: object | None
    global_allow: tuple[re.Pattern[str], ...]
    global_stop: tuple[str, ...]
    seeking: tuple[int, ...]  # rules with seek regexes
    presence_only: tuple[str, ...] = ()  # extra needles that are no rule keyword
    shared_pattern: frozenset[int] = frozenset()  # rules whose pattern another rule has too
    # Rules whose every candidate an earlier rule of theirs yields or rejects (`_subsumed`),
    # and the rules that share a pattern once those are left out.
    subsumed: frozenset[int] = frozenset()
    shared_unsubsumed: frozenset[int] = frozenset()
    # Per `global_allow` regex, lower-cased literals one of which each match holds, or None.
    global_allow_gates: tuple[tuple[str, ...] | None, ...] = ()


@cache
def compiled(extra_needles: tuple[str, ...] = ()) -> _Compiled:
    """Compile the generated rules once (lazily: ~0.1 s, not at import).

    `extra_needles`: lower-case literals of agenttui's own rules, found by the
    same automaton pass (`present`) so those rules are skipped where absent.
    """
    from . import gitleaks_rules as g
    from . import kingfisher_rules, noseyparker_rules

    rules: list[_Rule] = []
    index: dict[str, list[int]] = {}
    for r in (*g.RULES, *noseyparker_rules.RULES, *kingfisher_rules.RULES):
        allow = tuple(
            _Allow(a["target"], tuple(re.compile(x, re.ASCII) for x in a["regexes"]), tuple(a["stopwords"]))
            for a in r["allow"]
        )
        rules.append(
            _Rule(
                r["id"],
                r.get("kind", r["id"]),
                r["regex"],
                r["group"],
                r["entropy"],
                r["anchored"],
                allow,
                tuple(re.compile(x, re.ASCII) for x in r["seeks"].values()),
                "kind" not in r,
                tuple(r["keywords"]),
            )
        )
        for k in r["keywords"]:
            if k not in r["seeks"]:
                index.setdefault(k, []).append(len(rules) - 1)
    presence_only = tuple(k for k in extra_needles if k not in index)
    keywords = tuple(k.encode("latin-1") for k in index)
    try:
        import ahocorasick_rs

        # A full DFA: 2-3x faster than the default NFA on code and logs (its
        # build, once, takes a few ms for ~280 keywords).
        automaton: object | None = ahocorasick_rs.BytesAhoCorasick(
            keywords, implementation=ahocorasick_rs.Implementation.DFA
        )
    except ImportError:  # the fallback below is correct, only slower
        automaton = None
    global_allow = _grouped_allow(g.GLOBAL_ALLOW_REGEXES)
    return _Compiled(
        tuple(rules),
        keywords,
        tuple(tuple(v) for v in index.values()),
        automaton,
        global_allow,
        tuple(g.GLOBAL_STOPWORDS),
        tuple(i for i, r in enumerate(rules) if r.seeks),
        presence_only,
        _shared_patterns(rules),
        subsumed := _subsumed(rules),
        _shared_patterns(rules, subsumed),
        tuple(map(_allow_gate, global_allow)),
    )


_MAX_GATE = 4  # `in` tests per secret before one search of it is the cheaper check
_MIN_GATE = 3  # shorter literals are in most values: a gate that is always open


def _allow_gate(rx: re.Pattern[str]) -> tuple[str, ...] | None:
    """Lower-cased literals one of which every match of `rx` holds (`required_literals`),
    when they are few and long enough to tell a secret that cannot match without a
    search: `(?i)^true|false|null$` is searched through a whole secret (~1.8 µs for
    40 characters, on every candidate of gitleaks' rules); three `in` tests are ~0.2."""
    from .required_literals import required_literals

    needles = required_literals(rx.pattern, rx.flags)
    if not needles or len(needles) > _MAX_GATE or min(map(len, needles)) < _MIN_GATE:
        return None
    return tuple(sorted(needles))


def _grouped_allow(patterns: Iterable[str]) -> tuple[re.Pattern[str], ...]:
    """Regexes that match where one of `patterns` does (`search`). Those that start
    with `^` (and so have no top-level `|`) are one `^(?:…|…)`: `re` tries a
    `^`-led pattern at the start only, so 12 searches of each secret become one
    match attempt (gitleaks' global allowlist is checked on every candidate)."""
    from . import regex_tree

    anchored: list[str] = []
    other: list[str] = []
    for p in patterns:
        tree, _ = regex_tree.parse(p, re.ASCII)
        starts_at_start = bool(tree) and tree[0] == (regex_tree.AT, regex_tree.AT_BEGINNING)
        (anchored if starts_at_start and not p.startswith("(?") else other).append(p)
    grouped = [re.compile(x, re.ASCII) for x in other]
    if anchored:
        grouped.append(re.compile("^(?:" + "|".join(f"(?:{p})" for p in anchored) + ")", re.ASCII))
    return tuple(grouped)


def _shared_patterns(rules: list[_Rule], left_out: frozenset[int] = frozenset()) -> frozenset[int]:
    count: dict[str, int] = {}
    for i, r in enumerate(rules):
        if i not in left_out:
            count[r.pattern] = count.get(r.pattern, 0) + 1
    return frozenset(i for i, r in enumerate(rules) if i not in left_out and count[r.pattern] > 1)


def _subsumed(rules: list[_Rule]) -> frozenset[int]:
    """Rules that add nothing where taken spans are skipped: an earlier rule of the same
    set has the same pattern, secret group, keywords and seeks (so it is tried at the
    same starts, before it, and finds the same matches and spans), the same allowlists
    and at most the same entropy floor (so it accepts every span this one accepts: a
    higher floor only rejects more, `_random_hex` included). Each span of this rule is
    then taken already, at its priority, or rejected by its checks. Nosey Parker and
    Kingfisher share ~60 rules so, Kingfisher's with an entropy floor."""
    first: dict[tuple[object, ...], _Rule] = {}
    out: set[int] = set()
    for i, r in enumerate(rules):
        seeks = tuple((x.pattern, x.flags) for x in r.seeks)
        key = (
            r.pattern,
            r.group,
            r.anchored,
            r.keywords,
            seeks,
            r.gitleaks_globals,
            r.kind in _VALUE_AFTER_COLON,
            r.allow,
        )
        earlier = first.setdefault(key, r)
        if earlier is not r and r.entropy >= earlier.entropy:
            out.add(i)
    return frozenset(out)


# A keyword hit: (keyword index, start), or the automaton's (keyword index, start, end).
Hit = tuple[int, ...]


def keyword_hits(view: bytes, c: _Compiled | None = None) -> list[tuple[int, int]]:
    """(keyword index, start) of every keyword occurrence in `view`."""
    c = c or compiled()
    if c.automaton is not None:
        return [(k, s) for k, s, _ in c.automaton.find_matches_as_indexes(view, overlapping=True)]  # type: ignore[attr-defined]
    return find_loop_hits(view, c.keywords)


def keyword_hits_as_found(view: bytes, c: _Compiled) -> Sequence[Hit]:
    """`keyword_hits`, each hit as the automaton gives it ((keyword index, start, end)):
    what `present` and `find_gitleaks` read. Secret-dense text has ~14 k hits per MB,
    and a list of pairs made of them cost ~2 ms/MB and as many tuples for the
    garbage collector to count."""
    if c.automaton is not None:
        return c.automaton.find_matches_as_indexes(view, overlapping=True)  # type: ignore[attr-defined,no-any-return]
    return find_loop_hits(view, c.keywords)


@lru_cache(maxsize=256)
def _presence_automaton(needles: tuple[bytes, ...]) -> object | None:
    """An automaton of the needles not found yet (~0.6 ms to build 85; the sets
    that remain after the first chunk repeat from text to text, so it is cached)."""
    try:
        import ahocorasick_rs
    except ImportError:
        return None
    return ahocorasick_rs.BytesAhoCorasick(needles, implementation=ahocorasick_rs.Implementation.DFA)


_FIRST_CHUNK = 4096


def present_needles(view: bytes, needles: tuple[str, ...]) -> set[str]:
    """The needles that occur in `view`.

    Common needles would each cost a hit per occurrence in one pass over the
    whole text; here the text is read in chunks growing fourfold and a needle
    found is dropped from the automaton of the next chunk, so each costs about
    one hit. Chunks overlap by the longest needle's length less one, so no
    occurrence is missed at a boundary.
    """
    remaining = tuple(sorted(n.encode("latin-1") for n in needles))
    found: set[str] = set()
    if not remaining:
        return found
    overlap = max(map(len, remaining)) - 1
    lo, size, n = 0, _FIRST_CHUNK, len(view)
    while remaining and lo < n:
        chunk = view[lo : lo + size + overlap] if lo or size < n else view
        automaton = _presence_automaton(remaining)
        if automaton is None:
            got = {k for k in remaining if k in chunk}
        else:
            got = {remaining[k] for k, _, _ in automaton.find_matches_as_indexes(chunk, overlapping=True)}  # type: ignore[attr-defined]
        if got:
            found.update(k.decode("latin-1") for k in got)
            remaining = tuple(k for k in remaining if k not in got)
        lo += size
        size *= 4
    return found


def find_loop_hits(view: bytes, keywords: tuple[bytes, ...]) -> list[tuple[int, int]]:
    """The same as the automaton, with one `bytes.find` scan per keyword."""
    hits = []
    for k, kw in enumerate(keywords):
        pos = view.find(kw)
        while pos >= 0:
            hits.append((k, pos))
            pos = view.find(kw, pos + 1)
    return hits


def _line(text: str, start: int, end: int) -> str:
    lo = text.rfind("\n", max(0, start - 4096), start) + 1
    hi = text.find("\n", end, end + 4096)
    return text[lo : hi if hi >= 0 else min(len(text), end + 4096)]


def _allowed(c: _Compiled, rule: _Rule, text: str, m: re.Match[str], secret: str) -> bool:
    if rule.gitleaks_globals and _globally_allowed(c, secret):
        return True
    if not rule.allow:
        return False  # most rules: nothing to lower-case or search
    low = secret.lower()
    for a in rule.allow:
        target = secret if a.target == "secret" else m.group() if a.target == "match" else _line(text, *m.span())
        for rx in a.regexes:
            if rx.search(target):
                return True
        for w in a.stopwords:
            if w in low:
                return True
    return False


# Cached as `values.is_placeholder` is: gitleaks' rules judge ~2.5 k secrets per MB of
# secret-dense text, each against the same global allowlist (~2 µs), and a token is
# often matched by more than one of them.
@lru_cache(maxsize=4096)
def _globally_allowed(c: _Compiled, secret: str) -> bool:
    """Whether gitleaks' global allowlist (its regexes and stopwords) lets `secret` pass."""
    low = secret.lower()
    # Plain loops: a generator per `any` cost more than the searches of a short secret.
    for rx, gate in zip(c.global_allow, c.global_allow_gates, strict=True):
        if gate is not None:
            for needle in gate:
                if needle in low:
                    break
            else:
                continue  # none of the literals each of its matches holds
        if rx.search(secret):
            return True
    return any(w in low for w in c.global_stop)


# Rules whose secret group is `name:value`: only the value is redacted (a
# user or key name is no secret). `-u "TOKEN:"` (no password) keeps the token.
_VALUE_AFTER_COLON = frozenset({"curl-auth-user", "kubernetes-secret-yaml"})


def _value_after_colon(text: str, start: int, end: int) -> tuple[int, int]:
    if text[start : start + 1] in ("'", '"') and text[end - 1 : end] == text[start]:
        start, end = start + 1, end - 1
    colon = text.find(":", start, end)
    if colon < 0:
        return start, end
    if colon == end - 1:
        return start, colon
    start = colon + 1
    while start < end and text[start] in " \t\r\n|>-+":
        start += 1
    if end - start >= 2 and text[start] in "'\"" and text[end - 1] == text[start]:
        start, end = start + 1, end - 1
    return start, end


_URL_USERINFO = re.compile(r"[a-z][a-z0-9+.-]{1,20}://[^\s:/@]{0,256}:([^\s/@]{1,256})@", re.ASCII | re.I)
_SCHEME_MAX = 21  # the longest scheme `_URL_USERINFO` takes


def _url_password_only(text: str, m: re.Match[str], start: int, end: int) -> tuple[int, int]:
    """A rule matching a URI with credentials (`postgres://app:pw@db/x`), whether its group
    is the whole URI or the user name: the password is the secret."""
    scheme_end = text.find("://", m.start(), m.end())
    if scheme_end < 0 or text.find("@", scheme_end + 3, m.end()) < 0:
        # A match of `_URL_USERINFO` holds "://" (at or after this first one) and then
        # an "@" before its end, which is no later than the rule's: with no "@" after
        # the first "://", there is none (most such rules match webhook and API URLs).
        return start, end
    # A match holds "://" at or after the first one, after a scheme of at most 21
    # characters: the search starts there, not at every letter of the match.
    u = _URL_USERINFO.search(text, max(m.start(), scheme_end - _SCHEME_MAX), m.end())
    return u.span(1) if u else (start, end)


# Two equal characters in a row: the only characters that can fill most of a value.
_DOUBLED = re.compile(r"(.)\1", re.S)


def _one_char_filler(secret: str) -> bool:
    """`ghp_xxxxxxxx…`: one character fills most of it (no generated token looks so).

    A value with more distinct characters than 40% of its length + 1 cannot be
    (the other characters would be too many): one `set`, no counting, for
    nearly every short token. In a long value only a character found twice in a
    row is counted: one that never is fills at most every other place, half of 8
    or more characters (a JWT has some 64 distinct characters and few doubles).

    A long value is looked at for its doubles first, without the `set` of all its
    characters (~35 µs for a 1.6 KB key block, where the distinct characters of
    base64 never outnumber 40% of it): a character c filling more than 60% of n
    characters lies in at most n - count(c) + 1 runs, so its runs hold
    count(c) - runs >= 2·count(c) - n - 1 > 0.2·n - 1 pairs, which `findall` (not
    overlapping) finds at least half of. With fewer than 0.1·n - 1.5 doubles of any
    character (a margin for `0.6 * n` in floating point) no character fills it."""
    n = len(secret)
    if n < 8:
        return False
    if n > 64:  # short: at most 27 distinct characters, counting them is cheaper
        doubled = _DOUBLED.findall(secret)
        if 10 * len(doubled) < n - 15:
            return False
        if len(set(secret)) > 0.4 * n + 1:
            return False
        distinct = set(doubled)
    else:
        distinct = set(secret)
        if len(distinct) > 0.4 * n + 1:
            return False
    return bool(distinct) and max(map(secret.count, distinct)) > 0.6 * n


# h(0.6), the binary entropy of a 60/40 split, in bits.
_H60 = -(0.6 * log2(0.6) + 0.4 * log2(0.4))


@lru_cache(maxsize=1024)  # (a look-up costs a quarter of the logarithm and the call)
def filler_entropy_bound(n: int) -> float:
    """The most bits per character a value of `n` >= 8 characters can have when
    one character fills more than 60% of it (`_one_char_filler`), plus a margin
    for rounding: one character at share p > 0.6 and the rest spread over at most
    n(1-p) others give at most h(p) + (1-p)·log2(n(1-p)), which for n >= 8 is
    largest at p = 0.6. A value with more entropy is no filler, so a rule that
    has already measured it need not count its characters."""
    return _H60 + 0.4 * log2(0.4 * n) + 1e-6


_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_HEX_FLOOR = 3.2


def _random_hex(secret: str, floor: float) -> bool:
    """A hex value of 32+ characters above 3.2 bits, when the rule asks for more.

    Hex has 16 symbols, so its entropy tops out at 4 bits and a random 32-digit
    value averages about 3.66: a floor of 3.5, set with wider alphabets in mind,
    rejects about one real hex key in twenty. Digits alone (`1234…`) are no key."""
    return (
        floor > _HEX_FLOOR
        and len(secret) >= 32
        and _HEX_DIGITS.issuperset(secret)
        and not secret.isdigit()
        and shannon_entropy(secret) > _HEX_FLOOR
    )


class _TextFacts:
    """Whether the text holds a marker ("[REDACTED:") or a "://", each looked up
    once on first use: where it holds neither, the per-match look-ups for them
    are skipped, and a text with no match to judge pays no scan at all."""

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def has_marker(self) -> bool:
        return "[REDACTED:" in self.text

    @cached_property
    def has_scheme(self) -> bool:
        return "://" in self.text


def _accepted_spans(
    c: _Compiled,
    rule: _Rule,
    text: str,
    matches: Iterable[re.Match[str]],
    accepted: tuple[dict[int, int], dict[int, int]] | None,
    facts: _TextFacts,
) -> list[Candidate]:
    """The secret's span of each match that passes its rule's checks, as a candidate
    (the rule's kind; GITLEAKS for gitleaks' rules, OTHER_SETS for the others). `accepted`: the
    furthest end of the spans already taken from each start, by gitleaks' rules
    and by the other sets' (two maps keyed by the start alone: a tuple key cost
    an allocation and a hash per look-up); a span inside one taken at this
    rule's priority or above is not judged again (None: merged, it would change
    neither the extent nor the kind of what is redacted).

    One loop per rule with the rule's facts in locals: on secret-dense text
    this runs ~14 k times per MB, where a call per match and per check, and
    the attribute look-ups, were most of the cost of the checks."""
    groups, group = rule.regex.groups, rule.group
    other_set = not rule.gitleaks_globals
    after_colon = rule.kind in _VALUE_AFTER_COLON
    url_password = other_set and not after_colon
    floor = rule.entropy
    allow = bool(rule.allow) or rule.gitleaks_globals
    track = accepted is not None
    by_gitleaks, mine = ({}, {}) if accepted is None else (accepted[0], accepted[1 - rule.gitleaks_globals])
    kind, priority = rule.kind, GITLEAKS if rule.gitleaks_globals else OTHER_SETS
    # A list, not a generator: ~13 k accepted per MB of secret-dense text, each a
    # resumption less. (Built when called: the rules are still judged one by one.)
    out: list[Candidate] = []
    append = out.append
    for m in matches:
        if not groups:
            start, end = m.span()
        elif group:
            start, end = m.span(group)
        elif groups == 1:  # most rules: the group if it is not empty
            start, end = m.span(1)
            if end <= start:
                start, end = m.span()
        else:  # the first non-empty group, else the whole match
            start, end = m.span()
            for s, e in m.regs[1:]:
                if e > s:
                    start, end = s, e
                    break
        if after_colon:
            start, end = _value_after_colon(text, start, end)
        elif url_password and facts.has_scheme:
            # `_url_password_only`'s own first test, inline: ~15 k matches per MB of
            # secret-dense text reach here, and few hold "://" with an "@" after it.
            m_start, m_end = m.span()
            scheme_end = text.find("://", m_start, m_end)
            if scheme_end >= 0 and text.find("@", scheme_end + 3, m_end) >= 0:
                start, end = _url_password_only(text, m, start, end)
        if end <= start:
            continue
        if by_gitleaks.get(start, -1) >= end or (other_set and mine.get(start, -1) >= end):
            continue
        secret = text[start:end]
        if facts.has_marker:
            marker = text.rfind("[REDACTED:", max(0, start - 64), end)
            if marker >= 0 and text.find("]", marker) >= start:
                continue  # (part of) a marker: already redacted, and redaction is a fixed point
        if floor:
            bits = shannon_entropy(secret)
            if bits <= floor and not _random_hex(secret, floor):
                continue
            if other_set and bits <= filler_entropy_bound(end - start) and _one_char_filler(secret):
                continue
        elif other_set and _one_char_filler(secret):
            continue
        if is_placeholder(secret) or (allow and _allowed(c, rule, text, m, secret)):
            continue
        if track:  # (`mine` holds no end >= this one from here: the test above)
            mine[start] = end
        append((start, end, kind, priority))
    return out


def _windowed(rule: _Rule, text: str, starts: list[int], lowered: str) -> Iterator[re.Match[str]]:
    """`starts`: sorted. The matches of `finditer` over each window."""
    n = len(text)
    covered = -1
    needles = rule.window_needles
    reach = rule.reach
    for i, p in enumerate(starts):
        if p < covered:
            continue
        lo, hi = max(0, p - BEFORE), min(n, p + AFTER)
        covered = p + STRIDE
        if needles is not None:
            # Every match lies in [lo, hi) and holds one of them. `find` in place: no
            # copy of the window and no generator per window (~10 k on secret-dense text).
            for x in needles:
                if lowered.find(x, lo, hi) >= 0:
                    break
            else:
                continue
        if reach is None:
            found: Iterable[re.Match[str]] = rule.regex.finditer(text, lo, hi)
        else:
            hits = starts[bisect_left(starts, lo, 0, i) : bisect_left(starts, hi, i)]
            lead = rule.lead_literals
            if lead is not None:
                found = _at_lead_literals(rule.regex, text, lowered, lo, hi, hits, reach, lead)
            else:
                found = _near_hits(rule.regex, text, lo, hi, hits, reach, rule.repeat_led, rule.search)
        for m in found:
            if m.end() >= hi and hi < n:  # maybe cut by the window: look further
                longer = rule.regex.search(text, m.start(), min(n, m.start() + LONG))
                if longer:
                    m = longer
            yield m


# Up to this reach the possible match starts of a repeat-led rule are tried
# one by one (`Pattern.match`); otherwise one search runs from the first of them.
_MATCH_REACH = 48


def _near_hits(
    regex: re.Pattern[str],
    text: str,
    lo: int,
    hi: int,
    hits: list[int],
    reach: int,
    repeat_led: bool,
    search: Callable[[str, int, int], re.Match[str] | None] | None = None,
) -> Iterator[re.Match[str]]:
    """What `finditer(text, lo, hi)` yields when every match holds a keyword hit at most
    `reach` after its start; `hits`: the window's hits, sorted. A match starts in
    [hit - reach, hit] of some hit: the positions between are no start, and those are
    not tried. Matches are never empty (each holds a keyword), so each attempt goes on
    at the previous match's end, as `finditer` does. A match or search at a position
    past `lo` is the attempt `finditer` makes there: `re` reads the text before it for
    lookbehinds and `\\b` either way, and `^` is the text's start. `search`: a function
    with the results of `regex.search`, if faster."""
    pos = lo
    if not repeat_led or reach > _MATCH_REACH:
        search = search or regex.search
        pos = max(pos, hits[0] - reach)
        while pos <= hits[-1]:
            m = search(text, pos, hi)
            if m is None:
                return
            yield m
            pos = m.end()
        return
    match = regex.match
    for hit in hits:
        pos = max(pos, hit - reach)
        while pos <= hit:
            m = match(text, pos, hi)
            if m is None:
                pos += 1
            else:
                yield m
                pos = m.end()


def _at_lead_literals(
    regex: re.Pattern[str],
    text: str,
    lowered: str,
    lo: int,
    hi: int,
    hits: list[int],
    reach: int,
    lead: tuple[str, ...],
) -> Iterator[re.Match[str]]:
    """`_near_hits` for a rule whose every match starts with one of `lead` (lower-cased,
    `_Rule.lead_literals`): a match starts in [hit - reach, hit] of some hit, where
    `lowered` holds one of them, so only those positions are tried, in order, each
    attempt at or after the previous match's end, as `finditer` makes them."""
    starts: set[int] = set()
    for hit in hits:
        first = max(lo, hit - reach)
        for literal in lead:
            last = hit + len(literal)  # an occurrence starting at the hit at the latest
            at = lowered.find(literal, first, last)
            while at >= 0:
                starts.add(at)
                at = lowered.find(literal, at + 1, last)
    pos = lo
    match = regex.match
    for at in sorted(starts):
        if at >= pos and (m := match(text, at, hi)) is not None:
            yield m
            pos = m.end()


# Seeks that are a literal, maybe a dot, then a run of one alphanumeric class
# (`ey[a-z0-9]{17}`, `s\\.[a-z0-9]{24}`, `sk[0-9a-f]{32}`): a match lies in (or,
# with the dot, just before) a run of that many [a-z0-9] characters, and prose
# and code have few such runs. Each regex, a scan for a two-letter literal that
# ordinary text holds every few words, is run only around those runs.
# Read only against rule patterns, but anchored and possessive all the same: every
# module-level regex stays linear on any input (tests/unit/test_regex_linear_time.py).
_RUN_SEEK = re.compile(r"\A([a-z0-9]*+)(\\\.)?\[(?:a-z0-9|0-9a-f)\]\{([0-9]+)\}\Z")
# Runs per character beyond which (logs with trace ids, secret-dense text) the
# whole-text scans cost less than a loop over the runs.
_RUNS_PER_CHAR = 1 / 4000


@cache
def _run_seeks(c: _Compiled) -> tuple[dict[re.Pattern[str], tuple[int, int]], int]:
    """({seek: (run length, characters before the run)}, shortest run length)."""
    shapes: dict[re.Pattern[str], tuple[int, int]] = {}
    for r in c.seeking:
        for rx in c.rules[r].seeks:
            m = _RUN_SEEK.fullmatch(rx.pattern)
            if m is not None and not rx.flags & re.IGNORECASE:
                lit, dot, n = m.group(1), m.group(2), int(m.group(3))
                shapes[rx] = (n, len(lit) + 1) if dot else (len(lit) + n, 0)
    return shapes, min((n for n, _ in shapes.values()), default=0)


def _alnum_runs(alnum: bytes, min_len: int) -> list[tuple[int, int]] | None:
    """Maximal runs of alphanumerics at least `min_len` long in `alnum` (`alnum_view`),
    or None when there are many."""
    need = b"b" * min_len
    most = max(64, int(len(alnum) * _RUNS_PER_CHAR))
    runs: list[tuple[int, int]] = []
    pos = alnum.find(need)
    while pos >= 0:
        end = alnum.find(b" ", pos + min_len)
        if end < 0:
            end = len(alnum)
        runs.append((pos, end))
        # Give up early on text dense in runs (logs with a trace id per line):
        # more than twice the rate allowed over the part read so far.
        if len(runs) > most or (len(runs) >= 64 and len(runs) > 2 * end * _RUNS_PER_CHAR):
            return None
        pos = alnum.find(need, end)
    return runs


def seek_runs(c: _Compiled, alnum: bytes) -> list[tuple[int, int]] | None:
    """The runs the run-shaped seeks are tried in: `_alnum_runs` of `alnum` at the
    shortest seek's length (None when there are many). Maximal runs, so those of
    any greater length are among them (the wallet-key rules need 51)."""
    shapes, shortest = _run_seeks(c)
    return _alnum_runs(alnum, shortest) if shapes else None


@cache
def _seek_needles(c: _Compiled) -> dict[re.Pattern[str], str]:
    """seek -> the longest needle of the keyword pass every match of it starts with
    (case-sensitive seeks only, as they run on the lowered text)."""
    universe = {k.decode("latin-1") for k in c.keywords} | set(c.presence_only)
    out: dict[re.Pattern[str], str] = {}
    for r in c.seeking:
        for rx in c.rules[r].seeks:
            prefixes = None if rx.flags & re.IGNORECASE else literal_prefixes(rx.pattern, rx.flags)
            if not prefixes or len(prefixes) != 1:
                continue
            held = [n for n in universe if n and prefixes[0].startswith(n)]
            if held:
                out[rx] = max(held, key=len)
    return out


@cache
def seek_start_needles(c: _Compiled) -> dict[re.Pattern[str], tuple[str, ...]]:
    """seek -> needles of the keyword pass one of which every match of it starts with,
    read past its literal prefix (`literals.start_literals`), for the case-sensitive
    seeks `_seek_needles` has no needle for: 'sk[0-9a-f]{32}' starts with one of
    'sk0' … 'skf'. Redaction locates them (`redaction._anchors`), so where a text has
    too many alphanumeric runs for the run-shaped path (logs with trace ids) the seek
    is tried at their starts, not scanned for through the text (~1.6 ms/MB)."""
    universe = {k.decode("latin-1") for k in c.keywords} | set(c.presence_only)
    single = _seek_needles(c)
    out: dict[re.Pattern[str], tuple[str, ...]] = {}
    for r in c.seeking:
        for rx in c.rules[r].seeks:
            if rx in single or rx.flags & re.IGNORECASE:
                continue
            starts = start_literals(rx.pattern, rx.flags)
            if starts and all(s in universe for s in starts):
                out[rx] = tuple(sorted(set(starts)))
    return out


def _starts_at(rx: re.Pattern[str], lowered: str, starts: list[int]) -> list[int]:
    """Starts of `rx.finditer(lowered)` when every match starts at one of `starts` (sorted)."""
    out: list[int] = []
    end = 0
    for start in starts:
        if start >= end and (m := rx.match(lowered, start)) is not None:
            out.append(start)
            end = m.end()
    return out


def _seek_starts(
    c: _Compiled,
    lowered: str,
    alnum: bytes | None,
    present: AbstractSet[str] | None = None,
    runs: list[tuple[int, int]] | None | bool = False,
) -> Iterator[tuple[int, list[int]]]:
    """(rule, starts of its seek matches in `lowered`) for each seek: the same as
    `finditer` over the whole text (a match lies in a run, and cannot reach into
    the next one). `alnum`: `alnum_view` of the text, if known; `runs`: its
    `seek_runs`, if known (False: not known).

    `present`: the keyword pass's needles found in `lowered` (with `positions`, as
    `anchor_positions.Present` has them). A seek that is not run-shaped but starts
    with one of the pass's needles ('password', 'kind:') is not scanned for where
    the needle is absent, and tried only at its starts where the pass located it:
    each such scan cost ~1 ms/MB on code and docs."""
    shapes, shortest = _run_seeks(c)
    if shapes and runs is False:
        runs = seek_runs(c, alnum_view(lowered.encode("latin-1", "replace")) if alnum is None else alnum)
    needles = _seek_needles(c) if present is not None else {}
    start_needles = seek_start_needles(c) if present is not None else {}
    positions: dict[str, list[int]] = getattr(present, "positions", None) or {}
    for r in c.seeking:
        for rx in c.rules[r].seeks:
            shape = shapes.get(rx)
            if shape is not None and isinstance(runs, list):
                yield r, _starts_in_runs(rx, lowered, runs, *shape)
                continue
            needle = needles.get(rx)
            if needle is not None and present is not None and needle not in present:
                yield r, []
            elif needle is not None and needle in positions:
                yield r, _starts_at(rx, lowered, positions[needle])
            elif (located := located_starts(start_needles.get(rx), present)) is not None:
                yield r, _starts_at(rx, lowered, located)
            else:
                yield r, [m.start() for m in rx.finditer(lowered)]


def _starts_in_runs(rx: re.Pattern[str], lowered: str, runs: list[tuple[int, int]], n: int, before: int) -> list[int]:
    starts: list[int] = []
    last_end = 0  # as `finditer` over the whole text: no match starts inside the previous one
    for lo, hi in runs:
        if hi - lo < n:
            continue
        for m in rx.finditer(lowered, max(last_end, lo - before), hi):
            starts.append(m.start())
            last_end = m.end()
    return starts


def present(c: _Compiled, hits: Iterable[Hit]) -> set[str]:
    """The keywords (as str) that occur, from `keyword_hits` (their indexes gathered in C:
    secret-dense text has ~14 k hits per MB)."""
    return {c.keywords[k].decode("latin-1") for k in set(map(itemgetter(0), hits))}


def find_gitleaks(
    text: str,
    lowered: str,
    hits: Sequence[Hit] | None = None,
    c: _Compiled | None = None,
    alnum: bytes | None = None,
    present: AbstractSet[str] | None = None,
    runs: list[tuple[int, int]] | None | bool = False,
    outranked: Mapping[int, int] | None = None,
) -> Iterator[Candidate]:
    """Candidates of every generated rule; `hits`: `keyword_hits` of `lowered`, if known;
    `outranked`: `outranked.outranking_ends` of candidates above GITLEAKS found before
    (agenttui's provider rules'): a match there is not judged (it would change nothing).

    Each rule's candidates come straight from its checks (`chain` in C): on secret-dense
    text (~7 k candidates per MB) two generators re-yielding each one cost ~5 % of
    redacting it."""
    per_rule = _judged_per_rule(text, lowered, hits, c, True, alnum, present, runs, outranked)
    return chain.from_iterable(candidates for _, candidates in per_rule)


def starts_per_rule(rules_of: tuple[tuple[int, ...], ...], hits: Iterable[Hit]) -> dict[int, set[int]]:
    """rule -> the starts of its keywords' hits, the rules in the order of their first hit.

    Hits are grouped by keyword first (one append per hit), then handed to the
    rules of each keyword: keywords come in the order of their first hit, so the
    rules do too, as they would hit by hit (`find_rule_matches` judges them in
    this order), at a fraction of the Python steps (a keyword has ~3 rules)."""
    by_keyword: dict[int, list[int]] = {}
    for hit in hits:  # (a pair or a triple: indexed, not unpacked)
        starts = by_keyword.get(hit[0])
        if starts is None:
            by_keyword[hit[0]] = [hit[1]]
        else:
            starts.append(hit[1])
    per_rule: dict[int, set[int]] = {}
    for k, starts in by_keyword.items():
        for r in rules_of[k]:
            have = per_rule.get(r)
            if have is None:
                per_rule[r] = set(starts)
            else:
                have.update(starts)
    return per_rule


def find_rule_matches(
    text: str,
    lowered: str,
    hits: Sequence[Hit] | None = None,
    c: _Compiled | None = None,
    skip_taken: bool = False,
    alnum: bytes | None = None,
    present: AbstractSet[str] | None = None,
    runs: list[tuple[int, int]] | None | bool = False,
    outranked: Mapping[int, int] | None = None,
) -> Iterator[tuple[int, int, _Rule]]:
    """(start, end, rule) of every accepted match of every generated rule.

    `skip_taken`: leave out a span that a rule of the same or a higher priority
    already yielded (redaction needs each span once; which rules found it, all),
    or that starts where one of `outranked` (start -> end of spans of a priority
    above every generated rule's) does and ends no later.
    `alnum`: `crypto_keys.alnum_view` of the text, if known; `present`, `runs`: see
    `_seek_starts`."""
    for rule, candidates in _judged_per_rule(text, lowered, hits, c, skip_taken, alnum, present, runs, outranked):
        for start, end, _, _ in candidates:
            yield start, end, rule


def _judged_per_rule(
    text: str,
    lowered: str,
    hits: Sequence[Hit] | None,
    c: _Compiled | None,
    skip_taken: bool,
    alnum: bytes | None,
    present: AbstractSet[str] | None,
    runs: list[tuple[int, int]] | None | bool,
    outranked: Mapping[int, int] | None,
) -> Iterator[tuple[_Rule, list[Candidate]]]:
    """(rule, its candidates) per generated rule with starts, in the order judged: each
    rule's candidates are to be read whole before the next rule (the spans it accepts
    are skipped by the rules after it). See `find_rule_matches`."""
    judging = _Judging(text, lowered, hits, c, skip_taken, alnum, present, runs, outranked)
    return judging.judged(judging.order)


def find_gitleaks_in_stages(
    text: str,
    lowered: str,
    hits: Sequence[Hit] | None,
    c: _Compiled | None,
    alnum: bytes | None,
    present: AbstractSet[str] | None,
    runs: list[tuple[int, int]] | None | bool,
    outranked: Mapping[int, int] | None,
) -> tuple[list[Candidate], Callable[[Mapping[int, int]], list[Candidate]]]:
    """`find_gitleaks` in two stages: (the candidates of gitleaks' rules, a function that
    gives those of the other sets' rules). It takes `outranking_ends` of candidates found
    in between above OTHER_SETS (agenttui's context finders'): a match of the other sets
    there is not judged either. On secret-dense text an assignment's value is often a
    token Nosey Parker's or Kingfisher's rules match too (~2,300 per MB).

    Concatenated, the two lists are `find_gitleaks` less those matches: both stages run
    in the same order, with the same spans taken before each rule."""
    judging = _Judging(text, lowered, hits, c, True, alnum, present, runs, outranked)
    rules = judging.order
    if not rules:  # most short texts: no keyword of any rule (a few µs of a ~60 µs redaction)
        return [], _no_candidates
    split = next((i for i, (r, _) in enumerate(rules) if not judging.c.rules[r].gitleaks_globals), len(rules))
    first = list(chain.from_iterable(candidates for _, candidates in judging.judged(rules[:split])))
    if split == len(rules):
        return first, _no_candidates

    def other_sets(above: Mapping[int, int]) -> list[Candidate]:
        assert judging.accepted is not None
        taken = judging.accepted[1]
        get = taken.get
        for start, end in above.items():
            if get(start, -1) < end:
                taken[start] = end
        return list(chain.from_iterable(candidates for _, candidates in judging.judged(rules[split:])))

    return first, other_sets


def _no_candidates(above: Mapping[int, int]) -> list[Candidate]:
    return []


class _Judging:
    """One text's scan of the generated rules: where each rule is tried, in which order,
    and the spans taken so far (which the rules after skip)."""

    __slots__ = ("text", "lowered", "c", "accepted", "facts", "shared", "shared_pattern", "order")

    def __init__(
        self,
        text: str,
        lowered: str,
        hits: Sequence[Hit] | None,
        c: _Compiled | None,
        skip_taken: bool,
        alnum: bytes | None,
        present: AbstractSet[str] | None,
        runs: list[tuple[int, int]] | None | bool,
        outranked: Mapping[int, int] | None,
    ) -> None:
        self.text, self.lowered = text, lowered
        self.c = c = c or compiled()
        if hits is None:
            hits = keyword_hits(lowered.encode("latin-1", "replace"), c)
        per_rule = starts_per_rule(c.rules_of, hits)
        for r, seek_starts in _seek_starts(c, lowered, alnum, present, runs):
            per_rule.setdefault(r, set()).update(seek_starts)
        # Spans already accepted, by whether gitleaks' rules found them. On
        # secret-dense text a token is often matched by a rule of each set: a span
        # that a rule of the same or a higher priority accepted would add nothing
        # to the merged result, so its checks are skipped.
        # (by gitleaks' rules, by the other sets' rules): start -> furthest end.
        self.accepted: tuple[dict[int, int], dict[int, int]] | None = ({}, {}) if skip_taken else None
        if self.accepted is not None and outranked:
            self.accepted[0].update(outranked)  # as if a gitleaks rule had taken them: they outrank both sets' rules
        self.facts = _TextFacts(text)
        # Rules of two or three sets often share a pattern (and so their keywords):
        # the regex runs once per pattern and set of starts, each rule judges the
        # same matches. Only patterns that occur more than once are kept. (Where taken
        # spans are skipped, the later rule of each such pair is subsumed and not run.)
        self.shared: dict[tuple[str, bool, tuple[int, ...]], list[re.Match[str]]] = {}
        self.shared_pattern = c.shared_pattern if self.accepted is None else c.shared_unsubsumed
        if self.accepted is not None:
            # gitleaks' rules first: a span one of them took is then not judged again by
            # the other sets' rules (often the same pattern). Each set keeps its order, and
            # each set has one priority, so the merged spans and their kinds are the same.
            # A subsumed rule would find nothing not taken already (`_subsumed`): not run.
            unsubsumed = (rs for rs in per_rule.items() if rs[0] not in c.subsumed)
            self.order = sorted(unsubsumed, key=lambda rs: not c.rules[rs[0]].gitleaks_globals)
        else:
            self.order = list(per_rule.items())

    def judged(self, rule_starts: Iterable[tuple[int, set[int]]]) -> Iterator[tuple[_Rule, list[Candidate]]]:
        c, text, lowered, shared, shared_pattern = self.c, self.text, self.lowered, self.shared, self.shared_pattern
        accepted, facts = self.accepted, self.facts
        for r, starts in rule_starts:
            rule = c.rules[r]
            ordered = sorted(starts)
            key = (rule.pattern, rule.anchored, tuple(ordered)) if r in shared_pattern else None
            matches: Iterable[re.Match[str]] | None = None if key is None else shared.get(key)
            if matches is None:
                if rule.anchored:
                    matches = filter(None, map(rule.regex.match, [text] * len(ordered), ordered))
                else:
                    matches = _windowed(rule, text, ordered, lowered)
                if key is not None:
                    matches = shared[key] = list(matches)
            yield rule, _accepted_spans(c, rule, text, matches, accepted, facts)
