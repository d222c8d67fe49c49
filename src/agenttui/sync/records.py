"""What a change record holds, and the content hash that decides whether an item changed.

Records (JSON objects, sealed one a line):

* ``{"t": "device", "name": ...}`` -- the sending device's name, for ``sync status``;
* ``{"t": "mem", "scope": "user" | "profile:<name>", "id", "hlc", "base", "del", "item", "archived"}``
  -- a memory note or fact, whole (``del``: a tombstone);
* ``{"t": "conv", "profile", "id", "hlc", "base", "del", "conv": {title, created, updated, model, archived}}``;
* ``{"t": "msg", "profile", "conv", "gid", "parent", "m": {...the message's columns}, "rx"}`` -- messages
  never change once stored, so they carry no clock: their global id is enough. ``rx``: the
  sender's built-in redaction rules (:mod:`agenttui.sync.redaction_mark`).

``base`` is the stamp of the version the writer had before its edit: an incoming version
whose base is not the version it replaces was written concurrently, and the version that
loses is kept as a conflict.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

# Bookkeeping a read changes on every turn: never a reason to sync an item.
MEMORY_LOCAL_ONLY = ("last_used", "use_count")


def content_hash(payload: Any) -> str:
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def redacted(text: str | None, patterns: Sequence[str]) -> str | None:
    """Content is redacted before it enters a change log, as before it reaches disk."""
    if not text:
        return text
    from agenttui.security import redact_secrets

    return redact_secrets(text, patterns)


def memory_fields(item: dict[str, Any]) -> dict[str, Any]:
    """What of an item syncs: all but its scope (the record names it) and the bookkeeping."""
    return {k: v for k, v in item.items() if k not in MEMORY_LOCAL_ONLY and k != "scope"}


def memory_digest(item: dict[str, Any], archived: bool) -> str:
    """Of the item as the local file holds it: a scan redacts only what changed."""
    return content_hash([memory_fields(item), archived])


def memory_payload(item: dict[str, Any], patterns: Sequence[str]) -> dict[str, Any]:
    out = memory_fields(item)
    for key in ("text", "key", "value"):
        if isinstance(out.get(key), str):
            out[key] = redacted(out[key], patterns)
    return out


def scope_ok(scope: object) -> bool:
    from agenttui.core.config.paths import InvalidProfileName, check_profile_name

    if scope == "user":
        return True
    if not isinstance(scope, str) or not scope.startswith("profile:"):
        return False
    try:
        check_profile_name(scope.split(":", 1)[1])
    except InvalidProfileName:
        return False
    return True
