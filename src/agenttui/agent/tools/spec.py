"""What a tool is and what it gets (docs/agent.md#tools): the types every tool module shares.

The tool modules (``tools.memory``, ``tools.files``, ``tools.shell``, ...) and the MCP
bridge build :class:`ToolSpec` values from these; :mod:`agenttui.agent.tools.registry` (the
registry) collects them. Kept apart from the registry so the tool modules import
only this, and the registry imports them: no import cycle.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agenttui.agent.events import Risk
from agenttui.core.models import Origin, WriteResult

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

__all__ = ["TRUSTED_OUTPUT_TOOLS", "Approval", "Runner", "ToolContext", "ToolOutcome", "ToolSpec"]


@dataclass
class ToolOutcome:
    output: str
    ok: bool = True
    memory: list[WriteResult] = field(default_factory=list)  # for the trace / MemoryChanged


@dataclass
class ToolContext:
    """What a tool may use: the services and where the call came from."""

    services: Services
    conversation_id: str | None = None
    untrusted_reads: list[str] = field(default_factory=list)  # tools run this turn that read untrusted text

    @property
    def settings(self) -> Any:
        return self.services.settings

    @property
    def max_output(self) -> int:
        return max(200, int(self.settings.agent.max_tool_output))

    def origin(self) -> Origin:
        return Origin(profile=self.services.profile_name,
                      conversation_id=self.conversation_id)


# Tools whose output is agenttui's own memory store, not outside text.
TRUSTED_OUTPUT_TOOLS = frozenset({"remember", "forget", "recall"})

Approval = tuple[bool, str, Risk]
Runner = Callable[[ToolContext, dict[str, Any]], "ToolOutcome | Awaitable[ToolOutcome]"]


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]
    run: Runner
    approval: Callable[[ToolContext, dict[str, Any]], Approval] | None = None
    check_arguments: bool = True  # MCP tools: the server checks its own (full JSON Schema)

    def schema(self) -> dict[str, Any]:
        return {"type": "function",
                "function": {"name": self.name, "description": self.description,
                             "parameters": self.parameters}}
