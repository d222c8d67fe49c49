"""This machine's changes since the last sync: memory files and history databases compared
with what the sync state last recorded.

Memory notes and facts of every scope (user, each profile) and the conversations of every
profile are compared whole by content hash (a changed one is sent whole with a new clock
stamp; one that disappeared becomes a tombstone). Messages are immutable: every row above
the profile's high-water mark that is not a message received from elsewhere is new.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agenttui.core.config.paths import Paths, check_profile_name
from agenttui.sync.hlc import Clock
from agenttui.sync.records import content_hash, memory_digest, memory_payload, redacted
from agenttui.sync.redaction_mark import FIELD as MARK_FIELD
from agenttui.sync.redaction_mark import redaction_mark
from agenttui.sync.state import ItemState, SyncState

_MESSAGE_FIELDS = ("role", "content", "tool_calls", "tool_call_id", "name", "image_b64", "image_mime",
                   "turn_id", "created", "tokens", "incomplete", "meta")


@dataclass
class Scan:
    records: list[dict[str, Any]] = field(default_factory=list)
    items: dict[str, ItemState] = field(default_factory=dict)  # new state for changed items
    messages: list[tuple[str, str, int]] = field(default_factory=list)  # (profile, gid, local id)
    high_water: dict[str, int] = field(default_factory=dict)
    marks: dict[str, str] = field(default_factory=dict)  # "stat/<scope>" -> the memory file's mark scanned
    seen: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)  # (profile, conversation row)
    unseen: list[tuple[str, str]] = field(default_factory=list)  # (profile, conversation id) gone


def profiles(paths: Paths) -> list[str]:
    base = paths.profiles_dir
    if not base.is_dir():
        return []
    names = []
    for entry in sorted(base.iterdir()):
        try:
            if entry.is_dir():
                names.append(check_profile_name(entry.name))
        except ValueError:
            continue
    return names


def memory_scopes(paths: Paths) -> dict[str, Path]:
    scopes = {"user": paths.user_memory_file}
    for name in profiles(paths):
        scopes[f"profile:{name}"] = paths.profile_memory_file(name)
    return scopes


def read_memory(path: Path, scope: str) -> dict[str, tuple[dict[str, Any], bool]]:
    """Item id -> (its dict, archived) of one memory file; an unreadable file reads as
    *unknown* (None is never returned for it: the caller skips the scope, so a damaged
    file never turns into tombstones)."""
    from agenttui.core.memory import file as memory_file

    result = memory_file.read(path, "user" if scope == "user" else "profile")
    if result.fatal_detail:
        raise ValueError(result.fatal_detail)
    out = {i.id: (i.to_dict(), False) for i in result.data.items}
    out.update({i.id: (i.to_dict(), True) for i in result.data.archive})
    return out


def stat_mark(path: Path) -> str | None:
    """A memory file's identity and version (inode, mtime in ns, size): atomic writes replace
    the inode, so an unchanged mark means unchanged content. Parsing and hashing 2,000 notes
    is most of an incremental sync's scan; a mark skips it."""
    try:
        st = path.stat()
    except OSError:
        return None
    return f"{st.st_ino}:{st.st_mtime_ns}:{st.st_size}"


def _connect_ro(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)


def _has_history(db: sqlite3.Connection) -> bool:
    """Whether the history's tables are there. The store creates its file, then its schema in
    a transaction: a sync reading between the two found "no such table" and failed as if the
    file were damaged."""
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'conversations'"
                      ).fetchone() is not None


def scan(paths: Paths, state: SyncState, clock: Clock, device: str,
         patterns: Sequence[str]) -> Scan:
    out = Scan()
    for scope, path in memory_scopes(paths).items():
        mark = stat_mark(path)  # taken before the read: a write after it changes the mark
        if mark is not None and state.get(f"stat/{scope}") == mark:
            continue  # the file is as the last committed scan or apply left it: nothing to send
        try:
            current = read_memory(path, scope)
        except ValueError:
            continue  # a damaged file: the app quarantines it; sending its absence would delete everything
        _scan_memory(scope, current, state, clock, patterns, out)
        if mark is not None:
            out.marks[f"stat/{scope}"] = mark
    _scan_files(paths, state, clock, patterns, out)
    for profile in profiles(paths):
        db_path = paths.history_db(profile)
        if not db_path.exists():
            continue
        with closing(_connect_ro(db_path)) as db:
            if not _has_history(db):
                continue  # being created by the app this moment (an empty file first): nothing yet
            _scan_conversations(profile, db, state, clock, patterns, out)
            _scan_messages(profile, db, state, device, patterns, out)
    return out


def _scan_memory(scope: str, current: dict[str, tuple[dict[str, Any], bool]], state: SyncState,
                 clock: Clock, patterns: Sequence[str], out: Scan) -> None:
    prefix = f"mem/{scope}/"
    known = state.items_with_prefix(prefix)
    for item_id, (item, archived) in current.items():
        key = prefix + item_id
        digest = memory_digest(item, archived)
        before = known.get(key)
        if before is not None and not before.deleted and before.hash == digest:
            continue
        payload = memory_payload(item, patterns)
        stamp = clock.now()
        base = before.hlc if before else None
        out.records.append({"t": "mem", "scope": scope, "id": item_id, "hlc": stamp, "base": base,
                            "del": False, "item": payload, "archived": archived})
        out.items[key] = ItemState(stamp, base, digest, False)
    for key, before in known.items():
        if not before.deleted and key[len(prefix):] not in current:
            stamp = clock.now()
            out.records.append({"t": "mem", "scope": scope, "id": key[len(prefix):], "hlc": stamp,
                                "base": before.hlc, "del": True})
            out.items[key] = ItemState(stamp, before.hlc, "", True)


def _scan_files(paths: Paths, state: SyncState, clock: Clock, patterns: Sequence[str], out: Scan) -> None:
    """Profiles, project memory, themes and settings (:mod:`agenttui.sync.file_records`)."""
    from agenttui.sync import file_records
    from agenttui.sync.hlc import encode

    known = state.items_with_prefix("file/")
    # On a machine that joined an existing group, a file it never synced is sent with the
    # oldest stamp there is: the group's version of it wins (a joiner's default settings must
    # not replace everyone's), and this machine's is kept as a conflict.
    joined = state.get("joined") == "1"
    present = set()
    for logical, path in file_records.local_files(paths, profiles(paths)):
        present.add(logical)
        found = file_records.read(logical, path)
        if found is None:
            continue
        digest, content = found
        key = "file/" + logical
        before = known.get(key)
        if before is not None and before.hash == digest:
            continue
        stamp = encode(0, 0, clock.device) if before is None and joined else clock.now()
        base = before.hlc if before else None
        out.records.append({"t": "file", "path": logical, "hlc": stamp, "base": base, "del": False,
                            "content": file_records.payload(content, patterns)})
        out.items[key] = ItemState(stamp, base, digest, False)
    for key, before in known.items():  # gone since it was last synced: a tombstone
        logical = key[len("file/"):]
        local = file_records.resolve(paths, logical)
        if before.deleted or logical in present or local is None:
            continue
        stamp = clock.now()
        record = {"t": "file", "path": logical, "hlc": stamp, "base": before.hlc, "del": True}
        if logical.endswith("/profile.toml") and not local.parent.exists():
            record["profile_gone"] = True  # deleted whole: the others move its folder to the trash
        out.records.append(record)
        out.items[key] = ItemState(stamp, before.hlc, "", True)


def conversation_fields(row: Sequence[Any]) -> dict[str, Any]:
    _cid, title, created, updated, model, archived = row
    return {"title": title or "", "created": created, "updated": updated, "model": model,
            "archived": bool(archived)}


def conversation_hash(payload: dict[str, Any]) -> str:
    # ``updated`` moves with every message: it rides along but does not make a change
    return content_hash({k: v for k, v in payload.items() if k != "updated"})


_CONV_COLUMNS = "id, title, created, model, archived"


def _scan_conversations(profile: str, db: sqlite3.Connection, state: SyncState, clock: Clock,
                        patterns: Sequence[str], out: Scan) -> None:
    """The conversations whose title, model or archive state changed, and those deleted.

    Once a full scan of the profile is committed, the rows are compared in SQL with the
    copy the state keeps of them (``conv_seen``): only a row that differs reaches Python and
    its hash, so an incremental sync does not hash every conversation of the history."""
    prefix = f"conv/{profile}/"
    incremental = state.get(f"conv_seen/{profile}") == "1"
    if incremental:
        db.execute("ATTACH DATABASE ? AS st", (f"{state.path.as_uri()}?mode=ro",))
        try:
            rows = db.execute(
                "SELECT id, title, created, updated, model, archived FROM main.conversations WHERE id IN "
                f"(SELECT id FROM (SELECT {_CONV_COLUMNS} FROM main.conversations EXCEPT "
                f"SELECT {_CONV_COLUMNS} FROM st.conv_seen WHERE profile = ?)) ORDER BY created",
                (profile,)).fetchall()
            gone = [str(r[0])[len(prefix):] for r in db.execute(
                "SELECT key FROM st.items WHERE key >= ? AND key < ? AND deleted = 0 "
                "AND substr(key, ?) NOT IN (SELECT id FROM main.conversations)",
                (prefix, prefix + "\uffff", len(prefix) + 1))]
            gone_seen = [str(r[0]) for r in db.execute(
                "SELECT id FROM st.conv_seen WHERE profile = ? AND id NOT IN (SELECT id FROM main.conversations)",
                (profile,))]
        finally:
            db.execute("DETACH DATABASE st")
        known = {prefix + r[0]: item for r in rows if (item := state.item(prefix + r[0])) is not None}
        known.update({prefix + cid: item for cid in gone if (item := state.item(prefix + cid)) is not None})
        present = {r[0] for r in rows}
    else:  # the first scan (or the first since conv_seen was added): every row
        rows = db.execute("SELECT id, title, created, updated, model, archived FROM conversations "
                          "ORDER BY created").fetchall()
        known = state.items_with_prefix(prefix)
        present = {r[0] for r in rows}
        gone = [key[len(prefix):] for key, before in known.items()
                if not before.deleted and key[len(prefix):] not in present]
        gone_seen = []
        out.marks[f"conv_seen/{profile}"] = "1"
    for row in rows:
        key = prefix + row[0]
        out.seen.append((profile, (row[0], row[1], row[2], row[4], row[5])))  # without ``updated``
        payload = conversation_fields(row)
        digest = conversation_hash(payload)  # of the local row: only a changed title is redacted
        before = known.get(key)
        if before is not None and not before.deleted and before.hash == digest:
            continue
        payload["title"] = redacted(payload["title"], patterns) or ""
        stamp = clock.now()
        base = before.hlc if before else None
        out.records.append({"t": "conv", "profile": profile, "id": row[0], "hlc": stamp, "base": base,
                            "del": False, "conv": payload})
        out.items[key] = ItemState(stamp, base, digest, False)
    for cid in gone:
        before = known[prefix + cid]
        stamp = clock.now()
        out.records.append({"t": "conv", "profile": profile, "id": cid, "hlc": stamp,
                            "base": before.hlc, "del": True})
        out.items[prefix + cid] = ItemState(stamp, before.hlc, "", True)
    out.unseen.extend((profile, cid) for cid in {*gone, *gone_seen} - present)


def message_payload(row: Sequence[Any], patterns: Sequence[str]) -> dict[str, Any]:
    m = dict(zip(_MESSAGE_FIELDS, row, strict=True))
    m["content"] = redacted(m["content"], patterns)
    m["name"] = redacted(m["name"], patterns)
    for column in ("tool_calls", "meta"):
        if m[column]:
            text = redacted(m[column], patterns)
            try:
                json.loads(text or "")
            except ValueError:  # a redaction that broke the JSON: the column's text is dropped
                text = None
            m[column] = text
    # a field left out reads as None on the receiving side (``m.get``): most of a message's
    # columns are empty, and their names were a fifth of the record
    return {k: v for k, v in m.items() if v is not None}


def _scan_messages(profile: str, db: sqlite3.Connection, state: SyncState, device: str,
                   patterns: Sequence[str], out: Scan) -> None:
    last = state.high_water(profile)
    ids = [row[0] for row in db.execute("SELECT id FROM messages WHERE id > ? ORDER BY id", (last,))]
    if not ids:
        return
    # the rows received from other devices since the last scan: one query, not one a row
    received = {int(r[0]) for r in state.db.execute(
        "SELECT local_id FROM msg_map WHERE profile = ? AND local_id > ?", (profile, last))}
    gids: dict[int, str] = {}
    mark = redaction_mark()
    for row in _message_rows(db, [i for i in ids if i not in received]):
        local_id, cid, parent = row[0], row[1], row[2]
        gid = f"{device}.{local_id}"
        gids[local_id] = gid
        parent_gid = None
        if parent is not None:
            parent_gid = gids.get(parent) or state.gid(profile, parent)
        out.records.append({"t": "msg", "profile": profile, "conv": cid, "gid": gid, "parent": parent_gid,
                            "m": message_payload(row[3:], patterns), MARK_FIELD: mark})
        out.messages.append((profile, gid, local_id))
    out.high_water[profile] = ids[-1]


def _message_rows(db: sqlite3.Connection, ids: list[int], chunk: int = 500) -> Iterator[Sequence[Any]]:
    columns = ", ".join(_MESSAGE_FIELDS)
    for start in range(0, len(ids), chunk):
        part = ids[start:start + chunk]
        marks = ",".join("?" * len(part))
        yield from db.execute(f"SELECT id, conversation_id, parent_id, {columns} FROM messages "
                              f"WHERE id IN ({marks}) ORDER BY id", part)
