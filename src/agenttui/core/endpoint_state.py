"""What endpoints refused, remembered per endpoint (``base_url``) and model.

The refusals themselves are recognised in :mod:`agenttui.agent.request_options`;
this is only the memory, shared with ``agenttui doctor``. The file is
``<data dir>/state/endpoints.json``::

    {"endpoints": {"http://localhost:11434/v1": {"gemma2:2b": {
        "tools": {"omitted": true, "since": "2026-11-24T00:31:07Z", "reason": "..."}}}}}

written atomically under a cross-process lock (a crash leaves the old or the
new file; two processes never lose each other's entries). A file that cannot
be read counts as empty and is replaced by the next write: it only holds what
the endpoint itself will tell us again. Deleting it forgets everything.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

Option = Literal["stream_options", "tools"]
OPTIONS: tuple[Option, ...] = ("stream_options", "tools")
DEFAULT_BASE_URL = "https://api.openai.com/v1"
STATE_FILE = ("state", "endpoints.json")

def endpoint_key(base_url: str | None) -> str:
    """The endpoint as remembered: the base URL without a trailing slash."""
    return (base_url or DEFAULT_BASE_URL).strip().rstrip("/")


def state_path(data_dir: Path) -> Path:
    return data_dir.joinpath(*STATE_FILE)


@dataclass(frozen=True)
class Remembered:
    endpoint: str
    model: str
    option: Option
    since: str
    reason: str


class EndpointMemory:
    """What each endpoint and model refused, read from and written to ``state/endpoints.json``.

    Reads are cached by the file's mtime (every request asks); a write failure
    (read-only disk) keeps the fallback for this process and is reported by
    :meth:`remember`'s return value, never raised.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._stamp: int | None = None
        self._data: dict[str, Any] = {}
        self._session: set[tuple[str, str, str]] = set()  # remembered here even if unsaved

    def _read(self) -> dict[str, dict[str, Any]]:
        """endpoint -> model -> entry, from the file (cached by mtime); junk counts as nothing."""
        try:
            stamp = self.path.stat().st_mtime_ns
        except OSError:
            return {}
        with self._lock:
            if stamp != self._stamp:
                try:
                    data = json.loads(self.path.read_text(encoding="utf-8"))
                except (OSError, UnicodeDecodeError, ValueError):
                    data = {}
                endpoints = data.get("endpoints") if isinstance(data, dict) else None
                self._data = {e: {m: entry for m, entry in models.items() if isinstance(entry, dict)}
                              for e, models in (endpoints or {}).items() if isinstance(models, dict)} \
                    if isinstance(endpoints, dict) else {}
                self._stamp = stamp
            return self._data

    def omitted(self, base_url: str | None, model: str) -> set[str]:
        endpoint = endpoint_key(base_url)
        out = {option for (e, m, option) in self._session if e == endpoint and m == model}
        entry = self._read().get(endpoint, {}).get(model, {})
        return out | {o for o in OPTIONS if isinstance(entry.get(o), dict) and entry[o].get("omitted")}

    def _read_raw(self) -> dict[str, Any]:
        """The file's ``endpoints`` object as it is (under the lock), or a new one."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            return {}
        endpoints = data.get("endpoints") if isinstance(data, dict) else None
        return endpoints if isinstance(endpoints, dict) else {}

    def remember(self, base_url: str | None, model: str, option: Option, reason: str,
                 *, save: bool = True) -> str | None:
        """Record the fallback; returns a warning if it could not be saved.

        ``save=False`` (incognito) keeps it for this session only, writing nothing."""
        from agenttui.core.files import atomic_write_text, ensure_dir, locked

        endpoint = endpoint_key(base_url)
        self._session.add((endpoint, model, option))
        if not save:
            return None
        try:
            ensure_dir(self.path.parent)
            with locked(self.path):
                endpoints = self._read_raw()
                models = endpoints.get(endpoint)
                if not isinstance(models, dict):
                    models = endpoints[endpoint] = {}
                entry = models.get(model)
                if not isinstance(entry, dict):
                    entry = models[model] = {}
                entry[option] = {"omitted": True, "reason": reason[:300],
                                 "since": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
                data = {"endpoints": endpoints}
                atomic_write_text(self.path, json.dumps(data, indent=2, sort_keys=True) + "\n")
        except (OSError, TimeoutError) as exc:
            return f"could not save it to {self.path} ({exc}); it holds for this session only"
        return None

    def entries(self) -> list[Remembered]:
        out = []
        for endpoint, models in sorted(self._read().items()):
            for model, entry in sorted(models.items()):
                for option in OPTIONS:
                    value = entry.get(option)
                    if isinstance(value, dict) and value.get("omitted"):
                        out.append(Remembered(endpoint, model, option, str(value.get("since", "")),
                                              str(value.get("reason", ""))))
        return out


_MEMORIES: dict[str, EndpointMemory] = {}
_MEMORIES_LOCK = threading.Lock()


def memory_for(data_dir: Path) -> EndpointMemory:
    """One :class:`EndpointMemory` per state file in this process."""
    path = state_path(data_dir)
    key = os.fspath(path)
    with _MEMORIES_LOCK:
        memory = _MEMORIES.get(key)
        if memory is None:
            memory = _MEMORIES[key] = EndpointMemory(path)
        return memory
