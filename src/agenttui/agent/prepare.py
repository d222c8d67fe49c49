"""Get the first turn ready before it is asked for.

Without this the first message after launch paid for everything done once
per process before its request left: importing openai and its chat
resources, building the client (its SSL context), compiling the redaction
and correction rules, recall's lemma tables (~0.8 s on their own), the tool
schemas, the first pass through openai's request code, and the connection.
Later turns took ~20 ms. The TUI (``AgentTUI``), once its first frame is out
and the panes are up, runs in order:

1. :func:`prepare_client` in a thread -- openai's imports, the API key and
   the cached client (:func:`agenttui.agent.loop.client_for`, for the app's
   event loop): what every turn needs, first.
2. :func:`warm_connection` on the event loop, not waited for -- one small
   request, ``GET {base_url}/models/{model}``, which opens the connection
   (TCP, TLS) the turn then reuses and runs openai's request path once. Its
   answer (even a 404 or 401) is ignored; it never raises and never shows
   anything. httpx drops an idle connection after 5 s, so the app warms it
   again when the user starts typing after a pause. ``[agent] warm_up =
   false`` turns this request off (the rest still happens; nothing is sent).
3. :func:`prepare_prompt` in a thread -- a dry run of what the turn does
   before its request: redaction, correction rules, tool schemas, prompt
   assembly with recall for a throwaway draft (``context.prepare``: nothing
   is written, and the draft is ranked by words only: a made-up text is never
   sent to ``/embeddings``); the postings of the history's words,
   which recall then ranks from instead of SQLite scoring their every match
   (``HistoryStore.keep_ranking_index``: 1-3 s of CPU at 200,000 messages,
   mostly in SQLite, which leaves the GIL to the UI); with semantic ranking
   on, the stored vectors' in-memory tables (read from the history, nothing
   sent: 0.7-0.9 s of CPU at 200,000 vectors that a first turn would
   otherwise spend).

A message sent while 1 or 3 still run waits for them (the chat asks
``AgentTUI.first_turn_ready``) instead of doing the same work a second time
in parallel -- two threads loading the lemma tables at once take twice as
long. None of this changes what a turn does: it finds the same cached client
and warm caches it would have built itself, just earlier.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

WARM_TIMEOUT_S = 5.0
WARM_TEXT = "hello, what did we talk about"  # a plain draft: exercises recall, matches no secret
KEEPALIVE_S = 4.0  # httpx keeps an idle connection 5 s: warm again after this long


def prepare_client(services: Services, loop: asyncio.AbstractEventLoop) -> Any | None:
    """openai's imports, the key and the cached client; the client, or None (no key, or a failure).

    Runs in a thread; never raises (a failure here only means the turn does the work itself).
    """
    try:
        # openai's lazily imported parts a streamed chat completion goes through
        import openai.resources.chat.completions  # noqa: F401
        from openai.types.chat import ChatCompletionChunk  # noqa: F401

        from agenttui.agent import loop as agent_loop

        key = services.api_key()
        if not key.value:
            return None
        client = agent_loop.client_for(services, key.value, loop=loop)
        _ = client.chat.completions  # the resource objects are built on first access
        _ = client.models
        return client
    except Exception:  # noqa: BLE001 -- preparation is an optimisation, never a failure
        return None


def prepare_prompt(services: Services) -> None:
    """A dry run of the turn's work before its request (module doc, step 3); never raises."""
    try:
        import agenttui.agent.memory_hooks  # noqa: F401 -- correction detection on every message
        import agenttui.core.memory.corrections  # noqa: F401 -- its rules compile at import
        from agenttui.agent import request_options  # noqa: F401 -- the request's option rules, imported
        from agenttui.agent.tools.registry import ToolRegistry
        from agenttui.core.context.assemble import prepare
        from agenttui.core.endpoint_state import memory_for
        from agenttui.security import redact_secrets

        memory_for(services.paths.data_dir).omitted(services.base_url, services.model)
        ToolRegistry(services).schemas()
        redact_secrets(WARM_TEXT, tuple(services.settings.redaction.extra_patterns))
        prepare(services, None, WARM_TEXT, semantic=False)  # never sends this made-up text anywhere
        services.keeps_ranking_index = True  # and so does the store of a profile switched to
        services.history.keep_ranking_index(wait=False)  # recall's postings (bm25_postings.py), built aside
        if services.settings.recall.semantic:
            from agenttui.core.recall.semantic import load_tables

            load_tables(services)  # the stored vectors' tables, which a first turn would build itself
    except Exception:  # noqa: BLE001 -- as above
        pass


async def warm_connection(client: Any, model: str, timeout: float = WARM_TIMEOUT_S) -> float | None:
    """One small request to open the connection; seconds it took, or None if nothing answered."""
    started = time.monotonic()
    try:
        await asyncio.wait_for(client.with_raw_response.models.retrieve(model), timeout)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # noqa: BLE001 -- never shown: the turn reports real problems
        # an HTTP error answer (a 404: no such route) still opened the connection
        return time.monotonic() - started if getattr(exc, "status_code", None) else None
    return time.monotonic() - started
