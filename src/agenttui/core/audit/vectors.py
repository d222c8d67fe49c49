"""Embeddings for the audit's duplicates by meaning.

The audit asks the endpoint that serves recall's embeddings (the same
``[recall] embedding_model`` and :class:`EmbeddingClient`) for one vector
per note text, and for the few words two near-identical notes swap
(:func:`audit.duplicates.vector_pairs`). Vectors are kept per (model, text)
for the session, so the audit screen, which re-runs the audit after every
edit, sends only new or edited texts. An endpoint without embeddings leaves
the audit lexical: the :class:`EmbeddingError` reaches the caller, which
says so once.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agenttui.core.audit.duplicates import Embed
from agenttui.core.recall.embeddings import normalised

if TYPE_CHECKING:
    from agenttui.core.recall.local_embedder import Embedder
    from agenttui.core.services_view import CoreServices

MAX_CACHED = 50_000  # texts; ~75 MB at 384 dims, then the cache starts again

_cache: dict[tuple[str, str], Sequence[float]] = {}
_lock = threading.Lock()


def cached_embedder(client: Embedder) -> Embed:
    """texts -> unit vectors in order, each text sent to ``client`` once per session."""

    def embed(texts: Sequence[str]) -> list[Sequence[float]]:
        with _lock:
            todo = sorted({t for t in texts if (client.model, t) not in _cache})
        fresh: dict[str, Sequence[float]] = {}
        if todo:
            vectors = client.embed(todo)  # raises EmbeddingError
            with _lock:
                if len(_cache) + len(todo) > MAX_CACHED:
                    _cache.clear()
                fresh = {t: normalised(v) for t, v in zip(todo, vectors, strict=True)}
                _cache.update(((client.model, t), v) for t, v in fresh.items())
        with _lock:
            return [_cache.get((client.model, t)) or fresh[t] for t in texts]

    return embed


def embedder_for(services: CoreServices) -> Embed | None:
    """The audit's embed function when ``[recall] semantic`` is on and can run, else None.

    The same client, model and API key as semantic recall (``semantic_state``),
    so with "auto" (the default) the audit uses embeddings wherever recall
    does: an endpoint remembered without them leaves the audit lexical without
    asking, and one found without them here is remembered the same way (one
    notice, then none in later sessions).
    """
    if not services.settings.recall.semantic:
        return None
    from agenttui.core.recall.embedding_client import EmbeddingError
    from agenttui.core.recall.semantic import semantic_state

    state = semantic_state(services)
    if not state.enabled:
        return None
    embed = cached_embedder(state.client())

    def embed_or_turn_off(texts: Sequence[str]) -> Sequence[Sequence[float]]:
        try:
            return embed(texts)
        except EmbeddingError as error:
            if error.kind == "unavailable":
                state.disable(str(error), error.status)
            raise

    return embed_or_turn_off


def forget() -> None:
    with _lock:
        _cache.clear()
