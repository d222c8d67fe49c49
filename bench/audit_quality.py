"""Recall and false flags of the memory audit on bench/audit_corpus.py.

* recall per planted category: a duplicate pair counts when each side is
  flagged ``duplicate`` with the other among its twins; a flag category
  when the planted item carries that flag;
* false flags per hard-negative category: near-miss pairs called
  duplicates, innocent notes flagged ``secret``/``suspicious``, deliberate
  overrides flagged ``conflict``, ordinary notes flagged at all;
* the overall false-flag rate: items carrying a flag that nothing planted
  gives them, over all items.
"""

from __future__ import annotations

from collections.abc import Sequence

from audit_corpus import NOW, Truth

from agenttui.core.audit.duplicates import Embed
from agenttui.core.audit.findings import audit
from agenttui.core.models import AuditFinding, MemoryItem

DUP_CATEGORIES = ("dup_exact", "dup_light", "dup_paraphrase", "dup_translation")
FLAG_CATEGORIES = ("conflict", "secret", "suspicious", "expired", "stale", "too_long")


def _paired(found: dict[str, AuditFinding], a: str, b: str) -> bool:
    fa, fb = found[a], found[b]
    return "duplicate" in fa.flags and "duplicate" in fb.flags and (b in fa.twins or a in fb.twins)


def expected_flags(truth: Truth) -> dict[str, set[str]]:
    expected: dict[str, set[str]] = {}
    for pairs in truth.pairs.values():
        for a, b in pairs:
            expected.setdefault(a, set()).add("duplicate")
            expected.setdefault(b, set()).add("duplicate")
    for flag, ids in truth.flagged.items():
        for i in ids:
            expected.setdefault(i, set()).add(flag)
    return expected


def score(items: Sequence[MemoryItem], truth: Truth,
          embed: Embed | None = None) -> dict[str, tuple[int, int]]:
    """category -> (hits, total); hard-negative categories count false flags."""
    found = {f.item.id: f for f in audit(items, now=NOW, embed=embed)}
    out: dict[str, tuple[int, int]] = {}
    for cat in DUP_CATEGORIES:
        pairs = truth.pairs[cat]
        out[cat] = (sum(_paired(found, a, b) for a, b in pairs), len(pairs))
    for cat in FLAG_CATEGORIES:
        ids = truth.flagged[cat]
        out[cat] = (sum(cat in found[i].flags for i in ids), len(ids))
    out["false:near_miss"] = (sum(_paired(found, a, b) for a, b in truth.near_miss), len(truth.near_miss))
    out["false:innocent"] = (sum(bool({"secret", "suspicious"} & set(found[i].flags)) for i in truth.innocent),
                             len(truth.innocent))
    out["false:override_as_conflict"] = (sum("conflict" in found[i].flags for i in truth.overrides),
                                         len(truth.overrides))
    out["shown:override"] = (sum("override" in found[i].notes for i in truth.overrides), len(truth.overrides))
    expected = expected_flags(truth)
    out["false:ordinary"] = (sum(bool(set(found[i].flags) - expected.get(i, set())) for i in truth.ordinary),
                             len(truth.ordinary))
    out["false:any_item"] = (sum(bool(set(f.flags) - expected.get(i, set())) for i, f in found.items()),
                             len(found))
    return out


def unexpected(items: Sequence[MemoryItem], truth: Truth,
               embed: Embed | None = None, limit: int = 15) -> list[str]:
    """Examples of false flags (for reading what went wrong)."""
    found = audit(items, now=NOW, embed=embed)
    expected = expected_flags(truth)
    lines = []
    for f in found:
        extra = set(f.flags) - expected.get(f.item.id, set())
        if extra:
            lines.append(f"{sorted(extra)} {f.item.display[:70]!r}: "
                         + " | ".join(f.reasons[x][:110] for x in sorted(extra)))
    return lines[:limit]


def missed(items: Sequence[MemoryItem], truth: Truth, category: str,
           embed: Embed | None = None) -> list[str]:
    found = {f.item.id: f for f in audit(items, now=NOW, embed=embed)}
    text = {i.id: i.display for i in items}
    if category in truth.pairs:
        return [f"{text[a]!r} / {text[b]!r}" for a, b in truth.pairs[category] if not _paired(found, a, b)]
    return [repr(text[i]) for i in truth.flagged[category] if category not in found[i].flags]


def report(results: dict[str, tuple[int, int]], title: str) -> None:
    print(f"\n{title}")
    print(f"  {'category':28} {'found':>9} {'rate':>6}")
    for cat, (hits, total) in results.items():
        rate = hits / total if total else 0.0
        print(f"  {cat:28} {hits:>4}/{total:<4} {rate:6.3f}")
    planted = [c for c in (*DUP_CATEGORIES, *FLAG_CATEGORIES)]
    hits = sum(results[c][0] for c in planted)
    total = sum(results[c][1] for c in planted)
    print(f"  {'recall, all planted':28} {hits:>4}/{total:<4} {hits / total:6.3f}")
    f_hits, f_total = results["false:any_item"]
    print(f"  {'false-flag rate, all items':28} {f_hits:>4}/{f_total:<4} {f_hits / f_total:6.3f}")
