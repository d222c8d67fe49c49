"""What the core reads of the composition root (:class:`agenttui.bootstrap.Services`).

``core/`` sits below ``bootstrap``, whose ``Services`` also names the agent's
types (the cached client, the last request): so the core states the few
things it uses as a Protocol instead of importing it. ``Services`` satisfies
it, and mypy checks that wherever one is passed for the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, Self

if TYPE_CHECKING:
    from pathlib import Path

    from agenttui.core.config.api_key import KeyLookup
    from agenttui.core.config.paths import Paths
    from agenttui.core.config.settings import Settings
    from agenttui.core.history.store import HistoryStore
    from agenttui.core.memory.project import ProjectMemory
    from agenttui.core.memory.store import MemoryStore
    from agenttui.core.recall.semantic import EmbeddingRanker, SemanticState


class SemanticSlot(Protocol):
    """Where a session keeps semantic recall's state (``SessionState.semantic``)."""

    semantic: SemanticState | None


class CoreServices(Protocol):
    paths: Paths
    settings: Settings  # with the active profile's overrides
    incognito: bool  # an incognito twin: reads, never writes (core/incognito.py)
    workdir: Path  # where agenttui was started (repository instruction files are found from it)

    @property
    def session(self) -> SemanticSlot: ...
    @property
    def history(self) -> HistoryStore: ...
    @property
    def memory(self) -> MemoryStore: ...
    @property
    def project(self) -> ProjectMemory: ...
    @property
    def model(self) -> str: ...
    @property
    def base_url(self) -> str | None: ...
    def api_key(self) -> KeyLookup: ...
    def semantic_ranker(self) -> EmbeddingRanker | None: ...
    def incognito_twin(self) -> Self: ...
