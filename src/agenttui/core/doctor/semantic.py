"""``agenttui doctor``'s ``semantic recall`` line: what is sent where for indexing, and how to stop it.

``[recall] semantic`` is "auto" by default (:mod:`agenttui.core.recall.semantic_auto`):
the app sends the history to the endpoint's ``/embeddings`` when the endpoint
serves them. Doctor says which it is:

* ``false``: nothing is sent for indexing;
* ``true``: the history is sent there (asked for explicitly);
* ``"auto"``: an endpoint remembered without embeddings (by any profile's
  ``semantic.json``) is keyword-only (even with the ``agenttui[local-embeddings]``
  extra installed); otherwise one ``POST /embeddings`` of the
  word ``ok`` decides (skipped with ``--offline``, then the line says "if").

Always ``ok``: keyword recall is a working recall, not a fault. Like the other
checks, it only reads (a probe's answer is not remembered).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agenttui.core.doctor.checks import Check, DoctorContext

OFF_HINT = "set [recall] semantic = false in config.toml to keep it local"


def _remembered_refusal(ctx: DoctorContext, endpoint: str, model: str) -> str | None:
    from agenttui.core.recall.semantic_auto import FILE_NAME

    if not ctx.paths.profiles_dir.is_dir():
        return None
    for path in sorted(ctx.paths.profiles_dir.glob(f"*/{FILE_NAME}")):
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))["endpoints"][endpoint]["no_embeddings"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if isinstance(entry, dict) and entry.get("model") == model:
            return f"{entry.get('reason', 'no embeddings')}, remembered since {entry.get('since', '?')}"
    return None


def check_semantic(ctx: DoctorContext) -> Check:
    from agenttui.core.config.file import load_settings
    from agenttui.core.doctor.checks import Check, _effective_endpoint
    from agenttui.core.doctor.endpoint import _key, _request, server_words

    recall = load_settings(ctx.paths).settings.recall
    endpoint, _ = _effective_endpoint(ctx)
    model = recall.embedding_model
    target = f"{endpoint}/embeddings (model {model})"
    if not recall.semantic or not recall.enabled:
        return Check("semantic recall", "ok", "off: nothing is sent for indexing; recall uses keyword search")
    if recall.semantic == "local":
        from agenttui.core.recall.local_embedder import unavailable_reason

        reason = unavailable_reason()
        if reason:
            return Check("semantic recall", "warn", f"local: {reason}; recall uses keyword search")
        return Check("semantic recall", "ok", "local: embeddings are made on this machine (the static table "
                     "shipped with agenttui); nothing is sent for indexing")
    if recall.semantic is True:
        return Check("semantic recall", "ok", f"on: your history is sent to {target} for indexing "
                     f"([recall] semantic = true); {OFF_HINT}")
    refused = _remembered_refusal(ctx, endpoint, model)
    if refused:
        return Check("semantic recall", "ok", f"auto: {endpoint} serves no embeddings ({refused}); "
                     f"{_without_endpoint()}")
    if ctx.offline:
        return Check("semantic recall", "ok", f"auto: your history is sent to {target} for indexing "
                     f"if it serves embeddings (not checked: --offline); {OFF_HINT}")
    answer = _request(f"{endpoint}/embeddings", _key(ctx), ctx.endpoint_timeout,
                      {"model": model, "input": ["ok"]})
    if answer.status == 200:
        return Check("semantic recall", "ok", f"auto: the endpoint serves embeddings, so your history "
                     f"is sent to {target} for indexing in the background; {OFF_HINT}")
    why = f"HTTP {answer.status}: {server_words(answer)}" if answer.status else answer.error
    return Check("semantic recall", "ok", f"auto: {endpoint} serves no embeddings ({why}); "
                 f"{_without_endpoint()}")


def _without_endpoint() -> str:
    """What "auto" does on an endpoint without embeddings (never the local embedder: it lowered
    recall on the public development sets; ``semantic = "local"`` asks for it by name)."""
    return "recall uses keyword search and nothing is sent for indexing"
