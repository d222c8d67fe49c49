"""Offline token estimates (``Message.tokens``, token windows, prompt budgets).

Decision: a heuristic, not a tokenizer. ``tiktoken`` downloads its BPE tables
at run time (forbidden here) and endpoints differ in tokenizer anyway (a local
Llama, OpenRouter, OpenAI), so an exact count for one vocabulary would be
false precision. The estimate only has to keep budgets honest.

The formula blends the two classic rules of thumb for BPE vocabularies of the
cl100k/o200k family, which err in opposite directions:

* ASCII text: ``chars / 4`` (good for prose, low for code and JSON) averaged
  with ``words * 4/3`` (good for prose, low for long identifiers), plus a
  quarter token per punctuation/symbol character (code, JSON, Markdown are
  dense in them and BPE rarely merges them);
* non-ASCII characters count ``0.6`` each: CJK is ~1 token per character,
  Cyrillic/Greek/Vietnamese ~0.3–0.5; 0.6 over-counts the latter on purpose.

Error bound (documented, not measured here: no reference tokenizer is
available offline): for English prose and typical source code the estimate is
within about ±25 % of cl100k/o200k counts, and it leans high (e.g. "Hello,
world!" → 4, real 4; "The quick brown fox jumps over the lazy dog." → 12,
real 10). Non-Latin scripts are over-estimated by up to ~2× (Cyrillic) and
under-estimated by up to ~40 % for dense CJK. Over-estimating is the safe
direction for a budget. Everything is C-level string work (``split``,
``encode``, ``translate``), so it costs well under a microsecond per 100 chars.

Per-message overhead follows OpenAI's published accounting for chat messages
(~3 tokens of framing per message, +1 for a name); a tool call adds its name
and arguments plus ~8 tokens of framing; an image is charged a flat 765 tokens
(a 1024×1024 high-detail image), an over-estimate for small or low-detail ones.
"""

from __future__ import annotations

import math
import string
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agenttui.core.models import Message

MESSAGE_OVERHEAD = 3
NAME_OVERHEAD = 1
TOOL_CALL_OVERHEAD = 8
IMAGE_TOKENS = 765
REPLY_PRIMING = 3  # every reply is primed with <|start|>assistant<|message|>

_NON_ASCII_WEIGHT = 0.6
_SYMBOL_WEIGHT = 0.25
# Deleting everything except punctuation leaves the symbols to count.
_KEEP_SYMBOLS = str.maketrans("", "", string.ascii_letters + string.digits + string.whitespace)


def estimate_tokens(text: str | None) -> int:
    """Estimated tokens of ``text`` (0 for empty); see the module doc for the bound."""
    if not text:
        return 0
    return tokens_from_counts(*text_counts(text))


def text_counts(text: str) -> tuple[int, int, int, int]:
    """The four counts the estimate is a formula of: ASCII characters, other characters, words,
    ASCII symbols. Each is additive over pieces joined by whitespace (recall sums its lines')."""
    ascii_only = text.encode("ascii", "ignore")
    ascii_chars = len(ascii_only)
    symbols = len(ascii_only.decode("ascii").translate(_KEEP_SYMBOLS)) if ascii_chars else 0
    return ascii_chars, len(text) - ascii_chars, len(text.split()), symbols


def tokens_from_counts(ascii_chars: int, non_ascii: int, words: int, symbols: int) -> int:
    """The estimate from :func:`text_counts`' four counts (0 when there are no characters)."""
    if ascii_chars + non_ascii == 0:
        return 0
    estimate = (
        0.5 * (ascii_chars / 4)
        + 0.5 * (words * 4 / 3)
        + _SYMBOL_WEIGHT * symbols
        + _NON_ASCII_WEIGHT * non_ascii
    )
    return max(1, math.ceil(estimate))


def message_tokens(message: Message) -> int:
    """Estimated tokens ``message`` costs in a request, framing included.

    Uses ``message.tokens`` when the history store already computed it (so a
    window over thousands of stored messages does not re-scan their text).
    """
    if message.tokens > 0:
        return message.tokens
    return compute_message_tokens(message)


def compute_message_tokens(message: Message) -> int:
    """Always recompute (for stores filling in ``Message.tokens``)."""
    tokens = MESSAGE_OVERHEAD + estimate_tokens(message.content)
    if message.name:
        tokens += NAME_OVERHEAD + estimate_tokens(message.name)
    for call in message.tool_calls:
        tokens += TOOL_CALL_OVERHEAD + estimate_tokens(call.name) + estimate_tokens(call.arguments)
    if message.image_b64:
        tokens += IMAGE_TOKENS
    return tokens


def wire_tokens(messages: list[dict[str, Any]]) -> int:
    """Estimate for messages already in OpenAI wire form (for traces/inspector)."""
    tokens = REPLY_PRIMING
    for message in messages:
        tokens += MESSAGE_OVERHEAD
        content = message.get("content")
        if isinstance(content, str):
            tokens += estimate_tokens(content)
        elif isinstance(content, list):
            for part in content:
                if part.get("type") == "text":
                    tokens += estimate_tokens(part.get("text"))
                else:
                    tokens += IMAGE_TOKENS
        for call in message.get("tool_calls") or ():
            function = call.get("function", {})
            tokens += TOOL_CALL_OVERHEAD + estimate_tokens(function.get("name"))
            tokens += estimate_tokens(function.get("arguments"))
        if message.get("name"):
            tokens += NAME_OVERHEAD
    return tokens
