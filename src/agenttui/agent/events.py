"""Events the agent loop yields (``run_turn`` is an async generator of these).

The UI and the CLI render them; neither reaches into the loop. An approval is
a request the caller answers by resolving its future (toad's pattern), so the
same loop serves a modal dialog, a ``--yes`` flag or a test.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Literal

from agenttui.core.models import Message, ToolCall, WriteResult
from agenttui.core.recall.usage import RecallUsage

Risk = Literal["low", "medium", "high"]
StopReason = Literal[
    "success", "max_steps", "max_seconds", "cancelled", "llm_error", "tool_error",
    "incomplete",  # the provider did not finish the reply (length, content filter, cut stream, ...)
]


@dataclass
class TraceStep:
    tool: str
    arguments: str
    ok: bool
    denied: bool = False
    seconds: float = 0.0


@dataclass
class Trace:
    """What happened in one turn: for the UI, logs and tests."""

    turn_id: str
    steps: list[TraceStep] = field(default_factory=list)
    llm_calls: int = 0
    retries: int = 0
    memory_injected: list[str] = field(default_factory=list)  # item ids
    memory_written: list[str] = field(default_factory=list)
    memory_blocked: list[str] = field(default_factory=list)  # reasons
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    llm_seconds: float = 0.0  # of ``seconds``, spent waiting on the model (incl. retries' waits)
    used: RecallUsage | None = None  # memory and recall of the turn's first request (for "used: …")
    context: Any = None  # core.context.compaction.ContextFigures of the latest request (tokens, not sent)


@dataclass
class TurnStarted:
    turn_id: str
    user_message: Message


@dataclass
class TextDelta:
    text: str


@dataclass
class ReasoningDelta:
    """The model's thinking as it streams (``reasoning_content`` / ``reasoning``): shown, not the reply."""

    text: str


@dataclass
class ToolCallStarted:
    call: ToolCall


@dataclass
class ToolCallFinished:
    call: ToolCall
    output: str
    ok: bool
    denied: bool = False


@dataclass
class ApprovalRequested:
    """Answer with ``request.future.set_result(True/False)``."""

    call: ToolCall
    summary: str  # the exact command / action, shown verbatim
    risk: Risk
    future: asyncio.Future[bool]


@dataclass
class MemoryChanged:
    """The turn wrote, blocked, offered or queued a memory item."""

    action: Literal["written", "blocked", "offered", "pending"]
    result: WriteResult
    text: str  # what was proposed, for display


@dataclass
class PersistWarning:
    """Writing history failed; the message is held and the write retried."""

    text: str


@dataclass
class RetryScheduled:
    """The LLM call failed transiently; it is retried after ``delay`` seconds."""

    attempt: int  # 1 = first retry
    delay: float
    reason: str  # the user-facing failure message


@dataclass
class RequestFallback:
    """The endpoint refused a request option; the request was sent again without it.

    Yielded once per endpoint and model: the fallback is remembered
    (:mod:`agenttui.agent.request_options`). ``text`` says what changed, in words.
    """

    option: Literal["stream_options", "tools"]
    text: str


@dataclass
class TurnFinished:
    stop_reason: StopReason
    trace: Trace
    reply: Message | None


@dataclass
class TurnFailed:
    """The turn failed; ``incomplete``: the provider did not finish the reply (``error`` says why)."""

    stop_reason: StopReason
    error: str  # a clear, user-facing message
    trace: Trace
    partial: Message | None  # the partial reply, kept and marked incomplete
    retryable: bool = True


AgentEvent = (
    TurnStarted | TextDelta | ReasoningDelta | ToolCallStarted | ToolCallFinished | ApprovalRequested
    | MemoryChanged | PersistWarning | RetryScheduled | RequestFallback | TurnFinished | TurnFailed
)
