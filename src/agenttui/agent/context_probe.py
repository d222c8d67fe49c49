"""Ask the endpoint how long a model's context is (the table in core/context/model_limits.py
is only the fallback).

* ``GET {base_url}/models`` through the real ``openai`` client: the model's entry may carry
  ``context_length`` (OpenRouter; also under ``top_provider``), ``max_model_len`` (vLLM),
  ``context_window`` (Groq) or ``max_context_length`` (LM Studio).
* Ollama (its ``/models`` says nothing of it): ``POST {root}/api/show`` -- ``num_ctx`` in the
  model's parameters when set (what Ollama serves), else the model's own
  ``<arch>.context_length``.

Asked once per endpoint and model in a process, in a daemon thread started as a turn
begins (:func:`probe_in_background`), never on the way to the first token; the answer is
remembered on disk (core/context/endpoint_context.py), so the next turn and the next
command use it. Any failure leaves the table's figure: nothing is retried or reported.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from agenttui.core.context.endpoint_context import learn

PROBE_TIMEOUT = 5.0
_MODEL_FIELDS = ("context_length", "max_model_len", "context_window", "max_context_length")
_asked: set[tuple[str | None, str]] = set()
_asked_lock = threading.Lock()


def _positive(value: Any) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if number > 0 else None


def from_model_entry(entry: dict[str, Any]) -> int | None:
    """The context length a ``/models`` entry states, if any."""
    for field in _MODEL_FIELDS:
        if (found := _positive(entry.get(field))) is not None:
            return found
    top = entry.get("top_provider")
    return _positive(top.get("context_length")) if isinstance(top, dict) else None


def from_ollama_show(show: dict[str, Any]) -> int | None:
    """``num_ctx`` from an ``/api/show`` answer's parameters, else the model's own length."""
    for line in str(show.get("parameters") or "").splitlines():
        name, _, value = line.strip().partition(" ")
        if name == "num_ctx" and (found := _positive(value.strip())) is not None:
            return found
    info = show.get("model_info")
    if isinstance(info, dict):
        for key, value in info.items():
            if key.endswith(".context_length") and (found := _positive(value)) is not None:
                return found
    return None


def probe(base_url: str | None, api_key: str, model: str, timeout: float = PROBE_TIMEOUT) -> int | None:
    """The context length the endpoint reports for ``model``, or None. Blocking."""
    import httpx2
    import openai

    client = openai.OpenAI(base_url=base_url or None, api_key=api_key or "none", timeout=timeout,
                           max_retries=0)
    try:
        for entry in client.models.list().data:
            if getattr(entry, "id", None) == model:
                found = from_model_entry({**(entry.model_extra or {}), **entry.model_dump()})
                if found:
                    return found
    except Exception:  # noqa: BLE001 -- no list (some gateways): try Ollama's own API below
        pass
    finally:
        client.close()
    if not base_url:
        return None
    parts = urlsplit(base_url)
    root = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    try:
        answer = httpx2.post(f"{root}/api/show", json={"model": model}, timeout=timeout)
        if answer.status_code == 200:
            data = answer.json()
            return from_ollama_show(data) if isinstance(data, dict) else None
    except Exception:  # noqa: BLE001 -- not Ollama, or unreachable: the table stays
        return None
    return None


def probe_in_background(base_url: str | None, api_key: str, model: str,
                        data_dir: Path | None) -> threading.Thread | None:
    """Start :func:`probe` in a daemon thread, once per endpoint and model in this process."""
    with _asked_lock:
        if (base_url, model) in _asked:
            return None
        _asked.add((base_url, model))

    def run() -> None:
        found = probe(base_url, api_key, model)
        if found:
            learn(base_url, model, found, data_dir)

    thread = threading.Thread(target=run, name="agenttui-context-probe", daemon=True)
    thread.start()
    return thread
