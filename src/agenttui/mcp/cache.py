"""What each server offered when last connected: tools and the last error.

``mcp add`` fills it, so ``mcp list`` and the first request of the app can
show and offer the tools before the server has started again (the app
reconnects in the background and replaces the entry). One JSON file in the
data directory, written atomically; a damaged one counts as empty.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from agenttui.core.config.paths import Paths


@dataclass
class ToolInfo:
    name: str
    description: str = ""
    input_schema: dict[str, Any] = field(default_factory=dict)
    read_only: bool = False  # the server's readOnlyHint (a claim, not a proof)
    title: str | None = None


@dataclass
class CacheEntry:
    tools: list[ToolInfo] = field(default_factory=list)
    error: str | None = None
    checked: float = 0.0  # time.time() of the last connection attempt
    server_info: str = ""


def _file(paths: Paths):
    return paths.data_dir / "mcp" / "servers.json"


def cache_key(scope: str, profile: str, name: str) -> str:
    return name if scope == "user" else f"{profile}/{name}"


def read_all(paths: Paths) -> dict[str, CacheEntry]:
    try:
        raw = json.loads(_file(paths).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    out: dict[str, CacheEntry] = {}
    for key, value in raw.items() if isinstance(raw, dict) else ():
        try:
            tools = [ToolInfo(**t) for t in value.get("tools", [])]
            out[key] = CacheEntry(tools, value.get("error"), float(value.get("checked", 0)),
                                  str(value.get("server_info", "")))
        except (TypeError, AttributeError, ValueError):
            continue
    return out


def write(paths: Paths, key: str, entry: CacheEntry | None) -> None:
    """Replace (or with None drop) one server's entry."""
    from agenttui.core.files import atomic_write_text, locked

    path = _file(paths)
    path.parent.mkdir(parents=True, exist_ok=True)
    with locked(path):
        current = read_all(paths)
        if entry is None:
            current.pop(key, None)
        else:
            entry.checked = entry.checked or time.time()
            current[key] = entry
        atomic_write_text(path, json.dumps({k: asdict(v) for k, v in current.items()},
                                           ensure_ascii=False, indent=1))
