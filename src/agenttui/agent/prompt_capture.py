"""The exact request of the last turn, for the prompt inspector (docs/memory.md).

The loop records every completion request it sends (messages, tools, model,
parameters) in ``services.session``; :func:`last_prompt` returns the latest.
It lives in memory only -- it is what was sent, unredacted, and never written.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agenttui.bootstrap import Services


@dataclass
class CapturedPrompt:
    model: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    params: dict[str, Any] = field(default_factory=dict)  # temperature, stream options ...
    injected_memory: list[str] = field(default_factory=list)  # ids of memory items in the prompt
    turn_id: str = ""  # the turn that sent it (matches ``Trace.turn_id``)
    conversation_id: str = ""  # where the turn's replies are stored (the inspector shows their usage)
    at: float = field(default_factory=time.time)

    @property
    def system_prompt(self) -> str:
        first = self.messages[0] if self.messages else {}
        return first.get("content") or "" if first.get("role") == "system" else ""


def record(services: Services, prompt: CapturedPrompt) -> None:
    services.session.last_prompt = prompt


def last_prompt(services: Services) -> CapturedPrompt | None:
    """The request the last LLM call sent for these services, or None."""
    return services.session.last_prompt
