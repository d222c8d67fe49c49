"""Find and redact secrets (docs/security.md): every text passes here before it reaches disk.

Pipeline: each rule yields candidate spans `(start, end, kind, priority)`;
overlapping spans are merged into their union (so no fragment of a secret
can survive between two partial matches) and the merged span takes the kind
of its highest-priority member; then each span becomes `[REDACTED:<kind>]`.

Speed (`bench/bench_redaction.py`): the cost is a few dozen C
scans over the text, and Python sees only real candidates.
- Every whole-text scan is led by a literal (class-led rules are gated by
  a literal-led hint), so `re` skips ahead with its prefix scan; an
  alternation of anchors is split into one literal-led regex per
  anchor (`anchored.AnchoredPattern`), since a class-led pattern costs a
  match attempt at every letter of its first-character set.
- Provider rules that share a first character share one hint regex, so
  text without any of them pays one scan per family (`secret_patterns`).
- Seed phrases and WIF keys are located on byte views of the text
  (`bytes.translate`/`find`), not with class-led regexes (`crypto_keys`).
Worst case stays linear: every match attempt is bounded (see the module
docstrings of `secret_patterns`, `context_rules` and `anchored`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache, lru_cache
from operator import itemgetter
from typing import Any

from . import gitleaks_scan
from .anchor_positions import Present, at_starts, present_and_located, sparse_positions
from .anchored import AnchoredPattern
from .command_rules import _LOGIN as _LOGIN_COMMAND
from .command_rules import (
    _MYSQL,
    COMMAND_FINDERS,
    find_kubernetes_secret_values,
    find_login_passwords,
    find_mysql_passwords,
    find_sshpass_passwords,
    find_tableau_secrets,
    find_xml_key_values,
)
from .context_rules import (
    _ASSIGN,
    _PROSE,
    CONTEXT_FINDERS,
    FLAG_NEEDLES,
    HEADER_NEEDLES,
    find_assignments,
    find_flags,
    find_headers,
    find_private_key_blocks,
    find_prose,
    find_url_passwords,
)
from .credential_calls import NEEDLES as _CALL_NEEDLES
from .credential_calls import find_credential_calls
from .crypto_keys import alnum_view, ascii_view, find_seed_phrases, find_wallet_keys
from .gc_pause import collector_paused
from .hash_rules import NEEDLES as _HASH_NEEDLES
from .hash_rules import find_password_hashes
from .literals import gate_needles, literal_prefixes, start_literals
from .match import SecretMatch
from .needle_starts import located_starts
from .outranked import outranking_ends
from .pin_rules import _LOGIN as _LOGIN_LINE
from .pin_rules import PIN_FINDERS, find_login_lines, find_pins
from .prose_rules import (
    _AWS_WORDS,
    _PROSE_PW,
    _WALLET_WORDS,
    AWS_ID_NEEDLES,
    PROSE_FINDERS,
    find_aws_secrets,
    find_prose_passwords,
    find_wallet_hex_keys,
)
from .secret_patterns import CONTEXT, GENERIC, PROVIDER_RULES, hinted_matches
from .secret_patterns import Rule as ProviderRule
from .source_derived_keywords import FINDERS as _KEYWORD_SHAPE_FINDERS
from .source_derived_keywords import LOCATED as _KEYWORD_SHAPE_NEEDLES
from .source_derived_rules import FINDERS as _SOURCE_FORMAT_FINDERS
from .source_derived_rules import LOCATED as _SOURCE_FORMAT_NEEDLES
from .source_derived_rules import find_quoted_base64
from .token_lines import find_token_lines
from .values import is_placeholder

log = logging.getLogger(__name__)

Candidate = tuple[int, int, str, int]

# Whole blocks (private keys) outrank anything found inside their base64.
_BLOCK_PRIORITY = 100

_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def ascii_lower(text: str) -> str:
    """Lower-case with offsets preserved (str.lower may lengthen 'İ').

    'İ' (U+0130, Turkish) is the one character `str.lower` turns into two;
    it becomes 'i' first (a C pass), since `translate` with a table costs a
    dictionary look-up per character (~50 ms/MB of non-ASCII text).
    """
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    lowered = text.replace("\u0130", "i").lower()
    if len(lowered) == len(text):
        return lowered
    return text.translate(_ASCII_LOWER)


def byte_view(text: str) -> str:
    """`text` with one byte per character: what format rules scan.

    Offsets are those of `text`. Characters beyond Latin-1 become '?' (wide
    spaces ' '): every rule looks for ASCII, and a 1-byte string is scanned
    several times faster than the 2- or 4-byte one that CJK text or a single
    emoji makes of it. Format rules (provider tokens, gitleaks, wallet keys,
    seed phrases) match ASCII only, so they find the same spans; context rules
    scan the lowered view but read values back from `text`.
    """
    if text.isascii():
        return text
    return ascii_view(text, wide_spaces=True).decode("latin-1")


# str.lower on one-byte text, as a bytes table: A-Z and Latin-1's À-Þ (not ×)
# go down by 32, nothing else changes (tests compare it with str.lower). A C
# table pass, where str.lower of non-ASCII text costs ~7 ms/MB.
_LATIN1_LOWER = bytes(c + 32 if 65 <= c <= 90 or (0xC0 <= c <= 0xDE and c != 0xD7) else c for c in range(256))


def _views(text: str) -> tuple[str, bytes, str, bytes]:
    """(`byte_view(text)`, its bytes, `ascii_lower` of it, its bytes), each made once."""
    view_bytes = ascii_view(text, wide_spaces=True)
    view = text if text.isascii() else view_bytes.decode("latin-1")
    lowered_bytes = view_bytes.translate(_LATIN1_LOWER)
    return view, view_bytes, lowered_bytes.decode("latin-1"), lowered_bytes


@lru_cache(maxsize=64)
def _compile_extra(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    compiled = []
    for p in patterns:
        try:
            compiled.append(re.compile(p))
        except re.error as exc:  # config is validated elsewhere; never crash a save
            log.warning("ignoring invalid redaction pattern %r: %s", p, exc)
    return tuple(compiled)


# Own finders worth gating by the keyword pass: each costs several literal
# scans (≈1–6 ms/MB each on non-ASCII text), and its needles are rare. A gate
# is a list of groups: the finder runs only if every group has a needle in the
# text, and every match of the finder contains one needle of each group
# (lower-cased).
_SECRET_KEY = (
    "secret key",
    "secret_key",
    "secret-key",
    "secretkey",
    "secret access",
    "secret_access",
    "secret-access",
    "secretaccess",
)
Finder = Callable[[str, str], Iterator[Candidate]]
_FINDER_NEEDLES: dict[Finder, tuple[tuple[str, ...], ...]] = {
    find_mysql_passwords: (("mysql", "mariadb"), ("-p",)),
    find_sshpass_passwords: (("sshpass",),),
    find_login_passwords: (("docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras"), ("login",), ("-p",)),
    find_kubernetes_secret_values: (("kind",), ("secret",)),
    find_aws_secrets: ((*AWS_ID_NEEDLES, "aws", *_SECRET_KEY),),
    find_wallet_hex_keys: (("wallet", "priv", "kunci ", "dompet", "seed"),),
    find_tableau_secrets: (("==:",),),
    find_xml_key_values: (("<add",),),
    find_pins: (("pin",),),
    find_login_lines: (("login", "log in", "log-in", "akun", "account", "masuk"),),
    # The context finders: every match starts with one of its regexes' literal
    # anchors (lowered; "-u" of curl's flag is in `text` and so in `lowered`).
    # Most notes hold none, and these scans were a third of an audit's cost.
    find_assignments: (
        (
            "pass",
            "pwd",
            "sandi",
            "secret",
            "token",
            "key",
            "auth",
            "session",
            "cookie",
            "sig",
            "seed",
            "mnemonic",
            "cred",
        ),
    ),
    find_prose: (("pass", "sandi", "private key", "secret key", "api key", "token"),),
    find_flags: (("--", "-u", "--user", *FLAG_NEEDLES),),  # (the others hold "--" or "-u": needles to locate)
    find_url_passwords: (("://",),),
    find_headers: (HEADER_NEEDLES,),
    find_private_key_blocks: (("-----begin", "private-lines:"),),
    find_prose_passwords: (("pw", "pass", "sandi"),),
    find_password_hashes: (_HASH_NEEDLES,),
    find_credential_calls: (_CALL_NEEDLES,),
    # Formats and code shapes from detect-secrets' and secretlint's rule sources.
    **{f: g for f, g in (*_SOURCE_FORMAT_FINDERS.items(), *_KEYWORD_SHAPE_FINDERS.items()) if g is not None},
}


# Finders built on an `AnchoredPattern` over `lowered`: the keyword pass knows
# which of their anchors occur, and the others are not scanned for.
_ANCHORED_FINDERS: dict[Finder, AnchoredPattern] = {
    find_assignments: _ASSIGN,
    find_prose: _PROSE,
    find_prose_passwords: _PROSE_PW,
    find_login_lines: _LOGIN_LINE,
    find_aws_secrets: _AWS_WORDS,
    find_wallet_hex_keys: _WALLET_WORDS,
    find_mysql_passwords: _MYSQL,  # scans `text`: a name there is in `lowered` too
    find_login_passwords: _LOGIN_COMMAND,
}


# Finders that take the needles found, to skip their patterns whose needle is absent.
_TAKE_FOUND = frozenset(
    (
        *_ANCHORED_FINDERS,
        find_credential_calls,
        find_headers,
        find_flags,
        find_password_hashes,
        find_url_passwords,
        find_private_key_blocks,
        find_xml_key_values,
        find_pins,
        find_sshpass_passwords,
        find_kubernetes_secret_values,
        *_SOURCE_FORMAT_FINDERS,
        *_KEYWORD_SHAPE_FINDERS,
    )
)
# Literals that finders' regexes start with, located for them (`anchor_positions.scan`).
_LOCATED_NEEDLES = frozenset(
    (
        *_CALL_NEEDLES,
        "authorization",
        "bearer",
        "cookie",
        "x-",
        "-b",
        *_HASH_NEEDLES,
        *FLAG_NEEDLES,
        "-u",
        "--user",
        "://",
        "-----begin",
        "<add",
        "pin",
        "sshpass",
        "kind",
        *_SOURCE_FORMAT_NEEDLES,
        *_KEYWORD_SHAPE_NEEDLES,
    )
)


def _useful(needles: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """No gate on needles that most texts hold ('https://'): hits cost, a gate that
    is always open saves nothing."""
    if needles is None or any(n.startswith("http") for n in needles):
        return None
    return needles


@cache
def _needles() -> tuple[tuple[tuple[str, ...] | None, ...], tuple[str, ...]]:
    """(gate needles per provider rule, all own needles for the automaton)."""
    per_rule = tuple(r.needles or _useful(gate_needles(r.regex.pattern, r.regex.flags)) for r in PROVIDER_RULES)
    every = (
        {n for g in per_rule if g for n in g}
        | {n for gate in _FINDER_NEEDLES.values() for group in gate for n in group}
        | {a for p in _ANCHORED_FINDERS.values() for a in p.anchors}
    )
    return per_rule, tuple(sorted(every))


@cache
def _anchors() -> frozenset[str]:
    """What the sparse pass locates: the anchored finders' anchors, the provider
    rules' literal prefixes (`_provider_prefixes`), the literals other finders'
    regexes start with (`anchor_positions.scan`) and the needles gitleaks' seeks
    start with (`gitleaks_scan.seek_start_needles`)."""
    seeks = gitleaks_scan.seek_start_needles(gitleaks_scan.compiled(_needles()[1]))
    return (
        frozenset(a for p in _ANCHORED_FINDERS.values() for a in p.anchors)
        | {p for prefixes in _provider_prefixes() if prefixes for p in prefixes}
        | _LOCATED_NEEDLES
        | {n for needles in seeks.values() for n in needles}
    )


@cache
def _provider_prefixes() -> tuple[tuple[str, ...] | None, ...]:
    """Per provider rule, the lowered literals every match starts with, when each is
    a needle of the keyword pass (so its absence is known) and the rule's hint, if
    any, is part of each (so a text without the hint has no match at them); else None."""
    every = frozenset(_needles()[1])
    out: list[tuple[str, ...] | None] = []
    for rule in PROVIDER_RULES:
        prefixes = literal_prefixes(rule.regex.pattern, rule.regex.flags)
        usable = bool(prefixes) and all(
            p and p.lower() in every and (rule.hint is None or rule.hint.match(p)) for p in prefixes or ()
        )
        out.append(tuple(sorted({p.lower() for p in prefixes or ()})) if usable else _needle_starts(rule, every))
    return tuple(out)


# Lower-cased, Twilio's auth token starts 'ac' + a hex digit: 'acc' and 'ace' of
# 'access', 'account', 'interface' (~1,800 a MB of this repository's docs and
# code). Located, each would cost a hit and a match attempt, more than the scan of
# the 'A' family hint it saves: the rule keeps its scan.
_WORD_PART_STARTS = frozenset(f"ac{c}" for c in "0123456789abcdef")


def _needle_starts(rule: ProviderRule, every: frozenset[str]) -> tuple[str, ...] | None:
    """The needles every match of `rule` starts with, read past its literal prefix
    (`literals.start_literals`): Twilio's 'SK' lower-cased is a part of words, but 'sk'
    then a hex digit (its needles) is rare outside tokens. Located, they spare a scan
    of the text for the rule's family hint ('S' + …: capitals are common in docs).
    Each start must begin with a needle and match the hint."""
    starts = start_literals(rule.regex.pattern, rule.regex.flags)
    needles: set[str] = set()
    for s in starts or ():
        held = [n for n in every if n and s.lower().startswith(n)]
        if not held or (rule.hint is not None and not rule.hint.match(s)):
            return None
        needles.add(max(held, key=len))
    if not needles or needles & _WORD_PART_STARTS:
        return None
    return tuple(sorted(needles))


def _provider_candidates(text: str, found: set[str] | None = None) -> Iterator[Candidate]:
    """`found`: the needles present (from the keyword pass); None runs every rule.
    Where the sparse pass located every literal a rule's matches start with, the
    rule is tried at those starts instead of scanning the text for them."""
    gates = _needles()[0]
    hint_found: dict[re.Pattern[str], bool] = {}  # a family's hint is searched once
    for rule, gate, prefixes in zip(PROVIDER_RULES, gates, _provider_prefixes(), strict=True):
        if found is not None and gate is not None and found.isdisjoint(gate):
            continue
        starts = located_starts(prefixes, found)
        if starts is not None:
            matches: Iterable[re.Match[str]] = at_starts(rule.regex, text, starts)
        else:
            if rule.hint is not None:
                hit = hint_found.get(rule.hint)
                if hit is None:
                    hit = hint_found[rule.hint] = rule.hint.search(text) is not None
                if not hit:
                    continue
            matches = rule.regex.finditer(text) if rule.reach is None else hinted_matches(rule, text)
        for m in matches:
            start, end = m.span(rule.group)
            start -= rule.lead
            value = text[start:end]
            if rule.validate is not None and not rule.validate(value):
                continue
            if is_placeholder(value):
                continue
            yield start, end, rule.kind, rule.priority


# Finders that take `outranked` (`outranked.outranking_ends`), with the highest
# priority they yield: the spans that outrank it are the ones they need not judge.
# (Secret-dense text: each is matched at many spans a provider or generated rule took.)
_OUTRANKABLE: dict[Finder, int] = {find_assignments: CONTEXT, find_token_lines: GENERIC, find_quoted_base64: GENERIC}


@cache
def _gated_finders() -> tuple[tuple[Finder, tuple[frozenset[str], ...] | None], ...]:
    """(finder, its gate as sets) in the order they run."""
    return tuple(
        (f, None if (g := _FINDER_NEEDLES.get(f)) is None else tuple(map(frozenset, g)))
        for f in (
            *CONTEXT_FINDERS,
            *COMMAND_FINDERS,
            *PROSE_FINDERS,
            *PIN_FINDERS,
            find_password_hashes,
            find_credential_calls,
            find_token_lines,
            *_SOURCE_FORMAT_FINDERS,
            *_KEYWORD_SHAPE_FINDERS,
        )
    )


@cache
def _finder_stages() -> tuple[int, int]:
    """(the first finder that runs after the other sets' generated rules, the number of
    finders). Those before run first, and a match of the other sets' rules that one of
    their spans above OTHER_SETS outranks is not judged
    (`gitleaks_scan.find_gitleaks_in_stages`): the first that reads the spans below
    CONTEXT found before it (`_OUTRANKABLE`) must see the other sets' among them."""
    finders = [f for f, _ in _gated_finders()]
    split = next((i for i, f in enumerate(finders) if _OUTRANKABLE.get(f, CONTEXT) < CONTEXT), len(finders))
    # Those before read none of the other sets' spans (all below CONTEXT).
    assert all(_OUTRANKABLE.get(f, CONTEXT) >= gitleaks_scan.OTHER_SETS for f in finders[:split])
    return split, len(finders)


def _context_candidates(
    text: str,
    lowered: str,
    found: set[str] | None = None,
    view: str | None = None,
    view_bytes: bytes | None = None,
    alnum: bytes | None = None,
    alnum_runs: list[tuple[int, int]] | None = None,
    earlier: Sequence[Candidate] = (),
    finders: tuple[int, int] | None = None,
) -> Iterator[Candidate]:
    """`view`: `byte_view(text)`, for the format rules at the end (default: `text`);
    `view_bytes`: its bytes, if known; `alnum`: `alnum_view(view_bytes)`, if known;
    `alnum_runs`: its maximal runs of 51 characters or fewer, if known; `earlier`: the
    candidates found before (provider and generated rules), whose spans the finders
    in `_OUTRANKABLE` need not judge again where they outrank them; `finders`: (first,
    end) of `_gated_finders()` to run (default: all), and the format rules at the end
    run only with the last of them."""
    ends_above: dict[int, dict[int, int]] = {}  # priority -> `outranking_ends` above it, made on first use
    gated = _gated_finders()
    first, end = (0, len(gated)) if finders is None else finders
    for finder, gate in gated[first:end]:
        if found is not None and gate is not None and not all(not found.isdisjoint(g) for g in gate):
            continue
        args = (text, lowered, found) if finder in _TAKE_FOUND else (text, lowered)
        top = _OUTRANKABLE.get(finder)
        if top is not None and earlier:
            ends = ends_above.get(top)
            if ends is None:
                ends = ends_above[top] = outranking_ends(earlier, top)
            found_by = finder(*args, outranked=ends)  # type: ignore[call-arg]
        else:
            found_by = finder(*args)
        # Handed on whole: on secret-dense text a Python step per candidate (~10 k per
        # MB) cost more than the test for a block, made in C over the kinds.
        batch = list(found_by)
        if "private_key" in map(itemgetter(2), batch):
            batch = [(s, e, k, _BLOCK_PRIORITY if k == "private_key" and p > CONTEXT else p) for s, e, k, p in batch]
        yield from batch
    if end < len(gated):
        return
    view = text if view is None else view
    yield from find_seed_phrases(view, lowered, view_bytes)
    yield from find_wallet_keys(view, lowered, view_bytes, alnum, alnum_runs)


def _extra_candidates(text: str, patterns: Sequence[str]) -> Iterator[Candidate]:
    for rx in _compile_extra(tuple(patterns)):
        for m in rx.finditer(text):
            if rx.groups and m.start(1) >= 0:
                start, end = m.span(1)
            else:
                start, end = m.span()
            if end > start:
                yield start, end, "custom", CONTEXT + 1  # the user's own rule names a span it shares


def _merge(candidates: Iterable[Candidate]) -> list[list[Any]]:
    return _merge_noting_long(candidates)[0]


def _merge_noting_long(candidates: Iterable[Candidate]) -> tuple[list[list[Any]], list[int]]:
    """(`_merge` of `candidates`, the indexes of the merged spans `_extend_long` looks at):
    noted as they are made, so it need not read every span again (~16 k per MB of
    secret-dense text, a tenth of them long)."""
    merged: list[list[Any]] = []
    long: list[int] = []
    # By start, then longest first, ties in their order: two stable sorts with C
    # keys (a tuple key built by a lambda per candidate costs twice as much).
    ordered = sorted(candidates, key=itemgetter(1), reverse=True)
    ordered.sort(key=itemgetter(0))
    if not ordered:
        return merged, long
    # The open span in locals, appended when the next one starts at or after its
    # end: on secret-dense text (~15 k candidates per MB) indexing `merged[-1]`
    # for each was most of this loop's cost.
    rest = iter(ordered)
    s, e, k, p = next(rest)
    for start, end, kind, priority in rest:
        if start < e:
            if end > e:
                e = end
            if priority > p:
                k, p = kind, priority
        else:
            if e - s >= _LONG_SPAN:
                long.append(len(merged))
            merged.append([s, e, k, p])
            s, e, k, p = start, end, kind, priority
    if e - s >= _LONG_SPAN:
        long.append(len(merged))
    merged.append([s, e, k, p])
    return merged, long


# Rules bound their value (`{1,500}`, so an attempt costs O(1)); a longer
# value must still go whole: a long span is extended over the run of value
# characters that continues it (base64 of a key, a long token).
_LONG_SPAN = 100
_VALUE_RUN = re.compile(r"[A-Za-z0-9+/=_-]*+")


def _extend_long(text: str, spans: list[list[Any]], long: list[int] | None = None) -> list[list[Any]]:
    """`long`: the indexes of the spans of `_LONG_SPAN` or more, if known."""
    if long is None:
        long = [i for i, span in enumerate(spans) if span[1] - span[0] >= _LONG_SPAN]
    n = len(text)
    extended: list[int] = []
    for i in long:
        span = spans[i]
        end = span[1]
        if end >= n:
            continue
        run = _VALUE_RUN.match(text, end - 1)  # the pattern matches the empty string: never None
        if run is not None and run.end() > end:
            span[1] = run.end()
            extended.append(i)
    if not extended:
        return spans
    # Merged spans are disjoint and sorted by start; only an extended one can reach
    # the next, so each joins the spans after it that it reaches, as `_merge` would
    # (with distinct starts its sorts leave the order as it is). On secret-dense text
    # a pass over every span, or the sorts, cost as much as the first merge.
    joined: list[tuple[int, int]] = []  # (first, end) of the spans joined into the one before
    reached = -1
    for i in extended:
        if i <= reached:
            continue  # joined into an earlier one, its extension with it
        last = spans[i]
        j = i + 1
        while j < len(spans) and spans[j][0] < last[1]:
            span = spans[j]
            if span[1] > last[1]:
                last[1] = span[1]
            if span[3] > last[3]:
                last[2], last[3] = span[2], span[3]
            j += 1
        if j > i + 1:
            joined.append((i + 1, j))
        reached = j - 1
    for first, end in reversed(joined):
        del spans[first:end]
    return spans


def keyword_pass(
    lowered_bytes: bytes, keywords: gitleaks_scan._Compiled
) -> tuple[Sequence[gitleaks_scan.Hit], Present]:
    """(the rule keywords' hits, every needle present with the rare anchors' starts) of a
    text's lowered bytes: what gates and locates agenttui's own finders."""
    hits = gitleaks_scan.keyword_hits_as_found(lowered_bytes, keywords)
    needles = gitleaks_scan.present(keywords, hits)
    # The other needles and where the rare anchors are: one more pass.
    scanned = present_and_located(lowered_bytes, keywords.presence_only, _anchors(), needles)
    if scanned is None:  # no automaton package: the same, with `find` scans
        needles |= gitleaks_scan.present_needles(lowered_bytes, keywords.presence_only)
        return hits, Present(needles, sparse_positions(lowered_bytes, _anchors() & needles))
    return hits, Present(needles | scanned[0], scanned[1])


def _spans(text: str, extra_patterns: Sequence[str]) -> list[list[Any]]:
    if not text:
        return []
    # Secret-dense text makes ~100 k small objects per MB (matches, candidate tuples)
    # and no reference cycles: the cyclic collector's passes over them were ~4 % of
    # redacting it, for nothing (security/gc_pause.py: counted, so threads cannot leave it off).
    with collector_paused():
        return _collected_spans(text, extra_patterns)


# From this length the other sets' generated rules run after the early context finders
# (`_finder_stages`). On a short text the stages' extra calls cost more than the few
# judgements they spare (~4 % more instructions for a chat message); either way the
# spans are the same.
_STAGED_MIN = 16_384


def _collected_spans(text: str, extra_patterns: Sequence[str]) -> list[list[Any]]:
    view, view_bytes, lowered, lowered_bytes = _views(text)
    # The keyword pass (Aho-Corasick over the lowered bytes) serves gitleaks'
    # rules (where to try them) and gates agenttui's own (whether to run them).
    keywords = gitleaks_scan.compiled(_needles()[1])
    hits, found = keyword_pass(lowered_bytes, keywords)
    alnum = alnum_view(view_bytes)  # wallet keys and gitleaks' seeks look for long alphanumeric runs
    runs = gitleaks_scan.seek_runs(keywords, alnum)  # found once for both
    candidates = list(_provider_candidates(view, found))
    outranked = outranking_ends(candidates, gitleaks_scan.GITLEAKS)
    if len(text) < _STAGED_MIN:
        candidates += gitleaks_scan.find_gitleaks(view, lowered, hits, keywords, alnum, found, runs, outranked)
        candidates += _context_candidates(text, lowered, found, view, view_bytes, alnum, runs, candidates)
    else:
        generated, other_sets = gitleaks_scan.find_gitleaks_in_stages(
            view, lowered, hits, keywords, alnum, found, runs, outranked
        )
        candidates += generated
        # The context finders that need not see the other sets' spans run before those
        # rules, which then skip what their spans outrank; the candidates keep the order
        # `find_gitleaks` then `_context_candidates` give them (`_merge` breaks ties by it).
        split, count = _finder_stages()
        early = list(_context_candidates(text, lowered, found, view, view_bytes, alnum, runs, candidates, (0, split)))
        candidates += other_sets(outranking_ends(early, gitleaks_scan.OTHER_SETS))
        candidates += early
        candidates += _context_candidates(
            text, lowered, found, view, view_bytes, alnum, runs, candidates, (split, count)
        )
    if extra_patterns:
        candidates.extend(_extra_candidates(text, extra_patterns))
    return _extend_long(text, *_merge_noting_long(candidates))


def find_secrets(text: str, extra_patterns: Sequence[str] = ()) -> list[SecretMatch]:
    """Every secret in `text`, in order, non-overlapping."""
    return [SecretMatch(kind, start, end) for start, end, kind, _ in _spans(text, extra_patterns)]


def contains_secret(text: str, extra_patterns: Sequence[str] = ()) -> bool:
    return bool(_spans(text, extra_patterns))


def redact_secrets(text: str, extra_patterns: Sequence[str] = ()) -> str:
    """`text` with each secret replaced by `[REDACTED:<kind>]`.

    Keys of assignments are kept (`password=[REDACTED:password]`); the
    result is a fixed point (redacting it again changes nothing).
    `extra_patterns` are user regexes from config; group 1, if present, is
    the part to redact. They are the user's own and are not linear-checked.
    """
    spans = _spans(text, extra_patterns)
    if not spans:
        return text
    out: list[str] = []
    append = out.append
    markers = _MARKERS
    pos = 0
    for start, end, kind, _ in spans:
        append(text[pos:start])
        marker = markers.get(kind)
        if marker is None:
            marker = markers[kind] = f"[REDACTED:{kind}]"
        append(marker)
        pos = end
    append(text[pos:])
    return "".join(out)


# kind -> its marker, made once: secret-dense text has ~9 k spans per MB, and the
# kinds are the rules' (and "custom"), a few hundred at most.
_MARKERS: dict[str, str] = {}


def redact_tree(node: Any, extra_patterns: Sequence[str] = ()) -> Any:
    """A parsed JSON or TOML document with every string in it redacted (keys are kept)."""
    if isinstance(node, str):
        return redact_secrets(node, extra_patterns)
    if isinstance(node, list):
        return [redact_tree(item, extra_patterns) for item in node]
    if isinstance(node, dict):
        return {key: redact_tree(value, extra_patterns) for key, value in node.items()}
    return node
