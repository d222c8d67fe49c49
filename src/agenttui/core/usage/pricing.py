"""The price of a reply's tokens from ``genai-prices``' bundled table (no network).

``genai-prices`` ships its price table inside the package (``genai_prices.data``)
and only reaches the network when asked to (``UpdatePrices``, never used here), so
a price is computed offline, from the table of the installed release; upgrading the
package updates the prices of replies stored from then on.

Loading the table costs ~1 s of CPU, so it never sits in a turn's way: a reply is
stored with its tokens and, unless the table is loaded already (:func:`price_if_loaded`),
priced afterwards by :func:`price_pending` -- in a thread after the turn (the app), or
by ``agenttui usage`` / ``history show`` before they print (a command that stored a
reply exits without waiting for it).

The endpoint's address picks the provider (``openrouter.ai`` prices OpenRouter's
``openai/gpt-4o``); when it names no provider the table knows (a local proxy, a
gateway), the model name alone is tried, and ``priced_as`` says which provider's
price was used. A model the table does not know has no cost (``priced_as`` ""),
never a guess.
"""

from __future__ import annotations

import sys
import threading
import time
from datetime import datetime
from typing import Any

from agenttui.core.usage.message_usage import MessageUsage

_pending_lock = threading.Lock()  # one pricing pass at a time per process
BATCH = 500


def price(usage: MessageUsage, base_url: str | None = None,
          when: datetime | None = None) -> tuple[float | None, str]:
    """(cost in USD, "provider/model") for ``usage``; (None, "") when the table does not know it."""
    if not usage.model:
        return None, ""
    try:
        from genai_prices import Usage, calc_price
    except Exception:  # noqa: BLE001 -- the package is missing or broken: no cost
        return None, ""
    tokens = Usage(input_tokens=usage.prompt_tokens, output_tokens=usage.completion_tokens,
                   cache_read_tokens=usage.cached_tokens or None)
    for url in ([base_url] if base_url else []) + [None]:  # the endpoint's provider, then any
        try:
            result = calc_price(tokens, usage.model, provider_api_url=url, genai_request_timestamp=when)
        except Exception:  # noqa: BLE001 -- LookupError for an unknown model; anything else alike
            continue
        return float(result.total_price), f"{result.provider.id}/{result.model.id}"
    return None, ""


def price_if_loaded(usage: MessageUsage) -> None:
    """Price ``usage`` now when the table is loaded already (milliseconds); else leave it pending."""
    if "genai_prices" in sys.modules and usage.priced_as is None:
        usage.cost, usage.priced_as = price(usage, usage.endpoint)


def price_pending(history: Any) -> int:
    """Look up the price of every stored reply still without one; returns how many were priced."""
    from agenttui.core.history.rows import from_ts

    done = 0
    with _pending_lock:
        while rows := history.unpriced_usage(BATCH):
            prices = []
            for mid, usage, created in rows:
                cost, priced_as = price(usage, usage.endpoint, from_ts(created))
                prices.append((mid, cost, priced_as))
            history.set_prices(prices)
            done += len(prices)
    return done


_running: set[threading.Thread] = set()


def price_pending_in_background(history: Any) -> threading.Thread:
    """Price in a thread; :func:`wait_for_background` before the store closes (a pass still
    running would reopen the closed store's connection and leave it open, and its -wal file)."""

    def run() -> None:
        try:
            price_pending(history)
        except Exception:  # noqa: BLE001 -- a busy store: the next pass (or command) prices them
            return
        finally:
            _running.discard(threading.current_thread())

    thread = threading.Thread(target=run, name="agenttui-prices", daemon=True)
    _running.add(thread)
    thread.start()
    return thread


def wait_for_background(timeout: float = 30.0) -> None:
    """Let the pricing passes still running finish (at most ``timeout`` s in all)."""
    deadline = time.monotonic() + timeout
    for thread in list(_running):
        thread.join(max(0.0, deadline - time.monotonic()))
