"""The models ``/model`` offers: the configured ones first, then the endpoint's ``/models``.

The endpoint's list is fetched once per endpoint and key and kept in memory for
``CACHE_SECONDS`` (opening the picker again is instant; a model added on the server
shows within the cache's life). The configured models are the default model in use,
the global settings' one and every profile's that talks to the same endpoint (a
profile with its own base URL names a model of another server). Blocking: call
:func:`listed_models` from a worker thread.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from agenttui.agent.model_list import LIST_TIMEOUT, list_models

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

CACHE_SECONDS = 600.0

_cache: dict[tuple[str, str], tuple[float, list[str]]] = {}
_lock = threading.Lock()


def _cache_key(base_url: str | None, api_key: str) -> tuple[str, str]:
    # the key only as a digest: this dict must never hold a secret
    return base_url or "", hashlib.sha256(api_key.encode("utf-8")).hexdigest()[:16]


def listed_models(base_url: str | None, api_key: str, timeout: float = LIST_TIMEOUT) -> list[str]:
    """The endpoint's model ids (sorted), from the cache when fetched lately; raises
    :class:`~agenttui.agent.model_list.ModelListError` (a failure is not cached)."""
    key = _cache_key(base_url, api_key)
    with _lock:
        cached = _cache.get(key)
    if cached is not None and time.monotonic() - cached[0] < CACHE_SECONDS:
        return list(cached[1])
    models = list_models(base_url, api_key, timeout)
    with _lock:
        _cache[key] = (time.monotonic(), list(models))
    return models


def forget_listed() -> None:
    """Drop the cached lists (a new key or endpoint is saved: the next picker asks again)."""
    with _lock:
        _cache.clear()


def configured_models(services: Services) -> list[str]:
    """The default model in use, the global one, then each same-endpoint profile's (no repeats)."""
    names = [services.model, services.base_settings.model]
    try:
        profiles = services.profiles.list()
    except Exception:  # noqa: BLE001 -- a damaged profile file costs its entries, never the picker
        profiles = []
    base = services.base_url
    names += [p.model for p in profiles if p.model and (p.base_url is None or p.base_url == base)]
    return ordered(names, [])


def ordered(configured: Iterable[str | None], listed: Iterable[str]) -> list[str]:
    """``configured`` first (in their order), then ``listed``; each name once, blanks dropped."""
    seen: dict[str, None] = {}
    for name in (*configured, *listed):
        if name and name.strip() and name not in seen:
            seen[name] = None
    return list(seen)
