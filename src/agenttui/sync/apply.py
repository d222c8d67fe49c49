"""Applying other devices' records: deterministic and idempotent.

* Memory items and conversations: the version with the greater clock stamp wins
  (wall time, counter, then device id: every machine picks the same one); a tombstone
  is a version like any other, so it wins over older edits and loses to newer ones.
  A version that loses to one written without knowing it (``base`` differs) is kept
  in the state's ``conflicts`` table and listed by ``sync status``.
* Messages: keyed by their global id; one already mapped is skipped, and one whose
  row is already there (same conversation, time, role and text: applied before a
  kill, not yet mapped) is adopted, never inserted twice.

Memory files are written under the same lock the memory store takes, atomically;
history goes through :class:`HistoryStore` (its redaction, triggers and counters).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from agenttui.core.config.paths import Paths
from agenttui.sync.hlc import Clock
from agenttui.sync.local_scan import conversation_hash
from agenttui.sync.records import MEMORY_LOCAL_ONLY, memory_digest, scope_ok
from agenttui.sync.redaction_mark import redacted_here
from agenttui.sync.state import ItemState, SyncState


@dataclass
class Applied:
    changes: int = 0
    skipped: list[str] = field(default_factory=list)
    conflicts: int = 0
    conflict_keys: list[str] = field(default_factory=list)  # "mem/...", "conv/...", "file/..."
    files: list[str] = field(default_factory=list)  # logical paths written or deleted here


def _hlc(version: dict[str, Any] | ItemState) -> str:
    return version.hlc if isinstance(version, ItemState) else str(version["hlc"])


def _races(record: dict[str, Any], before: ItemState) -> bool:
    """A deletion and an edit, each written without knowing of the other.

    A version's ``base`` is the stamp of the version its machine had when it wrote it, and
    stamps grow with causality: a deletion whose base is at least the edit's stamp was made
    after that edit (or a later one) had been seen there, so the edit is older and loses, on
    a machine that receives the two in either order."""
    stamp = str(record["hlc"])
    if before.hlc == stamp or bool(record.get("del")) == before.deleted:
        return False
    incoming = (stamp, str(record.get("base") or ""))
    here = (before.hlc, before.base or "")
    (deleted_hlc, deleted_base), (edit_hlc, edit_base) = (incoming, here) if record.get("del") else (here, incoming)
    return deleted_base < edit_hlc and edit_base < deleted_hlc


def _now() -> str:
    from agenttui.core.models import utcnow

    return utcnow().isoformat(timespec="seconds")


class Applier:
    def __init__(self, paths: Paths, state: SyncState, clock: Clock, patterns: Sequence[str]) -> None:
        self.paths = paths
        self.state = state
        self.clock = clock
        self.patterns = tuple(patterns)
        self.result = Applied()
        self._stores: dict[str, Any] = {}
        self._pending_msgs: list[dict[str, Any]] = []
        self._pending_mem: dict[str, list[dict[str, Any]]] = {}
        # state writes of applied changes, committed together by :meth:`flush` (one fsync, not one
        # a conversation): a kill before the commit leaves changes applied but not recorded, which
        # applying the segment again finds (messages adopted by content, versions decided again)
        self._maps: dict[tuple[str, str], int] = {}
        self._items: dict[str, ItemState] = {}

    def close(self) -> None:
        self.flush()
        for store in self._stores.values():
            store.close()

    # -- dispatch ---------------------------------------------------------------
    def apply(self, device: str, record: dict[str, Any]) -> None:
        kind = record.get("t")
        if kind not in ("msg", "mem"):
            self._apply_pending()  # messages before a conversation edit land first, in log order
        if kind == "device":
            self.state.set_device_name(device, str(record.get("name") or device)[:64])
        elif kind == "mem" and scope_ok(record.get("scope")):
            self._pending_mem.setdefault(str(record["scope"]), []).append(record)
        elif kind == "conv" and self._profile_ok(record.get("profile")):
            self._conversation(record)
        elif kind == "file":
            self._file(record)
        elif kind == "msg" and self._profile_ok(record.get("profile")):
            self._pending_msgs.append(record)
            if len(self._pending_msgs) >= 2000:
                self.flush()
        else:
            raise ValueError(f"unknown record type {kind!r}")

    @staticmethod
    def _profile_ok(profile: object) -> bool:
        return scope_ok(f"profile:{profile}")

    # -- clocked items ---------------------------------------------------------
    def _decide(self, key: str, record: dict[str, Any], digest: str, current_payload: Any,
                before: ItemState | None) -> bool:
        """Whether the incoming version wins over ``before`` (the version applied last); records
        the loser when the two were written without knowing of each other."""
        stamp = str(record["hlc"])
        self.clock.observe(stamp)
        if before is not None and before.hlc == stamp:
            return False  # applied already
        incoming_wins = before is None or stamp > before.hlc
        if before is not None and before.hash != digest:
            if incoming_wins and record.get("base") != before.hlc and not before.deleted:
                self.state.add_conflict(key, stamp, before.hlc, json.dumps(current_payload, ensure_ascii=False),
                                        _now())
                self.result.conflicts += 1
                self.result.conflict_keys.append(key)
            elif not incoming_wins and before.base != stamp and not record.get("del"):
                self.state.add_conflict(key, before.hlc, stamp, json.dumps(record, ensure_ascii=False), _now())
                self.result.conflicts += 1
                self.result.conflict_keys.append(key)
        return incoming_wins

    def _memory_batch(self, scope: str, records: list[dict[str, Any]]) -> None:
        """A scope's records under one lock: the file is read and written once, not once a note."""
        from agenttui.core import files
        from agenttui.core.memory import file as memory_file
        from agenttui.core.models import MemoryItem

        kind: Literal["user", "profile"] = "user" if scope == "user" else "profile"
        path = self.paths.user_memory_file if scope == "user" else self.paths.profile_memory_file(scope[8:])
        files.ensure_dir(path.parent)
        decided: dict[str, ItemState] = {}
        mark = None
        with files.locked(path):
            from agenttui.sync.local_scan import stat_mark

            # unchanged since the last scan: the file written here holds nothing the scan has not
            # seen, so its new mark can be kept and the next scan skips parsing it
            clean = stat_mark(path) == self.state.get(f"stat/{scope}")
            result = memory_file.read(path, kind)
            if result.fatal_detail:
                self.result.skipped.append(f"the memory file {path} is damaged ({result.fatal_detail}); "
                                           "its changes wait until it is fixed")
                return
            data = result.data
            # file order kept: an edited item stays where it was, a new one goes last
            current: dict[str, tuple[MemoryItem, bool]] = {i.id: (i, False) for i in data.items}
            current.update({i.id: (i, True) for i in data.archive})
            for record in records:
                item_id = str(record["id"])
                deleted = bool(record.get("del"))
                payload = record.get("item") if not deleted else None
                if not deleted and not isinstance(payload, dict):
                    self.result.skipped.append("a memory record without its item was skipped")
                    continue
                archived = bool(record.get("archived"))
                try:
                    incoming = (None if payload is None
                                else MemoryItem.from_dict({**payload, "id": item_id, "scope": kind}))
                except (KeyError, ValueError, TypeError, AttributeError):
                    self.result.skipped.append("an unreadable memory record was skipped")
                    continue
                digest = "" if incoming is None else memory_digest(incoming.to_dict(), archived)
                key = f"mem/{scope}/{item_id}"
                old = current.get(item_id)
                before = decided.get(key) or self.state.item(key)
                if not self._decide(key, record, digest, old[0].to_dict() if old else None, before):
                    continue
                if incoming is None:
                    current.pop(item_id, None)
                else:
                    if old is not None:  # local bookkeeping stays local
                        for name in MEMORY_LOCAL_ONLY:
                            setattr(incoming, name, getattr(old[0], name))
                    current[item_id] = (incoming, archived)
                decided[key] = ItemState(str(record["hlc"]), record.get("base"), digest, deleted)
            if decided:
                data.items = [i for i, archived in current.values() if not archived]
                data.archive = [i for i, archived in current.values() if archived]
                memory_file.write(path, data)
                mark = stat_mark(path) if clean else None
        # after the file: a kill in between re-sends the same content, never reverts it
        with self.state.transaction():
            for key, item_state in decided.items():
                self.state.set_item(key, item_state)
            if mark is not None:
                self.state.put(f"stat/{scope}", mark)
        self.result.changes += len(decided)

    def _store(self, profile: str) -> Any:
        store = self._stores.get(profile)
        if store is None:
            from agenttui.core.files import ensure_dir
            from agenttui.core.history.store import HistoryStore

            ensure_dir(self.paths.profile_dir(profile))
            store = HistoryStore(self.paths.history_db(profile), self.patterns)
            self._stores[profile] = store
        return store

    def _conversation(self, record: dict[str, Any]) -> None:
        from agenttui.core.history.rows import from_ts
        from agenttui.core.models import Conversation

        profile = str(record["profile"])
        cid = str(record["id"])
        key = f"conv/{profile}/{cid}"
        store = self._store(profile)
        deleted = bool(record.get("del"))
        payload = record.get("conv") if not deleted else None
        if not deleted and not isinstance(payload, dict):
            raise ValueError("conversation record without its fields")
        digest = "" if payload is None else conversation_hash(payload)
        current = store.get_conversation(cid)
        shown = None if current is None else {"title": current.title, "archived": current.archived}
        if not self._decide(key, record, digest, shown, self._item(key)):
            return
        if payload is None:
            if current is not None:
                store.delete(cid)
        elif current is None:
            store.import_conversation(Conversation(
                id=cid, title=str(payload.get("title") or ""), created=from_ts(str(payload.get("created"))),
                updated=from_ts(str(payload.get("updated"))), model=payload.get("model"),
                archived=bool(payload.get("archived"))), [])
        else:
            title = str(payload.get("title") or "")
            if title and title != current.title:
                store.rename(cid, title)
            if bool(payload.get("archived")) != current.archived:
                (store.archive if payload.get("archived") else store.restore)(cid)
        self._items[key] = ItemState(str(record["hlc"]), record.get("base"), digest, deleted)
        self.result.changes += 1

    def _file(self, record: dict[str, Any]) -> None:
        """A profile, a project file, a theme or the settings (:mod:`agenttui.sync.file_records`)."""
        from agenttui.sync import file_records
        from agenttui.sync.records import content_hash

        logical = record.get("path")
        path = file_records.resolve(self.paths, logical)
        deleted = bool(record.get("del"))
        if path is None or (not deleted and "content" not in record):
            raise ValueError(f"a file record for {logical!r}, which does not sync")
        key = f"file/{logical}"
        content = None if deleted else record["content"]
        before = self._item(key)
        if before is not None and _races(record, before):
            # an edit made without knowing of a deletion wins over it, whatever the clocks say,
            # on every machine alike: deleting it would lose work; the deletion is the conflict
            incoming_wins = not deleted
            self.clock.observe(str(record["hlc"]))
            winner, loser = (record, before) if incoming_wins else (before, record)
            self.state.add_conflict(key, _hlc(winner), _hlc(loser), json.dumps({"path": logical, "deleted": True}),
                                    _now())
            self.result.conflicts += 1
            self.result.conflict_keys.append(key)
            if not incoming_wins:
                return
        elif not self._decide(key, record, "" if deleted else content_hash(content),
                              file_records.current(str(logical), path), before):
            return
        try:
            if deleted:
                # a whole folder goes only if this machine synced that profile: a profile of the
                # same name made here alone and never synced is not the one deleted
                gone = bool(record.get("profile_gone")) and before is not None
                digest = file_records.remove(self.paths, str(logical), path, gone)
            else:
                digest = file_records.write(str(logical), path, content)
        except file_records.LocalFileDamaged as exc:
            self.result.skipped.append(str(exc))
            return
        except OSError as exc:  # the segment stays unapplied: the next sync applies it again
            from agenttui.sync.targets import SyncError

            if isinstance(exc, file_records.ProfileOpenHere):
                raise SyncError(str(exc)) from exc
            raise SyncError(f"{path} could not be written ({exc}); nothing is lost: fix it and sync again") from exc
        self._items[key] = ItemState(str(record["hlc"]), record.get("base"), digest, deleted)
        self.result.changes += 1
        self.result.files.append(str(logical))

    # -- messages ----------------------------------------------------------------
    def _item(self, key: str) -> ItemState | None:
        pending = self._items.get(key)
        return pending if pending is not None else self.state.item(key)

    def _local_id(self, profile: str, gid: str) -> int | None:
        pending = self._maps.get((profile, gid))
        return pending if pending is not None else self.state.local_id(profile, gid)

    def flush(self) -> None:
        """Applies what is pending and records it in the state, in one transaction."""
        self._apply_pending()
        if not self._maps and not self._items:
            return
        with self.state.transaction():
            for key, item_state in self._items.items():
                self.state.set_item(key, item_state)
            self.state.db.executemany("INSERT OR IGNORE INTO msg_map (profile, gid, local_id) VALUES (?, ?, ?)",
                                      [(profile, gid, local_id) for (profile, gid), local_id in self._maps.items()])
        self._maps.clear()
        self._items.clear()

    def _apply_pending(self) -> None:
        memory, self._pending_mem = self._pending_mem, {}
        for scope, records in memory.items():
            self._memory_batch(scope, records)
        pending, self._pending_msgs = self._pending_msgs, []
        run: list[dict[str, Any]] = []
        for record in pending:
            if run and (record["profile"] != run[-1]["profile"] or record["conv"] != run[-1]["conv"]
                        or record.get("parent") != run[-1]["gid"]):
                self._insert_run(run)
                run = []
            run.append(record)
        if run:
            self._insert_run(run)

    def _insert_run(self, run: list[dict[str, Any]]) -> None:
        """Messages of one conversation, each the child of the one before (but the first)."""
        from agenttui.core.history.store import NEW_ROOT

        profile, cid = str(run[0]["profile"]), str(run[0]["conv"])
        conv_state = self._item(f"conv/{profile}/{cid}")
        if conv_state is not None and conv_state.deleted:
            return  # the conversation was deleted: its late messages follow it
        store = self._store(profile)
        mapped = self._mapped(profile, [str(r["gid"]) for r in run])
        probe = self._has_messages(store, cid)  # a conversation with none (a join) has none to adopt
        todo = []
        for record in run:
            gid = str(record["gid"])
            if gid in mapped:
                continue
            found = self._already_there(store, cid, record["m"]) if probe else None
            if found is not None:
                self._maps[(profile, gid)] = found
                continue
            todo.append(record)
        if not todo:
            return
        if store.get_conversation(cid) is None:
            from agenttui.core.models import Conversation, utcnow

            store.import_conversation(Conversation(id=cid, title="", created=utcnow(), updated=utcnow()), [])
        # split where a message's parent is not the one inserted just before it
        batches: list[list[dict[str, Any]]] = []
        for record in todo:
            if batches and batches[-1][-1]["gid"] == record.get("parent"):
                batches[-1].append(record)
            else:
                batches.append([record])
        for batch in batches:
            parent_gid = batch[0].get("parent")
            parent_id = self._local_id(profile, str(parent_gid)) if parent_gid else None
            messages = [_message(r["m"]) for r in batch]
            messages[0].parent_id = parent_id if parent_id is not None else NEW_ROOT
            # the sender redacted them before they entered its log: redacted again only when
            # this machine's rules differ (its own extra patterns, other built-in rules)
            stored = store.append_many(cid, messages, redacted=redacted_here(batch, self.patterns))
            from agenttui.sync.engine import kill_point

            kill_point("between-insert-and-map")  # the window the adoption by content closes
            for record, message in zip(batch, stored, strict=True):
                self._maps[(profile, str(record["gid"]))] = int(message.id)
            self.result.changes += len(batch)

    def _mapped(self, profile: str, gids: list[str]) -> set[str]:
        """Which of ``gids`` have a local row already (one query a few hundred, not one each)."""
        found = {gid for gid in gids if (profile, gid) in self._maps}
        for start in range(0, len(gids), 500):
            part = gids[start:start + 500]
            found.update(str(r[0]) for r in self.state.db.execute(
                f"SELECT gid FROM msg_map WHERE profile = ? AND gid IN ({','.join('?' * len(part))})",
                (profile, *part)))
        return found

    @staticmethod
    def _has_messages(store: Any, cid: str) -> bool:
        with store._read() as db:  # noqa: SLF001 -- one indexed probe, read-only
            return db.execute("SELECT 1 FROM messages WHERE conversation_id = ? LIMIT 1", (cid,)).fetchone() is not None

    @staticmethod
    def _already_there(store: Any, cid: str, m: dict[str, Any]) -> int | None:
        with store._read() as db:  # noqa: SLF001 -- one indexed probe, read-only
            row = db.execute("SELECT id FROM messages WHERE created = ? AND conversation_id = ? AND role = ? "
                             "AND content IS ? LIMIT 1", (m.get("created"), cid, m.get("role"),
                                                          m.get("content"))).fetchone()
        return int(row[0]) if row else None


def _message(m: dict[str, Any]) -> Any:
    from agenttui.core.history.rows import apply_meta, from_ts
    from agenttui.core.models import Message, ToolCall

    calls = []
    if m.get("tool_calls"):
        try:
            calls = [ToolCall(id=c["id"], name=c["name"], arguments=c["arguments"], extra=c.get("extra") or {})
                     for c in json.loads(m["tool_calls"])]
        except (ValueError, TypeError, KeyError):
            calls = []
    role = m.get("role")
    if role not in ("system", "user", "assistant", "tool"):
        raise ValueError(f"unknown role {role!r}")
    message = Message(role=role, content=m.get("content"), tool_calls=calls, tool_call_id=m.get("tool_call_id"),
                      name=m.get("name"), image_b64=m.get("image_b64"), image_mime=m.get("image_mime"),
                      turn_id=m.get("turn_id"), created=from_ts(str(m.get("created"))),
                      tokens=int(m.get("tokens") or 0), incomplete=bool(m.get("incomplete")))
    if m.get("meta"):
        apply_meta(message, str(m["meta"]))
        message.summary_of = None  # its ids are another machine's row ids
    return message
