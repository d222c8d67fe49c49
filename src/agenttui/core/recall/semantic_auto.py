"""``[recall] semantic = "auto"``: what is said once, and remembered, per profile and endpoint.

"auto" (the default) ranks recall by the endpoint's ``/v1/embeddings`` when
the endpoint serves them. Two things are then said **once per profile and
endpoint**, and remembered in that profile's folder of the data dir,
``<data dir>/profiles/<name>/semantic.json``::

    {"endpoints": {"http://localhost:11434/v1": {
        "told": "2026-11-24T00:31:07Z",
        "no_embeddings": {"model": "nomic-embed-text", "since": "...", "reason": "..."},
        "languages": {"nomic-embed-text": {"version": 1, "margins": {"en": 0.57, "zh": 0.12}}}}}}

* ``told``: the app's notice that this profile's history is sent to the
  endpoint for indexing, shown when the background indexing first succeeds.
  Another profile or another endpoint is told again; deleting the file too.
* ``no_embeddings``: the endpoint answered that it has none (404/405/501, a 400
  on the first request, 401/403) for this embedding model. One notice says
  recall stays keyword-only (the local embedder is not a stand-in: it lowered
  recall on the public development sets; see ``semantic``'s module doc). Later
  sessions do not ask again, nor say it again, until ``REPROBE_DAYS`` have passed (then one silent try: an endpoint that
  gained embeddings is used, and told). "Cannot reach the endpoint" is not
  remembered: the server may just be down.
* ``languages``: per embedding model, the margins of the language probe
  (:mod:`recall.language_probe`): which languages the model understands. Kept
  with ``true`` as well as "auto" (it is what the model is, not what was said).

Why the profile folder: the history that is sent is the profile's, so the
record lives beside it and goes with it. An incognito or dry-run session
writes nothing: what it learns holds for that session only. ``true`` (asked
for explicitly) and ``false`` use none of this.
"""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from agenttui.core.endpoint_state import endpoint_key

FILE_NAME = "semantic.json"
REPROBE_DAYS = 7  # an endpoint remembered without embeddings is tried again after this long

_LOCK = threading.Lock()


def is_auto(setting: object) -> bool:
    """``[recall] semantic`` is ``"auto"`` (not the explicit ``true``)."""
    return setting == "auto"


def told_notice(base_url: str | None, model: str) -> str:
    return (f"Semantic recall is on: your history is sent to {endpoint_key(base_url)}/embeddings "
            f"(model {model}) to be indexed in the background. Set [recall] semantic = false in "
            "config.toml to keep it local. Said once for this profile and endpoint.")


def fallback_notice(base_url: str | None, reason: str) -> str:
    return (f"Recall uses keyword search (BM25): {endpoint_key(base_url)} serves no embeddings "
            f"({reason}). Said once for this profile and endpoint.")


def remembers_refusal(status: int | None) -> bool:
    """An answer that says "no embeddings here" (kept), rather than "not now" (not kept)."""
    return status is not None and status in (400, 401, 403, 404, 405, 422, 501)


class AutoRecord:
    """One profile's ``semantic.json`` (module doc); ``save=False`` keeps it in memory only."""

    def __init__(self, profile_dir: Path, *, save: bool = True) -> None:
        self.path = profile_dir / FILE_NAME
        self.save = save
        self._session: dict[str, dict[str, Any]] = {}  # endpoint -> entry, learnt in this session

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            return {}  # a missing or broken file: nothing remembered (the endpoint will say again)
        endpoints = data.get("endpoints") if isinstance(data, dict) else None
        return endpoints if isinstance(endpoints, dict) else {}

    def entry(self, base_url: str | None) -> dict[str, Any]:
        key = endpoint_key(base_url)
        stored = self._read().get(key)
        return {**(stored if isinstance(stored, dict) else {}), **self._session.get(key, {})}

    def told(self, base_url: str | None) -> bool:
        return bool(self.entry(base_url).get("told"))

    def no_embeddings(self, base_url: str | None, model: str, *, now: datetime | None = None) -> str | None:
        """The remembered reason the endpoint has no embeddings for ``model``, while it holds."""
        value = self.entry(base_url).get("no_embeddings")
        if not isinstance(value, dict) or value.get("model") != model:
            return None
        try:
            since = datetime.fromisoformat(str(value.get("since")))
        except ValueError:
            return None
        if since.tzinfo is None:
            since = since.replace(tzinfo=UTC)
        if (now or datetime.now(UTC)) - since > timedelta(days=REPROBE_DAYS):
            return None
        return str(value.get("reason") or "no embeddings")

    def language_margins(self, base_url: str | None, model: str, version: int) -> dict[str, float] | None:
        """The language probe's margins for ``model`` (measured with table ``version``), if kept."""
        models = self.entry(base_url).get("languages")
        kept = models.get(model) if isinstance(models, dict) else None
        if not isinstance(kept, dict) or kept.get("version") != version or not isinstance(kept.get("margins"), dict):
            return None
        try:
            return {str(lang): float(margin) for lang, margin in kept["margins"].items()}
        except (TypeError, ValueError):
            return None

    def mark_language_margins(self, base_url: str | None, model: str, version: int,
                              margins: dict[str, float]) -> str | None:
        models = self.entry(base_url).get("languages")
        kept = dict(models) if isinstance(models, dict) else {}
        kept[model] = {"version": version, "margins": margins}
        return self._update(base_url, {"languages": kept})

    def mark_told(self, base_url: str | None) -> str | None:
        """Record the notice as shown; a warning when it could not be saved."""
        return self._update(base_url, {"told": _stamp(), "no_embeddings": None})

    def mark_no_embeddings(self, base_url: str | None, model: str, reason: str) -> str | None:
        return self._update(base_url, {"no_embeddings": {"model": model, "since": _stamp(),
                                                         "reason": reason[:300]}})

    def _update(self, base_url: str | None, changes: dict[str, Any]) -> str | None:
        from agenttui.core.files import atomic_write_text, ensure_dir, locked

        key = endpoint_key(base_url)
        self._session.setdefault(key, {}).update(changes)
        if not self.save:
            return None
        try:
            with _LOCK:
                ensure_dir(self.path.parent)
                with locked(self.path):
                    endpoints = self._read()
                    entry = endpoints.get(key)
                    entry = dict(entry) if isinstance(entry, dict) else {}
                    entry.update(changes)
                    endpoints[key] = {k: v for k, v in entry.items() if v is not None}
                    atomic_write_text(self.path, json.dumps({"endpoints": endpoints}, indent=2,
                                                            sort_keys=True) + "\n")
        except (OSError, TimeoutError) as exc:
            return f"could not save {self.path} ({exc}); it holds for this session only"
        return None


def _stamp() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())
