"""The price of a message's tokens from ``genai-prices``' bundled table (no network).

``genai-prices`` ships its price table inside the package (``genai_prices.data``)
and only reaches the network when asked to (``UpdatePrices``, never used here), so
a price is computed offline, from the table of the installed release; upgrading the
package updates the prices. Importing the table takes ~1 s of CPU, so it happens
once, in a thread started as a turn begins (:func:`warm`), and never on the path
of a command that only reads totals (costs are stored with the message).

The endpoint's address picks the provider (``openrouter.ai`` prices OpenRouter's
``openai/gpt-4o``); when it names no provider the table knows (a local proxy, a
gateway), the model name alone is tried, and ``priced_as`` says which provider's
price was used. A model the table does not know has no cost: None, never a guess.
"""

from __future__ import annotations

import threading
from datetime import datetime

from agenttui.core.usage.message_usage import MessageUsage

_warming: threading.Thread | None = None
_lock = threading.Lock()


def warm() -> None:
    """Import the price table in a background thread (once per process)."""
    global _warming
    with _lock:
        if _warming is None:
            _warming = threading.Thread(target=_import_table, name="agenttui-prices", daemon=True)
            _warming.start()


def _import_table() -> None:
    try:
        import genai_prices  # noqa: F401 -- the import is the work
    except Exception:  # noqa: BLE001 -- pricing is optional: tokens still show
        return


def price(usage: MessageUsage, base_url: str | None = None,
          when: datetime | None = None) -> MessageUsage:
    """Fill ``usage.cost`` and ``usage.priced_as`` (left None for an unknown model); returns it."""
    if not usage.model:
        return usage
    try:
        from genai_prices import Usage, calc_price
    except Exception:  # noqa: BLE001 -- the package is missing or broken: no cost
        return usage
    tokens = Usage(input_tokens=usage.prompt_tokens, output_tokens=usage.completion_tokens,
                   cache_read_tokens=usage.cached_tokens or None)
    for url in ([base_url] if base_url else []) + [None]:  # the endpoint's provider, then any
        try:
            result = calc_price(tokens, usage.model, provider_api_url=url, genai_request_timestamp=when)
        except Exception:  # noqa: BLE001 -- LookupError for an unknown model; anything else alike
            continue
        usage.cost = float(result.total_price)
        usage.priced_as = f"{result.provider.id}/{result.model.id}"
        return usage
    return usage
