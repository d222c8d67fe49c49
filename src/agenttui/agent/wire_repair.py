"""The last check before a request leaves: no empty assistant messages.

OpenAI and Azure reject an assistant message with neither content nor tool
calls ("Invalid value for 'content': expected a string, got null"), and then
every later request of that conversation fails. The loop no longer stores such
replies, but histories written before it did (and imports) may hold them.

Decision: *repair*, not skip. Dropping the message would put two user
messages in a row, which chat templates of several local models (Mistral,
Gemma via llama.cpp / vLLM) refuse ("roles must alternate"); a short
placeholder keeps the turn structure and tells the model nothing was said.
"""

from __future__ import annotations

from typing import Any

EMPTY_REPLY = "[no reply was received for this message]"


def _has_text(content: Any) -> bool:
    if isinstance(content, str):
        return bool(content.strip())
    if isinstance(content, list):  # content parts
        return any(isinstance(p, dict) and (p.get("type") != "text" or str(p.get("text") or "").strip())
                   for p in content)
    return False


def repair_empty_replies(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``messages`` with every empty assistant message given placeholder content."""
    out = []
    for message in messages:
        if message.get("role") == "assistant" and not message.get("tool_calls") \
                and not _has_text(message.get("content")):
            message = {k: v for k, v in message.items() if k != "tool_calls"}
            message["content"] = EMPTY_REPLY
        out.append(message)
    return out
