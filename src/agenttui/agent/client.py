"""The OpenAI client, created lazily (docs/agent.md#the-loop).

``import openai`` costs ~0.3-0.4 s, so nothing imports it at module level: the
UI draws its first frame without it and the client is built on the first turn.
The client's own retries are off (``max_retries=0``): the loop retries itself
(:mod:`agenttui.agent.retry`) so it can honour ``Retry-After``, respect the
turn's deadline and cancellation, and count retries in the trace.
"""

from __future__ import annotations

from typing import Any


def make_client(base_url: str | None, api_key: str, timeout: float, max_retries: int = 0) -> Any:
    """An ``openai.AsyncOpenAI`` for ``base_url`` (None = the OpenAI API).

    ``timeout`` bounds connecting and each read, so a stalled stream fails
    after ``timeout`` seconds of silence rather than hanging the turn.
    Local servers that need no key (Ollama, llama.cpp) still need *some*
    value here: set ``OPENAI_API_KEY=anything``.
    """
    import openai  # lazy: see module docstring

    return openai.AsyncOpenAI(base_url=base_url or None, api_key=api_key,
                              timeout=timeout, max_retries=max_retries)
