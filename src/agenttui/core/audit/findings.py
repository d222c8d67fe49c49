"""Memory audit (docs/memory.md#the-audit). Pure: items in, findings out; ~O(n) on real data.

:func:`audit` returns **one finding per item, in input order**, with an empty
``flags`` list for a clean item: the audit screen lists every item and sorts
or filters by flag; use :func:`flagged` for only the flagged ones.

Flags:

* ``suspicious`` -- injection-like (``security.injection_reasons``);
* ``secret`` -- contains a credential (``security.find_secrets``);
* ``duplicate`` -- notes that say the same thing: the same words in any
  order, case or punctuation, a light edit, related words, or (when
  ``embed`` is given) close embeddings; see :mod:`audit.duplicates` for
  the rule (numbers, names, roles, weekdays and negation must agree, so
  "Nadia 14:30" and "Raka 14:30" are two notes). Also the same fact key with
  the same value twice. ``twins`` names the other members (at most
  ``MAX_TWINS``) and ``matched`` says, per twin, why the two were matched;
* ``conflict`` -- one fact key with two values where only one can be true
  (the rule below); ``twins`` names the other values' items. Also an item
  edited on two machines before either synced (``sync_conflicts``, from
  ``agenttui.sync.conflicts``): the reason names both machines, the version
  kept and the other one;
* ``stale`` -- unpinned and neither used nor created in the last
  ``stale_days`` (pinned items are kept on purpose);
* ``expired`` -- past its TTL (no longer injected);
* ``too_long`` -- the text (``key = value`` for a fact) exceeds ``max_chars``.

Overrides versus conflicts (facts of one key with different values):

* two values **in one scope** are a conflict (a hand edit, a restore);
* a **profile** value beside a different **user** value is an **override**
  -- what profile scope is for (``package_manager = npm`` in one project,
  ``pnpm`` everywhere else) -- shown in ``notes["override"]``, not flagged,
  when the user set it (source explicit, manual, correction or import), or
  when it is a project setting;
* a profile value **the model wrote** (source model or extraction) for a
  **personal fact** -- who the user is, not how a project works: name,
  birthday, address, e-mail, phone, family, hometown, pronouns, allergies
  (:func:`is_personal_key`, English and Indonesian key words) -- that
  differs from the user-scope value is a conflict: a person has one
  birthday, and a model's guess must not shadow it.

Secrets and suspicious text are screened by the write gate's own detectors
(``security.find_secrets`` with the configured ``redact_patterns``,
``security.injection_reasons`` on the text the gate checks), so an item
that reached the file another way -- an old version, a hand edit, a restore,
an import -- is judged exactly as a new one would be.

Duplicate search never compares all pairs (see :mod:`audit.duplicates`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from functools import lru_cache

from agenttui.core.audit.duplicates import Embed, lexical_pairs, vector_pairs
from agenttui.core.models import AuditFinding, MemoryItem, utcnow
from agenttui.security import find_secrets, injection_reasons
from agenttui.security.gc_pause import collector_paused, collector_resumed

MAX_TWINS = 20
DEFAULT_THRESHOLD = 0.85  # kept for callers; the audit's duplicate rule is audit.duplicates'
Flag = Callable[..., None]  # audit()'s flag(i, name, reason, twins=())

USER_SOURCES = frozenset({"explicit", "manual", "correction", "import"})  # as the write gate's
_PERSONAL = frozenset([
    "name", "names", "nama", "fullname", "nickname", "panggilan", "surname", "birthday", "birthdate",
    "dob", "born", "birth", "lahir", "ultah", "ulang", "tahun", "tanggal", "address", "alamat", "home",
    "rumah", "email", "phone", "hp", "telepon", "telp", "whatsapp", "wa", "mobile", "spouse", "wife",
    "husband", "istri", "suami", "partner", "pacar", "child", "children", "kids", "anak", "son",
    "daughter", "mother", "father", "mom", "dad", "ibu", "ayah", "bapak", "parents", "orangtua",
    "sibling", "brother", "sister", "kakak", "adik", "hometown", "nationality", "kewarganegaraan",
    "pronouns", "gender", "age", "umur", "usia", "religion", "agama", "blood", "allergy", "allergies",
    "alergi"
])


def audit(
    items: Sequence[MemoryItem],
    now: datetime | None = None,
    stale_days: int = 90,
    max_chars: int = 500,
    near_duplicate_threshold: float = DEFAULT_THRESHOLD,
    *,
    redact_patterns: Sequence[str] = (),
    embed: Embed | None = None,
    sync_conflicts: Mapping[str, str] | None = None,
) -> list[AuditFinding]:
    """``embed``: texts -> unit vectors (``audit.vectors.cached_embedder``), when the
    endpoint serves embeddings; it may raise ``EmbeddingError`` (the caller shows it).
    ``sync_conflicts``: item id -> why (``agenttui.sync.conflicts.memory_conflicts``).

    ``near_duplicate_threshold`` is the write gate's Jaccard bound; the audit
    no longer uses it (one word apart in a long note passes any Jaccard bound).
    """
    # The audit allocates a million small containers (signatures, postings, cached
    # results) and leaves no reference cycles: the cyclic collector's passes over them
    # and the big caches cost 10-15% of its time, for nothing. Paused while it computes
    # (agenttui.security.gc_pause), on again while it waits on the embeddings endpoint.
    fetch = _collecting(embed) if embed is not None else None
    with collector_paused():
        return _audit(items, now or utcnow(), stale_days, max_chars, tuple(redact_patterns), fetch,
                      sync_conflicts or {})


def _collecting(embed: Embed) -> Embed:
    """``embed`` with the collector on: a request to the endpoint may take seconds."""

    def fetch(texts: Sequence[str]) -> Sequence[Sequence[float]]:
        with collector_resumed():
            return embed(texts)

    return fetch


def _audit(items: Sequence[MemoryItem], now: datetime, stale_days: int, max_chars: int,
           redact_patterns: tuple[str, ...], embed: Embed | None,
           sync_conflicts: Mapping[str, str]) -> list[AuditFinding]:
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
        checked = f"{item.key}: {item.value}" if item.kind == "fact" else item.text  # as the gate
        why, kinds = screen_text(checked, redact_patterns)
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

    _flag_note_duplicates(items, findings, flag, embed)
    _flag_fact_clashes(items, findings, flag)
    _flag_sync_conflicts(items, findings, flag, sync_conflicts)
    return findings


def _flag_sync_conflicts(items: Sequence[MemoryItem], findings: list[AuditFinding], flag: Flag,
                         sync_conflicts: Mapping[str, str]) -> None:
    for i, item in enumerate(items):
        reason = sync_conflicts.get(item.id)
        if reason is None:
            continue
        finding = findings[i]
        if "conflict" in finding.flags:  # a fact clash too: one flag, both reasons
            finding.reasons["conflict"] += " " + reason
        else:
            flag(i, "conflict", reason)


@lru_cache(maxsize=32768)
def screen_text(text: str, patterns: tuple[str, ...] = ()) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(injection reasons, secret kinds) for one text.

    The security checks are pure and are most of the audit's cost, so they
    are cached by text: the audit screen re-runs the audit after every edit,
    and then only changed items pay for them.
    """
    kinds = tuple(sorted({s.kind for s in find_secrets(text, patterns)}))
    return tuple(injection_reasons(text)), kinds


def _others(members: Sequence[int], me: int) -> list[int]:
    """Up to MAX_TWINS members other than ``me`` (keeps big clusters O(k))."""
    return [j for j in members[: MAX_TWINS + 1] if j != me][:MAX_TWINS]


def _flag_note_duplicates(items: Sequence[MemoryItem], findings: list[AuditFinding], flag: Flag,
                          embed: Embed | None) -> None:
    notes = [i for i, item in enumerate(items) if item.kind == "note"]
    texts = [items[i].text for i in notes]
    pairs: dict[tuple[int, int], str] = {}
    for pair in lexical_pairs(texts):
        pairs[(pair.a, pair.b)] = pair.why
    if embed is not None and texts:
        for pair in vector_pairs(embed(texts), texts, embed=embed, known=pairs.keys()):
            pairs.setdefault((pair.a, pair.b), pair.why)
    parent = list(range(len(notes)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    why_of: dict[int, dict[int, str]] = defaultdict(dict)
    for (a, b), why in pairs.items():
        parent[find(a)] = find(b)
        why_of[a][b] = why_of[b][a] = why
    clusters: dict[int, list[int]] = defaultdict(list)
    for n in sorted(why_of):
        clusters[find(n)].append(n)
    for cluster in clusters.values():
        members = [notes[c] for c in cluster]
        for c in cluster:
            i = notes[c]
            # direct matches first (they have a reason), then the rest of the group
            near = sorted(why_of[c])[:MAX_TWINS]  # matched directly: each has a reason
            direct = [notes[d] for d in near]
            in_direct = set(direct)
            shown = direct + [j for j in _others(members, i) if j not in in_direct][: MAX_TWINS - len(direct)]
            reason = f"Says the same as {items[direct[0]].text!r}: {why_of[c][near[0]]}."
            if len(members) > 2:
                reason += f" ({len(members) - 1} other notes say it too.)"
            flag(i, "duplicate", reason, (items[j].id for j in shown))
            for d in near:
                findings[i].matched[items[notes[d]].id] = why_of[c][d]


def is_personal_key(key: str) -> bool:
    """A fact about who the user is (name, birthday, address …), not how a project works."""
    return not _PERSONAL.isdisjoint(re.split(r"[^a-z0-9]+", key.casefold()))


def _flag_fact_clashes(items: Sequence[MemoryItem], findings: list[AuditFinding], flag: Flag) -> None:
    by_key: dict[str, dict[str | None, list[int]]] = defaultdict(lambda: defaultdict(list))
    for i, item in enumerate(items):
        if item.kind == "fact" and item.key:
            by_key[item.key][_value(item.value)].append(i)
    for key, by_value in by_key.items():
        for value, group in by_value.items():
            for i in group:
                mine = items[i]
                same = _others(group, i)
                if same:
                    where = " and ".join(sorted({items[j].scope for j in same}))
                    flag(i, "duplicate", f"{key} = {mine.value!r} is set more than once ({where} scope).",
                         (items[j].id for j in same))
                clash: list[int] = []
                overrides: list[int] = []
                for other_value, other_group in by_value.items():
                    if other_value == value:
                        continue
                    for j in other_group:
                        (clash if _conflicts(mine, items[j]) else overrides).append(j)
                if clash:
                    values = ", ".join(f"{items[j].value!r} ({items[j].scope}, {_who(items[j])})"
                                       for j in clash[:MAX_TWINS])
                    flag(i, "conflict", f"{key} is {mine.value!r} here ({mine.scope}, {_who(mine)}) "
                         f"but also {values}.", (items[j].id for j in clash[:MAX_TWINS]))
                if overrides:
                    j = overrides[0]
                    profile, user = (mine, items[j]) if mine.scope == "profile" else (items[j], mine)
                    findings[i].notes["override"] = (
                        f"{key} = {profile.value!r} in this profile overrides {user.value!r} "
                        f"(user scope), {_why_override(profile)}.")
                    for j in overrides[:MAX_TWINS]:
                        if items[j].id not in findings[i].twins:
                            findings[i].twins.append(items[j].id)


def _value(value: str | None) -> str:
    """Values compared as the user reads them: "Jakarta" and "jakarta " are one value."""
    return " ".join((value or "").casefold().split())


def _who(item: MemoryItem) -> str:
    return "set by you" if item.source in USER_SOURCES else "written by the model"


def _conflicts(a: MemoryItem, b: MemoryItem) -> bool:
    """Two different values of one key: a conflict, or a profile's override (module doc)."""
    if a.scope == b.scope:
        return True
    profile = a if a.scope == "profile" else b
    if profile.source in USER_SOURCES:
        return False
    return is_personal_key(profile.key or "")


def _why_override(profile: MemoryItem) -> str:
    if profile.source in USER_SOURCES:
        return "set on purpose"
    return "a project setting the model noted in this profile"


def flagged(findings: Iterable[AuditFinding]) -> list[AuditFinding]:
    return [f for f in findings if f.flags]
