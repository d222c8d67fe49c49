"""Memory audit (M9). Pure: items in, findings out; ~O(n) on real data.

:func:`audit` returns **one finding per item, in input order**, with an empty
``flags`` list for a clean item: the audit screen lists every item and sorts
or filters by flag; use :func:`flagged` for only the flagged ones.

Flags:

* ``suspicious`` -- injection-like (``security.injection_reasons``);
* ``secret`` -- contains a credential (``security.find_secrets``);
* ``duplicate`` -- a near-duplicate cluster of notes (token Jaccard >=
  threshold, across both scopes), or the same fact key with the same value in
  both scopes; ``twins`` names the other members (at most ``MAX_TWINS``);
* ``conflict`` -- the same fact key with different values (same scope after a
  hand edit, or user vs profile scope); ``twins`` names the other values' items;
* ``stale`` -- unpinned and neither used nor created in the last
  ``stale_days`` (pinned items are kept on purpose);
* ``expired`` -- past its TTL (no longer injected);
* ``too_long`` -- the text (``key = value`` for a fact) exceeds ``max_chars``.

Near-duplicates use :class:`memory_text.NearDuplicateIndex` (exact-set
grouping + prefix-filtered inverted index), never an all-pairs loop.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from functools import lru_cache

from agenttui.core.memory_text import NearDuplicateIndex
from agenttui.core.models import AuditFinding, MemoryItem, utcnow
from agenttui.security import find_secrets, injection_reasons

MAX_TWINS = 20
DEFAULT_THRESHOLD = 0.85


def audit(
    items: Sequence[MemoryItem],
    now: datetime | None = None,
    stale_days: int = 90,
    max_chars: int = 500,
    near_duplicate_threshold: float = DEFAULT_THRESHOLD,
) -> list[AuditFinding]:
    now = now or utcnow()
    findings = [AuditFinding(item=item) for item in items]

    def flag(i: int, name: str, reason: str, twins: Iterable[str] = ()) -> None:
        finding = findings[i]
        finding.flags.append(name)  # type: ignore[arg-type]
        finding.reasons[name] = reason
        for twin in twins:
            if twin not in finding.twins:
                finding.twins.append(twin)

    stale_before = now - timedelta(days=stale_days)
    for i, item in enumerate(items):
        text = item.display
        why, kinds = screen_text(text)
        if why:
            flag(i, "suspicious", "Looks like an instruction to the assistant: " + "; ".join(why) + ".")
        if kinds:
            flag(i, "secret", f"Contains what looks like a credential ({', '.join(kinds)}).")
        if item.is_expired(now):
            flag(i, "expired", f"Expired on {item.expires:%Y-%m-%d}; no longer sent to the model.")
        reference = item.last_used or item.created
        if not item.pinned and reference < stale_before:
            what = "Last used" if item.last_used else "Never used; created"
            flag(i, "stale", f"{what} {(now - reference).days} days ago (more than {stale_days}).")
        if len(text) > max_chars:
            flag(i, "too_long", f"{len(text)} characters (the limit is {max_chars}).")

    _flag_note_duplicates(items, flag, near_duplicate_threshold)
    _flag_fact_clashes(items, flag)
    return findings


@lru_cache(maxsize=32768)
def screen_text(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(injection reasons, secret kinds) for one text.

    The security checks are pure and are most of the audit's cost, so they
    are cached by text: the audit screen re-runs the audit after every edit,
    and then only changed items pay for them.
    """
    kinds = tuple(sorted({s.kind for s in find_secrets(text)}))
    return tuple(injection_reasons(text)), kinds


def _others(members: Sequence[int], me: int) -> list[int]:
    """Up to MAX_TWINS members other than ``me`` (keeps big clusters O(k))."""
    return [j for j in members[: MAX_TWINS + 1] if j != me][:MAX_TWINS]


def _flag_note_duplicates(items: Sequence[MemoryItem], flag, threshold: float) -> None:
    notes = [i for i, item in enumerate(items) if item.kind == "note"]
    clusters = NearDuplicateIndex(threshold).clusters([items[i].text for i in notes])
    for cluster in clusters:
        members = [notes[c] for c in cluster]
        for i in members:
            shown = _others(members, i)
            if len(members) == 2:
                reason = f"Near-duplicate of {items[shown[0]].text!r}."
            else:
                reason = f"Near-duplicate of {len(members) - 1} other notes, e.g. {items[shown[0]].text!r}."
            flag(i, "duplicate", reason, (items[j].id for j in shown))


def _flag_fact_clashes(items: Sequence[MemoryItem], flag) -> None:
    by_key: dict[str, dict[str | None, list[int]]] = defaultdict(lambda: defaultdict(list))
    for i, item in enumerate(items):
        if item.kind == "fact" and item.key:
            by_key[item.key][item.value].append(i)
    for key, by_value in by_key.items():
        for value, group in by_value.items():
            other: list[int] = []
            for other_value, other_group in by_value.items():
                if other_value != value and len(other) < MAX_TWINS:
                    other.extend(other_group[: MAX_TWINS - len(other)])
            for i in group:
                mine = items[i]
                same = _others(group, i)
                if same:
                    where = " and ".join(sorted({items[j].scope for j in same}))
                    flag(i, "duplicate", f"{key} = {value!r} is set more than once ({where} scope).",
                         (items[j].id for j in same))
                if other:
                    values = ", ".join(f"{items[j].value!r} ({items[j].scope})" for j in other)
                    flag(i, "conflict", f"{key} is {value!r} here ({mine.scope}) but also {values}.",
                         (items[j].id for j in other))


def flagged(findings: Iterable[AuditFinding]) -> list[AuditFinding]:
    return [f for f in findings if f.flags]
