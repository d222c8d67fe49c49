"""This machine's sync bookkeeping: one SQLite file, ``<data dir>/sync/state.sqlite3``.

What was last sent or applied for each item (its clock stamp and content hash), the
map between messages' global ids and their local row ids, the outbox of sealed
segments not yet confirmed on the target, and how far each other device's log has
been applied. A scan and its outbox segment are committed in one transaction, so a
kill leaves either both or neither.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL)",
    # key: "mem/<scope>/<item id>" or "conv/<profile>/<conversation id>"
    "CREATE TABLE IF NOT EXISTS items (key TEXT PRIMARY KEY, hlc TEXT NOT NULL, base TEXT, "
    "hash TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE IF NOT EXISTS msg_map (profile TEXT NOT NULL, gid TEXT NOT NULL, local_id INTEGER NOT NULL, "
    "PRIMARY KEY (profile, gid), UNIQUE (profile, local_id))",
    "CREATE TABLE IF NOT EXISTS high_water (profile TEXT PRIMARY KEY, last_id INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY, body TEXT NOT NULL, records INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS applied (device TEXT PRIMARY KEY, seq INTEGER NOT NULL, at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS device_names (device TEXT PRIMARY KEY, name TEXT NOT NULL)",
    # each conversation's row as the last committed scan saw it (not ``updated``, which moves
    # with every message): a scan compares in SQL and hashes only the rows that differ
    "CREATE TABLE IF NOT EXISTS conv_seen (profile TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL, "
    "created TEXT NOT NULL, model TEXT, archived INTEGER NOT NULL, PRIMARY KEY (profile, id))",
    "CREATE TABLE IF NOT EXISTS conflicts (id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL, "
    "winner_hlc TEXT NOT NULL, loser_hlc TEXT NOT NULL, loser TEXT NOT NULL, at TEXT NOT NULL, "
    "UNIQUE (key, loser_hlc))",
)


@dataclass(frozen=True)
class ItemState:
    hlc: str
    base: str | None
    hash: str
    deleted: bool


class SyncState:
    def __init__(self, path: Path) -> None:
        from agenttui.core.files import ensure_dir, private_file

        ensure_dir(path.parent)
        private_file(path)
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        for statement in _SCHEMA:
            self.db.execute(statement)

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # -- small values -----------------------------------------------------------
    def get(self, key: str, default: str | None = None) -> str | None:
        row = self.db.execute("SELECT v FROM kv WHERE k = ?", (key,)).fetchone()
        return row[0] if row else default

    def put(self, key: str, value: str | None) -> None:
        if value is None:
            self.db.execute("DELETE FROM kv WHERE k = ?", (key,))
        else:
            self.db.execute("INSERT INTO kv (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v",
                            (key, value))

    # -- items --------------------------------------------------------------------
    def item(self, key: str) -> ItemState | None:
        row = self.db.execute("SELECT hlc, base, hash, deleted FROM items WHERE key = ?", (key,)).fetchone()
        return ItemState(row[0], row[1], row[2], bool(row[3])) if row else None

    def items_with_prefix(self, prefix: str) -> dict[str, ItemState]:
        rows = self.db.execute("SELECT key, hlc, base, hash, deleted FROM items WHERE key >= ? AND key < ?",
                               (prefix, prefix + "\uffff"))
        return {r[0]: ItemState(r[1], r[2], r[3], bool(r[4])) for r in rows}

    def set_item(self, key: str, state: ItemState) -> None:
        self.db.execute("INSERT INTO items (key, hlc, base, hash, deleted) VALUES (?, ?, ?, ?, ?) "
                        "ON CONFLICT(key) DO UPDATE SET hlc = excluded.hlc, base = excluded.base, "
                        "hash = excluded.hash, deleted = excluded.deleted",
                        (key, state.hlc, state.base, state.hash, int(state.deleted)))

    def see_conversation(self, profile: str, row: tuple[Any, ...]) -> None:
        """``row``: (id, title, created, model, archived) as the scan read it."""
        self.db.execute("INSERT OR REPLACE INTO conv_seen (profile, id, title, created, model, archived) "
                        "VALUES (?, ?, ?, ?, ?, ?)", (profile, *row))

    def unsee_conversation(self, profile: str, cid: str) -> None:
        self.db.execute("DELETE FROM conv_seen WHERE profile = ? AND id = ?", (profile, cid))

    # -- messages -----------------------------------------------------------------
    def local_id(self, profile: str, gid: str) -> int | None:
        row = self.db.execute("SELECT local_id FROM msg_map WHERE profile = ? AND gid = ?", (profile, gid)).fetchone()
        return int(row[0]) if row else None

    def gid(self, profile: str, local_id: int) -> str | None:
        row = self.db.execute("SELECT gid FROM msg_map WHERE profile = ? AND local_id = ?",
                              (profile, local_id)).fetchone()
        return str(row[0]) if row else None

    def map_message(self, profile: str, gid: str, local_id: int) -> None:
        self.db.execute("INSERT OR IGNORE INTO msg_map (profile, gid, local_id) VALUES (?, ?, ?)",
                        (profile, gid, local_id))

    def high_water(self, profile: str) -> int:
        row = self.db.execute("SELECT last_id FROM high_water WHERE profile = ?", (profile,)).fetchone()
        return int(row[0]) if row else 0

    def set_high_water(self, profile: str, last_id: int) -> None:
        self.db.execute("INSERT INTO high_water (profile, last_id) VALUES (?, ?) "
                        "ON CONFLICT(profile) DO UPDATE SET last_id = MAX(last_id, excluded.last_id)",
                        (profile, last_id))

    # -- outbox and progress --------------------------------------------------------
    def outbox(self) -> list[tuple[int, str, int]]:
        return [(int(r[0]), str(r[1]), int(r[2]))
                for r in self.db.execute("SELECT seq, body, records FROM outbox ORDER BY seq")]

    def confirm(self, seq: int) -> None:
        self.db.execute("DELETE FROM outbox WHERE seq = ?", (seq,))

    def applied(self, device: str) -> int:
        row = self.db.execute("SELECT seq FROM applied WHERE device = ?", (device,)).fetchone()
        return int(row[0]) if row else 0

    def set_applied(self, device: str, seq: int, at: str) -> None:
        self.db.execute("INSERT INTO applied (device, seq, at) VALUES (?, ?, ?) ON CONFLICT(device) "
                        "DO UPDATE SET seq = excluded.seq, at = excluded.at", (device, seq, at))

    def applied_all(self) -> list[tuple[str, int, str]]:
        return [(str(r[0]), int(r[1]), str(r[2]))
                for r in self.db.execute("SELECT device, seq, at FROM applied ORDER BY device")]

    def set_device_name(self, device: str, name: str) -> None:
        self.db.execute("INSERT INTO device_names (device, name) VALUES (?, ?) ON CONFLICT(device) "
                        "DO UPDATE SET name = excluded.name", (device, name))

    def device_names(self) -> dict[str, str]:
        return {str(r[0]): str(r[1]) for r in self.db.execute("SELECT device, name FROM device_names")}

    def add_conflict(self, key: str, winner: str, loser_hlc: str, loser: str, at: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO conflicts (key, winner_hlc, loser_hlc, loser, at) "
                        "VALUES (?, ?, ?, ?, ?)", (key, winner, loser_hlc, loser, at))

    def conflicts(self) -> list[dict[str, str]]:
        rows = self.db.execute("SELECT key, winner_hlc, loser_hlc, loser, at FROM conflicts ORDER BY id")
        return [{"key": r[0], "winner": r[1], "loser_version": r[2], "loser": r[3], "at": r[4]} for r in rows]
