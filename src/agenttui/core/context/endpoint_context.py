"""Context lengths the endpoint itself reported, remembered per endpoint and model.

The hand-kept table in :mod:`agenttui.core.context.model_limits` is only a fallback:
when the endpoint says how long a model's context is (OpenRouter's ``context_length``
in ``/models``, vLLM's ``max_model_len``, Ollama's ``/api/show``; asked by
:mod:`agenttui.agent.context_probe`), that number wins. Kept in
``<data dir>/state/context_lengths.json`` (``{endpoint: {model: tokens}}``, written
atomically; an unreadable file counts as empty: the endpoint will say it again), so a
command's first turn already has it; read once per process.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from agenttui.core.endpoint_state import endpoint_key

STATE_FILE = ("state", "context_lengths.json")
_lock = threading.Lock()
_known: dict[tuple[str, str], int] = {}
_loaded: set[Path] = set()


def _path(data_dir: Path) -> Path:
    return data_dir.joinpath(*STATE_FILE)


def _load(data_dir: Path | None) -> None:
    if data_dir is None or data_dir in _loaded:
        return
    _loaded.add(data_dir)
    try:
        data = json.loads(_path(data_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(data, dict):
        for endpoint, models in data.items():
            if isinstance(models, dict):
                for model, tokens in models.items():
                    if isinstance(tokens, int) and tokens > 0:
                        _known.setdefault((endpoint, model), tokens)


def learned(base_url: str | None, model: str, data_dir: Path | None = None) -> int | None:
    """The context length the endpoint reported for ``model``, if it ever did."""
    with _lock:
        _load(data_dir)
        return _known.get((endpoint_key(base_url), model))


def learn(base_url: str | None, model: str, tokens: int, data_dir: Path | None = None) -> None:
    """Remember ``tokens`` for the endpoint and model (and write it down, best effort)."""
    key = (endpoint_key(base_url), model)
    with _lock:
        _load(data_dir)
        if _known.get(key) == tokens:
            return
        _known[key] = tokens
        if data_dir is None:
            return
        table: dict[str, dict[str, int]] = {}
        for (endpoint, name), length in _known.items():
            table.setdefault(endpoint, {})[name] = length
        try:
            from agenttui.core.files import atomic_write_text

            path = _path(data_dir)
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(path, json.dumps(table, indent=1, sort_keys=True))
        except OSError:
            pass  # kept for this process; the endpoint will say it again next time
