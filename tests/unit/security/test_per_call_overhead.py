"""What a short text pays per call, before any scan: no per-call rebuild of fixed sets.

Short messages are redacted one by one, and there the fixed costs dominate:
- the compiled generated rules hash by identity, so the functions cached on them
  (`_run_seeks`, `_seek_needles`) do not hash ~1,100 rules on every call;
- `present_and_located` reuses its needle sets (sorted, as bytes) from call to
  call instead of rebuilding ~250 of them, with the same answers.
"""

from __future__ import annotations

from agenttui.security import anchor_positions, gitleaks_scan, redaction


def test_compiled_rules_hash_by_identity() -> None:
    c = gitleaks_scan.compiled(redaction._needles()[1])
    assert type(c).__hash__ is object.__hash__
    assert gitleaks_scan._seek_needles(c) is gitleaks_scan._seek_needles(c)


def _reference(view: bytes, needles, anchors, known):
    """present_and_located as first written: every set built on each call."""
    wanted = set(needles)
    anchors = {a for a in anchors if a in wanted or a in known}
    every = tuple(sorted({*wanted, *anchors}))
    found, common = set(), set()
    if len(view) > 2 * anchor_positions._SAMPLE:
        counts = [0] * len(every)
        for k, _ in anchor_positions._hits(view[: anchor_positions._SAMPLE], tuple(n.encode() for n in every)):
            counts[k] += 1
        found = {n for n, c in zip(every, counts, strict=True) if c and n in wanted}
        sparse = anchor_positions._SPARSE_IN_SAMPLE
        common = {n for n, c in zip(every, counts, strict=True) if c > sparse and n in anchors}
    rest = tuple(n for n in every if (n in anchors and n not in common) or (n in wanted and n not in found))
    positions: dict[str, list[int]] = {}
    for k, start in anchor_positions._hits(view, tuple(n.encode() for n in rest)) if rest else ():
        positions.setdefault(rest[k], []).append(start)
    found.update(n for n in positions if n in wanted)
    return found, {n: s for n, s in positions.items() if n in anchors and n not in common}


def test_needle_sets_are_reused_with_the_same_answers() -> None:
    keywords = gitleaks_scan.compiled(redaction._needles()[1])
    anchors = redaction._anchors()
    texts = [b"password: hunter2 token=abc --user bob kind: secret",
             b"nothing to see here",
             (b"def f(key):\n    return session.cookie\n" * 4000) + b"authorization: bearer x"]
    for view in texts:
        known = gitleaks_scan.present(keywords, gitleaks_scan.keyword_hits(view, keywords))
        before = anchor_positions._needle_sets.cache_info().hits
        first = anchor_positions.present_and_located(view, keywords.presence_only, anchors, known)
        second = anchor_positions.present_and_located(view, keywords.presence_only, anchors, known)
        assert anchor_positions._needle_sets.cache_info().hits > before
        assert first == second == _reference(view, keywords.presence_only, anchors, known)
