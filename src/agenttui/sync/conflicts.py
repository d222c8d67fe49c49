"""The conflicts a sync kept, as the memory audit shows them.

When two machines edit one note before either syncs, the clock picks the winner on every
machine and the losing version is kept in this machine's sync state. The audit flags the
item that won as a ``conflict`` with both machines' names and the other version's text,
until the item is edited again (then the user has settled it).

Read-only and cheap: one query on ``<data dir>/sync/state.sqlite3``, nothing when this
machine never synced.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from typing import Any

from agenttui.core.config.paths import Paths

_QUERY = ("SELECT c.key, c.winner_hlc, c.loser_hlc, c.loser FROM conflicts c JOIN items i "
          "ON i.key = c.key AND i.hlc = c.winner_hlc AND i.deleted = 0 "
          "WHERE c.key >= 'mem/' AND c.key < 'mem0' ORDER BY c.id")


def other_conflicts(paths: Paths) -> int:
    """Conflicts kept on conversations and files whose winner still stands: the audit names
    their number (its rows are memory items) and ``/sync status`` lists them."""
    from agenttui.sync.engine import sync_dir

    db_path = sync_dir(paths) / "state.sqlite3"
    if not db_path.exists():
        return 0
    try:
        with closing(sqlite3.connect(f"{db_path.as_uri()}?mode=ro", uri=True, timeout=5)) as db:
            row = db.execute("SELECT COUNT(*) FROM conflicts c JOIN items i ON i.key = c.key "
                             "AND i.hlc = c.winner_hlc WHERE NOT (c.key >= 'mem/' AND c.key < 'mem0')").fetchone()
    except sqlite3.Error:
        return 0
    return int(row[0])


def _text(loser: str) -> str:
    """The losing version as the user reads it: a note's text, a fact's ``key = value``."""
    try:
        doc: Any = json.loads(loser)
    except ValueError:
        return loser
    if isinstance(doc, dict) and isinstance(doc.get("item"), dict):
        doc = doc["item"]  # a losing incoming record: the item is inside it
    if not isinstance(doc, dict):
        return "(deleted)"
    if doc.get("kind") == "fact" or (doc.get("key") and not doc.get("text")):
        return f"{doc.get('key')} = {doc.get('value')}"
    return str(doc.get("text") or "")


def memory_conflicts(paths: Paths) -> dict[str, str]:
    """Item id -> the audit's reason, for memory items whose current version won a conflict."""
    from agenttui.sync.engine import SyncConfig, sync_dir
    from agenttui.sync.hlc import decode
    from agenttui.sync.targets import SyncError

    db_path = sync_dir(paths) / "state.sqlite3"
    if not db_path.exists():
        return {}
    try:
        config = SyncConfig.load(paths)
    except SyncError:
        config = None
    try:
        with closing(sqlite3.connect(f"{db_path.as_uri()}?mode=ro", uri=True, timeout=5)) as db:
            names = {str(d): str(n) for d, n in db.execute("SELECT device, name FROM device_names")}
            rows = db.execute(_QUERY).fetchall()
    except sqlite3.Error:
        return {}  # a state being created or damaged: the audit goes on without it
    if config is not None:
        names[config.device] = config.name
    out: dict[str, str] = {}
    for key, winner, loser_hlc, loser in rows:
        item_id = str(key).split("/", 2)[-1]
        kept = names.get(decode(winner)[2], "another machine")
        other = names.get(decode(loser_hlc)[2], "another machine")
        text = _text(str(loser))
        if len(text) > 200:
            text = text[:199] + "…"
        out[item_id] = f"Edited on {kept} and {other}; kept {kept}'s version, other version: {text!r}."
    return out


def conflict_line(key: str, loser: str) -> str:
    """One conflict of ``sync status`` for a person: what it was on, and what lost."""
    kind, _, rest = key.partition("/")
    try:
        doc: Any = json.loads(loser)
    except ValueError:
        doc = None
    if kind == "mem":
        scope, _, item = rest.partition("/")
        return f"memory ({scope}) {item}: the other version was {_short(_text(loser))!r} (/audit flags it)"
    if kind == "conv":
        profile, _, cid = rest.partition("/")
        fields = doc.get("conv", doc) if isinstance(doc, dict) else None
        title = fields.get("title") if isinstance(fields, dict) else None
        other = f"the other version's title was {_short(str(title))!r}" if title else "the other version was kept"
        return f"conversation {cid} (profile {profile}): {other}"
    if kind == "file":
        if isinstance(doc, dict) and doc.get("deleted"):
            return f"{rest}: deleted on one machine and edited on another; the edit was kept"
        return f"{rest}: edited on two machines; the other version is kept"
    return f"{key}: the other version is kept"


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"
