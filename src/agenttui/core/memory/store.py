"""Long-term memory (docs/memory.md, docs/storage.md#backups): :class:`MemoryStore`.

Two scopes, one JSON file each (:mod:`agenttui.core.memory.file`): ``user``
at ``paths.user_memory_file`` and ``profile`` at
``paths.profile_memory_file(profile)``.

Decisions:

* **Lazy** -- the constructor does no I/O; a scope is read on first use.
* **Fresh reads, cheap** -- every read stats the file and re-parses only when
  (inode, mtime_ns, size) changed, so hand edits and other processes' writes
  are seen at once.
* **No lost updates** -- every read-modify-write holds ``files.locked(path)``
  and re-reads inside the lock; writes are atomic (temp + fsync + rename), so
  a kill at any instant leaves the old or the new file, and a write that has
  returned is on disk. (:meth:`mark_used`, bookkeeping on every turn, skips
  the directory fsync: a power loss may drop a use count, never an item.)
* **One gate** -- every write goes through
  :func:`agenttui.core.memory.gate.check_write`.
* **Consent** -- a write the gate marks ``pending`` is kept in this
  process only (:meth:`pending`) and returned with ``status="pending"``; the
  UI asks, then :meth:`confirm_pending` (re-checks the gate against the
  current file, with ``confirmed=True``) or :meth:`discard_pending`. A caller
  that asked the user itself may instead re-submit with ``confirmed=True``.
  Pending proposals die with the process: the model can propose again.
* **Review queue** -- another agent's ``memory_add`` through ``mcp serve``
  waits in a file (:mod:`agenttui.core.memory.review_queue`) until the user
  accepts (:meth:`accept_review`, through the gate again) or rejects it in the
  Memory pane: :meth:`hold_for_review`, :meth:`reviews`, :meth:`reject_review`.
* **Caps without loss** -- no cap by default (``max_notes = 0``): the
  prompt picks notes by relevance (core/recall/retrieval.py), so a month of use
  never pushes a note out. With a cap set, over ``max_notes`` notes in a scope, the least
  recently touched (max of updated / last_used) unpinned note moves to the
  scope's ``archive``. Facts are not counted: there is one per key, and the
  model can only use allowlisted keys. If every note is pinned the cap is
  exceeded rather than anything dropped.
* **Copies out** -- items returned to callers are copies; change memory
  only through the methods, never by mutating a returned item.
* **Backups** -- the first write of each day makes the daily backup
  (rotation ``backup_keep``); :meth:`remove`, :meth:`reset` and :meth:`merge`
  take a timestamped snapshot first and record it in :attr:`last_backup`.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Literal, TypeVar

from agenttui.core import files
from agenttui.core.config.paths import Paths
from agenttui.core.config.settings import MemorySettings
from agenttui.core.memory import file as memory_file
from agenttui.core.memory.backup import backup_memory_daily, snapshot_memory
from agenttui.core.memory.file import ScopeData
from agenttui.core.memory.gate import check_write
from agenttui.core.memory.read_screen import content_hash
from agenttui.core.memory.review_queue import FILE_NAME as REVIEW_FILE
from agenttui.core.memory.review_queue import ReviewQueue
from agenttui.core.memory.text import is_near_duplicate
from agenttui.core.models import SCOPES, ItemKind, MemoryItem, Origin, Scope, Source, WriteResult, WriteStatus, utcnow

ScopeArg = Scope | Literal["all"]
T = TypeVar("T")
BATCH_SECONDS = 1.0  # gate work per lock hold in submit_many: others wait on the lock meanwhile


class MemoryStore:
    def __init__(
        self,
        paths: Paths,
        profile: str,
        settings: MemorySettings | None = None,
        redact_patterns: Sequence[str] = (),
    ) -> None:
        self.paths = paths
        self.profile = profile
        self.settings = settings or MemorySettings()
        self.redact_patterns = tuple(redact_patterns)
        self._paths: dict[Scope, Path] = {
            "user": paths.user_memory_file,
            "profile": paths.profile_memory_file(profile),
        }
        self._cache: dict[Scope, tuple[tuple[int, int, int] | None, ScopeData]] = {}
        self._problems: list[str] = []
        self._pending: dict[str, MemoryItem] = {}
        self.review_queue = ReviewQueue(self._paths["profile"].with_name(REVIEW_FILE))
        self._kept_cache: dict[Scope, tuple[tuple[int, int, int] | None, frozenset[str]]] = {}
        self._backed_up_on: date | None = None
        self.last_backup: Path | None = None

    # -- reading -----------------------------------------------------------
    @property
    def problems(self) -> list[str]:
        """Files (or items) moved aside while loading, as sentences naming paths."""
        for scope in SCOPES:  # reading is what discovers problems: do it lazily
            self._data(scope)
        return list(self._problems)

    def files(self) -> dict[Scope, Path]:
        return dict(self._paths)

    def _scopes(self, scope: ScopeArg) -> tuple[Scope, ...]:
        if scope == "all":
            return SCOPES
        if scope not in SCOPES:
            raise ValueError(f"unknown scope {scope!r}")
        return (scope,)

    def _data(self, scope: Scope, *, locked: bool = False) -> ScopeData:
        """The scope's current content; re-parsed only if the file changed."""
        path = self._paths[scope]
        key = memory_file.stat_key(path)
        cached = self._cache.get(scope)
        if cached is not None and key is not None and cached[0] == key:
            return cached[1]
        result = memory_file.read(path, scope)
        if result.fatal_detail or result.bad_items or result.fixed:
            if not locked:  # repair only under the lock, after a re-read
                with files.locked(path):
                    return self._data(scope, locked=True)
            result = memory_file.load_repairing(path, scope)
            if result.problem:
                self._problems.append(result.problem)
            key = memory_file.stat_key(path)
        self._cache[scope] = (key, result.data)
        return result.data

    def items(self, scope: ScopeArg = "all", include_expired: bool = True, *,
              copies: bool = True, now: datetime | None = None) -> list[MemoryItem]:
        """The items of ``scope``. ``copies=False`` hands out the cached objects
        themselves, for readers that never change them (prompt assembly: copying
        2,000 items on every turn cost more than ranking them). ``now`` decides
        what has expired (default: the clock)."""
        now = now or utcnow()
        out: list[MemoryItem] = []
        for s in self._scopes(scope):
            live = (i for i in self._data(s).items if include_expired or not i.is_expired(now))
            out.extend(map(MemoryItem.detached, live) if copies else live)
        return out

    def archived(self, scope: ScopeArg = "all") -> list[MemoryItem]:
        return [i.detached() for s in self._scopes(scope) for i in self._data(s).archive]

    def find(self, substring: str, scope: ScopeArg = "all") -> list[MemoryItem]:
        needle = substring.casefold().strip()
        if not needle:
            return []
        return [i for i in self.items(scope) if needle in i.display.casefold()]

    def get(self, item_id: str) -> MemoryItem | None:
        return next((i for i in self.items() if i.id == item_id), None)

    def pending(self) -> list[MemoryItem]:
        return [i.detached() for i in self._pending.values()]

    # -- the write cycle ---------------------------------------------------
    def _mutate(self, scope: Scope, change: Callable[[ScopeData], tuple[T, bool]], *,
                sync_dir: bool = True) -> T:
        """Lock, re-read, apply ``change`` (returns (result, changed)), write if changed."""
        path = self._paths[scope]
        self._daily_backup()
        with files.locked(path):
            data = self._data(scope, locked=True)
            try:
                result, changed = change(data)
                if changed:
                    memory_file.write(path, data, sync_dir=sync_dir)
            except BaseException:
                self._cache.pop(scope, None)  # ``change`` may have half-edited the cached copy
                raise
            if changed:
                self._cache[scope] = (memory_file.stat_key(path), data)
        return _detach(result)

    def _daily_backup(self) -> None:
        today = date.today()
        if self._backed_up_on == today:
            return
        self._backed_up_on = today
        # A backup failure (disk full, permissions) must not block the write.
        try:
            backup_memory_daily(self.paths, keep=self.settings.backup_keep,
                                redact_patterns=self.redact_patterns)
        except OSError:
            self._backed_up_on = None

    def _snapshot(self, reason: str) -> Path:
        self.last_backup = snapshot_memory(self.paths, reason, self.redact_patterns)
        return self.last_backup

    # -- adding ------------------------------------------------------------
    def add_note(
        self,
        text: str,
        scope: Scope = "user",
        source: Source = "explicit",
        origin: Origin | None = None,
        pinned: bool = False,
        ttl_days: float | None = None,
        confidence: float = 1.0,
        *,
        confirmed: bool = False,
        untrusted: bool = False,
    ) -> WriteResult:
        """``untrusted``: proposed in a turn that read untrusted content (held for the user)."""
        return self._submit(self.proposed_note(text, scope, source, origin, pinned, ttl_days, confidence),
                            confirmed, untrusted)

    def set_fact(
        self,
        key: str,
        value: str,
        scope: Scope = "user",
        source: Source = "explicit",
        origin: Origin | None = None,
        pinned: bool = False,
        ttl_days: float | None = None,
        confidence: float = 1.0,
        *,
        confirmed: bool = False,
        untrusted: bool = False,
    ) -> WriteResult:
        return self._submit(self.proposed_fact(key, value, scope, source, origin, pinned, ttl_days, confidence),
                            confirmed, untrusted)

    def proposed_note(self, text: str, scope: Scope = "user", source: Source = "explicit",
                      origin: Origin | None = None, pinned: bool = False, ttl_days: float | None = None,
                      confidence: float = 1.0) -> MemoryItem:
        """A note as :meth:`add_note` would submit it, not stored (for :meth:`submit_many`)."""
        item = self._proposal("note", scope, source, origin, pinned, ttl_days, confidence)
        item.text = text
        return item

    def proposed_fact(self, key: str, value: str, scope: Scope = "user", source: Source = "explicit",
                      origin: Origin | None = None, pinned: bool = False, ttl_days: float | None = None,
                      confidence: float = 1.0) -> MemoryItem:
        """A fact as :meth:`set_fact` would submit it, not stored (for :meth:`submit_many`)."""
        item = self._proposal("fact", scope, source, origin, pinned, ttl_days, confidence)
        item.key, item.value = key, value
        return item

    def _proposal(self, kind: ItemKind, scope: Scope, source: Source, origin: Origin | None, pinned: bool,
                  ttl_days: float | None, confidence: float) -> MemoryItem:
        now = utcnow()
        return MemoryItem(
            kind=kind, scope=scope, source=source, pinned=pinned,
            confidence=min(1.0, max(0.0, float(confidence))),
            created=now, updated=now,
            expires=now + timedelta(days=ttl_days) if ttl_days else None,
            origin=origin or Origin(profile=self.profile),
        )

    def confirm_pending(self, item_id: str) -> WriteResult:
        """The user said yes to a pending model proposal: store it (through the gate again)."""
        item = self._pending.pop(item_id, None)
        if item is None:
            return WriteResult("rejected", reason="That proposal is no longer pending.")
        return self._submit(item, confirmed=True)

    def accept_proposal(self, item: MemoryItem) -> WriteResult:
        """The user said yes to a proposal shown to them: store it.

        The one rule for an offer's "Remember" (the agent's hook and the Memory
        pane both call it): that yes *is* the consent the gate waits for, so
        the write is ``confirmed`` whatever the source. A proposal still held
        here is confirmed by id; one that is not (an offered correction, which
        is never held; a model proposal whose store was replaced by a profile
        switch) is submitted again as a copy. The gate runs again either way:
        a yes never lets through what the gate refuses.
        """
        if item.id in self._pending:
            return self.confirm_pending(item.id)
        return self._submit(replace(item), confirmed=True)

    def discard_pending(self, item_id: str) -> MemoryItem | None:
        return self._pending.pop(item_id, None)

    # -- the review queue (another agent's memory_add through mcp serve) ------------
    def hold_for_review(self, text: str, scope: Scope, source: Source, origin: Origin | None = None) -> WriteResult:
        """Check a note as a confirmed write would be, then hold it for the user instead of storing it.

        A refusal is answered at once (the proposer learns why); a twin of a
        stored note is "refreshed" in the answer only (nothing to ask about); a twin
        of a note already waiting is answered with that one, held once."""
        item = self.proposed_note(text, scope, source, origin)
        if item.scope not in SCOPES:
            return _unknown_scope(item.scope)
        decision = check_write("note", item.scope, source, settings=self.settings,
                               existing=self._data(item.scope).items, text=text, confirmed=True,
                               redact_patterns=self.redact_patterns)
        if decision.action == "reject":
            return WriteResult("rejected", reason=decision.reason)
        if decision.action in ("refresh", "update"):
            twin = next((i for i in self.items(item.scope) if i.id == decision.target_id), None)
            return WriteResult("refreshed", item=twin, reason="already remembered; nothing to review")
        item.text = decision.text
        threshold = self.settings.near_duplicate_threshold
        held = self.review_queue.hold(item, partial(is_near_duplicate, threshold=threshold))
        if held is not item:
            return WriteResult("pending", item=held.detached(), pending=True,
                               reason="already waiting for the user's review in agenttui's Memory pane")
        return WriteResult("pending", item=item.detached(), pending=True,
                           reason="held for the user's review in agenttui's Memory pane")

    def reviews(self) -> list[MemoryItem]:
        """Proposals waiting in the review queue, oldest first."""
        return self.review_queue.items()

    def accept_review(self, item_id: str) -> WriteResult:
        """The user accepted a held proposal: store it, through the gate again."""
        item = self.review_queue.take(item_id)
        if item is None:
            return WriteResult("rejected", reason="That proposal is no longer waiting for review.")
        return self._submit(item, confirmed=True)

    def reject_review(self, item_id: str) -> MemoryItem | None:
        return self.review_queue.take(item_id)

    def _submit(self, item: MemoryItem, confirmed: bool, untrusted: bool = False) -> WriteResult:
        if item.scope not in SCOPES:
            return _unknown_scope(item.scope)
        return self._mutate(item.scope, lambda data: self._apply(item, data, confirmed, untrusted))

    def submit_many(self, items: Sequence[MemoryItem]) -> list[WriteResult]:
        """Each item through the gate as :meth:`add_note` / :meth:`set_fact` would put it, in order,
        with one write of the file per batch (``agenttui memory import``).

        One write per item rewrote and synced the whole file each time: importing 1,500 notes
        took 49 s and 20,000 did not end in five minutes. A batch holds the lock at most
        ``BATCH_SECONDS`` of gate work, so another agenttui waiting on it (up to the lock's
        timeout) is never starved; each batch is written whole or not at all.
        """
        results: list[WriteResult] = []
        pending = list(items)
        while pending:
            scope = pending[0].scope
            if scope not in SCOPES:
                results.append(_unknown_scope(scope))
                pending.pop(0)
                continue
            run = list(itertools.takewhile(partial(_in_scope, scope), pending))
            done = self._mutate(scope, partial(self._apply_batch, run))
            results.extend(_detach(result) for result in done)
            del pending[: len(done)]
        return results

    def _apply_batch(self, items: list[MemoryItem], data: ScopeData) -> tuple[list[WriteResult], bool]:
        deadline = time.monotonic() + BATCH_SECONDS
        results: list[WriteResult] = []
        changed = False
        for item in items:  # at least one per batch: every call makes progress
            result, wrote = self._apply(item, data, confirmed=False, untrusted=False)
            results.append(result)
            changed = changed or wrote
            if time.monotonic() > deadline:
                break
        return results, changed

    def _apply(self, item: MemoryItem, data: ScopeData, confirmed: bool, untrusted: bool) -> tuple[WriteResult, bool]:
        """``item`` through the gate into ``data`` (read under the lock): (the result, data changed)."""
        decision = check_write(
            item.kind, item.scope, item.source, settings=self.settings, existing=data.items,
            text=item.text, key=item.key, value=item.value, confirmed=confirmed,
            redact_patterns=self.redact_patterns, untrusted=untrusted,
        )
        if decision.action == "reject":
            return WriteResult("rejected", reason=decision.reason), False
        if item.kind == "note":
            item.text = decision.text
        else:
            item.key, item.value = decision.key, decision.value
        if decision.action == "pending":
            self._pending[item.id] = item
            return WriteResult("pending", item=item, reason=decision.reason, pending=True), False
        now = utcnow()
        if decision.action in ("refresh", "update"):
            target = next(i for i in data.items if i.id == decision.target_id)
            target.updated = now
            target.confidence = max(target.confidence, item.confidence)
            target.pinned = target.pinned or item.pinned
            target.expires = _later_expiry(target.expires, item.expires)
            if decision.action == "update":
                target.value = item.value
                target.source = item.source
                target.confidence = item.confidence
                target.expires = item.expires
            status: WriteStatus = "refreshed" if decision.action == "refresh" else "updated"
            return WriteResult(status, item=target, reason=decision.reason), True
        data.items.append(item)
        archived = self._enforce_cap(data)
        reason = decision.reason
        if archived:
            moved = ", ".join(repr(a.display) for a in archived)
            cap = f"Over the cap of {self.settings.max_notes}; archived {moved}."
            reason = (reason + " " if reason else "") + cap
        return WriteResult("added", item=item, reason=reason, archived=archived), True

    def _enforce_cap(self, data: ScopeData) -> list[MemoryItem]:
        if self.settings.max_notes <= 0:  # the default: no cap (recall picks what fits the prompt)
            return []
        notes = [i for i in data.items if i.kind == "note"]
        excess = len(notes) - self.settings.max_notes
        if excess <= 0:
            return []
        candidates = sorted((i for i in notes if not i.pinned), key=_last_touched)
        moved = candidates[:excess]
        ids = {i.id for i in moved}
        data.items[:] = [i for i in data.items if i.id not in ids]
        data.archive.extend(moved)
        return moved

    # -- changing ----------------------------------------------------------
    def _scope_of(self, item_id: str, *, archive: bool = False) -> Scope:
        for scope in SCOPES:
            data = self._data(scope)
            if any(i.id == item_id for i in (data.archive if archive else data.items)):
                return scope
        raise KeyError(f"no memory item with id {item_id!r}")

    def edit(self, item_id: str, text: str | None = None, value: str | None = None) -> WriteResult:
        """Change a note's text or a fact's value, through the gate (source ``manual``)."""
        scope = self._scope_of(item_id)

        def change(data: ScopeData) -> tuple[WriteResult, bool]:
            item = next((i for i in data.items if i.id == item_id), None)
            if item is None:
                return WriteResult("rejected", reason="That item no longer exists."), False
            decision = check_write(
                item.kind, scope, "manual", settings=self.settings, existing=data.items,
                text=item.text if text is None else text,
                key=item.key, value=item.value if value is None else value,
                redact_patterns=self.redact_patterns, editing_id=item_id,
            )
            if decision.action == "reject":
                return WriteResult("rejected", reason=decision.reason), False
            if decision.target_id is not None:
                twin = next(i for i in data.items if i.id == decision.target_id)
                return WriteResult("rejected", reason=(
                    f"That would duplicate {twin.display!r}; edit or merge that item instead.")), False
            if item.kind == "note":
                item.text = decision.text
            else:
                item.value = decision.value
            item.source = "manual"
            item.updated = utcnow()
            note = decision.reason if decision.redacted else ""
            return WriteResult("updated", item=item, reason=note), True

        return self._mutate(scope, change)

    def set_pinned(self, item_id: str, pinned: bool) -> MemoryItem:
        return self._update_one(item_id, lambda item: setattr(item, "pinned", bool(pinned)))

    def _update_one(self, item_id: str, apply: Callable[[MemoryItem], None]) -> MemoryItem:
        scope = self._scope_of(item_id)

        def change(data: ScopeData) -> tuple[MemoryItem, bool]:
            item = next((i for i in data.items if i.id == item_id), None)
            if item is None:
                raise KeyError(f"no memory item with id {item_id!r}")
            apply(item)
            return item, True

        return self._mutate(scope, change)

    # -- the read screen's quarantine (core/memory/read_screen.py) ----------------
    def _kept_path(self, scope: Scope) -> Path:
        return self._paths[scope].with_name(self._paths[scope].stem + ".kept.json")

    def kept_hashes(self) -> frozenset[str]:
        """Content hashes of quarantined items the user chose to keep (sent despite the screen).

        Kept beside each scope's file, not in it: an item's content is what was
        approved, so a hand edit of the note (a new hash) needs a new yes."""
        out: set[str] = set()
        for scope in SCOPES:
            path = self._kept_path(scope)
            key = memory_file.stat_key(path)
            cached = self._kept_cache.get(scope)
            if cached is None or cached[0] != key:
                try:
                    loaded = json.loads(path.read_text(encoding="utf-8")) if key else []
                except (OSError, ValueError):
                    loaded = []  # unreadable: nothing is kept, so nothing unscreened is sent
                cached = (key, frozenset(h for h in loaded if isinstance(h, str)) if isinstance(loaded, list)
                          else frozenset())
                self._kept_cache[scope] = cached
            out |= cached[1]
        return frozenset(out)

    def keep(self, item_id: str) -> MemoryItem:
        """The user's yes to a quarantined item: it is sent from now on, as it reads now."""
        scope = self._scope_of(item_id)
        item = next((i for i in self._data(scope).items if i.id == item_id), None)
        if item is None:
            raise KeyError(f"no memory item with id {item_id!r}")
        path = self._kept_path(scope)
        with files.locked(path):
            try:
                current = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                current = []
            hashes = sorted({*(h for h in current if isinstance(h, str)), content_hash(item)})
            files.atomic_write_text(path, json.dumps(hashes, indent=0) + "\n")
        return item.detached()

    def mark_used(self, ids: Iterable[str]) -> None:
        wanted = set(ids)
        if not wanted:
            return
        now = utcnow()
        for scope in SCOPES:
            if not any(i.id in wanted for i in self._data(scope).items):
                continue

            def change(data: ScopeData) -> tuple[None, bool]:
                hit = False
                for item in data.items:
                    if item.id in wanted:
                        item.last_used = now
                        item.use_count += 1
                        hit = True
                return None, hit

            self._mutate(scope, change, sync_dir=False)

    def restore_archived(self, item_id: str) -> WriteResult:
        """Move an archived item back (through the gate; the cap may archive another)."""
        scope = self._scope_of(item_id, archive=True)

        def change(data: ScopeData) -> tuple[WriteResult, bool]:
            item = next((i for i in data.archive if i.id == item_id), None)
            if item is None:
                return WriteResult("rejected", reason="That item is no longer archived."), False
            decision = check_write(
                item.kind, scope, item.source, settings=self.settings, existing=data.items,
                text=item.text, key=item.key, value=item.value, confirmed=True,
                redact_patterns=self.redact_patterns,
            )
            if decision.action == "reject":
                return WriteResult("rejected", reason=decision.reason), False
            data.archive.remove(item)
            if decision.target_id is not None:  # an equivalent live item exists: fold into it
                target = next(i for i in data.items if i.id == decision.target_id)
                _absorb(target, [item])
                return WriteResult("refreshed", item=target, reason=decision.reason), True
            item.updated = utcnow()  # restored = touched now, so the cap does not re-archive it at once
            data.items.append(item)
            archived = self._enforce_cap(data)
            return WriteResult("added", item=item, reason="Restored from the archive.", archived=archived), True

        return self._mutate(scope, change)

    # -- destructive (backed up first) -------------------------------------
    def remove(self, ids: Iterable[str]) -> list[MemoryItem]:
        """Delete items (live or archived) by id, after a snapshot backup."""
        wanted = set(ids)
        if not wanted & {i.id for i in (*self.items(), *self.archived())}:
            return []
        self._snapshot("remove")
        removed: list[MemoryItem] = []
        for scope in SCOPES:
            data = self._data(scope)
            if not any(i.id in wanted for i in (*data.items, *data.archive)):
                continue

            def change(data: ScopeData) -> tuple[list[MemoryItem], bool]:
                gone = [i for i in (*data.items, *data.archive) if i.id in wanted]
                data.items[:] = [i for i in data.items if i.id not in wanted]
                data.archive[:] = [i for i in data.archive if i.id not in wanted]
                return gone, bool(gone)

            removed.extend(self._mutate(scope, change))
        return removed

    def put_back(self, items: Sequence[MemoryItem]) -> list[MemoryItem]:
        """Undo of :meth:`remove`: the items go back as they were (id, dates, pin, use count).

        Not through the gate, as :meth:`restore_snapshot` is not: they were in memory a
        moment ago, and a gate that refuses them now (an instruction-like note from a hand
        edit, held and kept by the user) made the undo a loss. The read screen still holds
        back what reads like an instruction. An item whose id is back already is skipped.
        """
        returned: list[MemoryItem] = []
        for scope in SCOPES:
            mine = [item.detached() for item in items if item.scope == scope]
            if not mine:
                continue

            def change(data: ScopeData, mine: list[MemoryItem] = mine) -> tuple[list[MemoryItem], bool]:
                have = {item.id for item in data.items} | {item.id for item in data.archive}
                back = [item for item in mine if item.id not in have]
                data.items.extend(back)
                return back, bool(back)

            returned.extend(item.detached() for item in self._mutate(scope, change))
        return returned

    def reset(self, scope: ScopeArg = "all") -> Path:
        """Empty a scope (items and archive); returns the backup taken first."""
        backup = self._snapshot(f"reset-{scope}")
        for s in self._scopes(scope):

            def change(data: ScopeData) -> tuple[None, bool]:
                had = bool(data.items or data.archive)
                data.items.clear()
                data.archive.clear()
                return None, had

            self._mutate(s, change)
        return backup

    def restore_snapshot(self, snapshot: Path, scope: ScopeArg = "all") -> int:
        """Put back a scope's items and archive as ``snapshot`` (a ``reset`` backup) holds them;
        what was added since stays. Returns how many items came back."""
        restored = 0
        for s in self._scopes(scope):
            rel = "user.json" if s == "user" else f"profiles/{self.profile}/memory.json"
            saved = memory_file.read(snapshot / rel, s).data

            def change(data: ScopeData, saved: ScopeData = saved) -> tuple[int, bool]:
                have = {item.id for item in data.items} | {item.id for item in data.archive}
                items = [item for item in saved.items if item.id not in have]
                archive = [item for item in saved.archive if item.id not in have]
                data.items[:0] = items
                data.archive[:0] = archive
                return len(items), bool(items or archive)

            restored += self._mutate(s, change)
        return restored

    def merge(self, keep_id: str, drop_ids: Iterable[str]) -> MemoryItem:
        """Fold duplicates into ``keep_id`` (uses summed, best confidence, earliest created)."""
        drop = set(drop_ids) - {keep_id}
        self._scope_of(keep_id)  # KeyError early, before any backup or change
        dropped = [i for i in self.items() if i.id in drop]
        missing = drop - {i.id for i in dropped}
        if missing:
            raise KeyError(f"no memory item with id {sorted(missing)[0]!r}")
        if not dropped:
            return self._update_one(keep_id, lambda item: None)
        self._snapshot("merge")
        kept = self._update_one(keep_id, lambda item: _absorb(item, [replace(d) for d in dropped]))
        # Drop after the keeper is saved: a crash in between duplicates, never loses.
        for scope in SCOPES:
            ids = {d.id for d in dropped if d.scope == scope}
            if ids:
                self._mutate(scope, _dropper(ids))
        return kept


def _in_scope(scope: str, item: MemoryItem) -> bool:
    return item.scope == scope


def _unknown_scope(scope: str) -> WriteResult:
    return WriteResult("rejected", reason=f"Unknown memory scope {scope!r}; use 'user' or 'profile'.")


def _detach(result: T) -> T:
    """Callers get copies: mutating a returned item must not corrupt the cache."""
    if isinstance(result, MemoryItem):
        return result.detached()  # type: ignore[return-value]
    if isinstance(result, WriteResult):
        return replace(result, item=result.item and result.item.detached(),
                       archived=[a.detached() for a in result.archived])
    return result


def _dropper(ids: set[str]) -> Callable[[ScopeData], tuple[None, bool]]:
    def change(data: ScopeData) -> tuple[None, bool]:
        before = len(data.items)
        data.items[:] = [i for i in data.items if i.id not in ids]
        return None, len(data.items) != before

    return change


def _last_touched(item: MemoryItem) -> datetime:
    return max(item.updated, item.last_used) if item.last_used else item.updated


def _later_expiry(a: datetime | None, b: datetime | None) -> datetime | None:
    """None means never, which is the latest."""
    if a is None or b is None:
        return None
    return max(a, b)


def _absorb(target: MemoryItem, others: Sequence[MemoryItem]) -> None:
    for other in others:
        target.confidence = max(target.confidence, other.confidence)
        target.use_count += other.use_count
        target.pinned = target.pinned or other.pinned
        target.created = min(target.created, other.created)
        if other.last_used and (target.last_used is None or other.last_used > target.last_used):
            target.last_used = other.last_used
        target.expires = _later_expiry(target.expires, other.expires)
    target.updated = utcnow()
