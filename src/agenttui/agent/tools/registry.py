"""The tool registry (docs/agent.md#tools, docs/memory.md): schemas, approval policy, execution.

::

    registry = ToolRegistry(services)          # tools enabled in settings.agent.tools
    registry.schemas()                         # the `tools` parameter of the request
    registry.needs_approval(call)              # (needed, summary shown verbatim, risk)
    outcome = await registry.execute(call)     # ToolOutcome(output, ok, memory)

Decisions:

* **Approval is not decided here.** The registry only says whether a call
  needs it (``run_shell`` always; ``forget`` when memory consent is "ask") and
  what to show: the exact command, never a paraphrase. The caller (UI
  dialog, ``ask --yes``, a test) answers; the registry is approver-independent.
* **Never raises.** Unknown or disabled tools, invalid JSON, schema
  violations and tool failures all come back as ``ok=False`` with a message
  the model can act on. Only cancellation propagates. An unexpected exception
  is logged with its traceback and reported to the model by type and message.
* **Blocking work off the event loop.** File, memory and database tools are
  synchronous and run in a worker thread, so the UI keeps drawing while a
  lock is awaited. ``run_shell`` is natively async.
* **Per-profile tools.** ``settings.agent.tools`` (after the profile's
  overrides) lists what is enabled; unknown names are ignored and listed in
  :attr:`ToolRegistry.unknown` so ``doctor``/settings can point them out.
* **Output size.** Each tool bounds its own output at
  ``settings.agent.max_tool_output`` characters (the loop truncates again).
* **Untrusted reads.** Every tool but agenttui's own memory tools brings in
  text the user did not write (files, command output, history, project files,
  MCP or web tools). Once one has run in a turn, :attr:`ToolContext.untrusted_reads`
  names it and a ``remember`` in the same turn waits for the user's yes whatever
  ``memory.model_consent`` says: an injection the screen missed cannot write
  itself into every later prompt. A turn is a registry's life, or (a registry
  reused across turns) until the loop sets the next ``conversation_id``.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from typing import TYPE_CHECKING, Any

from agenttui.agent.tools import files as tool_files
from agenttui.agent.tools import history as tool_history
from agenttui.agent.tools import memory as tool_memory
from agenttui.agent.tools import project as tool_project
from agenttui.agent.tools import shell as tool_shell
from agenttui.agent.tools.schema import ArgumentError, parse_arguments, validate
from agenttui.agent.tools.spec import TRUSTED_OUTPUT_TOOLS, Approval, ToolContext, ToolOutcome, ToolSpec
from agenttui.core.models import ToolCall

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

__all__ = ["ToolRegistry", "all_tools", "summarize"]

log = logging.getLogger(__name__)


def all_tools(settings: Any = None) -> dict[str, ToolSpec]:
    """Every tool we have, by name (schemas may depend on ``settings``)."""
    specs: list[ToolSpec] = [
        *tool_memory.specs(settings),
        *tool_history.specs(settings),
        *tool_project.specs(settings),
        *tool_files.specs(settings),
        *tool_shell.specs(settings),
    ]
    return {spec.name: spec for spec in specs}


def summarize(name: str, arguments: dict[str, Any]) -> str:
    return f"{name} {json.dumps(arguments, ensure_ascii=False, sort_keys=True)}"


class ToolRegistry:
    def __init__(self, services: Services, conversation_id: str | None = None,
                 enabled: list[str] | None = None) -> None:
        self.services = services
        self.context = ToolContext(services, conversation_id)
        available = all_tools(services.settings)
        wanted = list(services.settings.agent.tools if enabled is None else enabled)
        self.unknown = [name for name in wanted if name not in available]
        self.tools: dict[str, ToolSpec] = {
            name: available[name] for name in dict.fromkeys(wanted) if name in available
        }
        manager = services.session.mcp  # agenttui/mcp/manager.py attaches it
        if manager is not None:  # connected MCP servers' tools (mcp__<server>__<tool>)
            for spec in manager.tool_specs():
                self.tools.setdefault(spec.name, spec)

    @property
    def conversation_id(self) -> str | None:
        return self.context.conversation_id

    @conversation_id.setter
    def conversation_id(self, value: str | None) -> None:
        self.context.conversation_id = value
        self.context.untrusted_reads = []  # the loop sets it at the start of every turn

    def names(self) -> list[str]:
        return list(self.tools)

    def schemas(self) -> list[dict[str, Any]]:
        """The OpenAI ``tools`` parameter: enabled tools only, in settings order."""
        return [spec.schema() for spec in self.tools.values()]

    def _checked(self, call: ToolCall) -> tuple[ToolSpec, dict[str, Any]]:
        spec = self.tools.get(call.name)
        if spec is None:
            available = ", ".join(self.tools) or "none"
            raise ArgumentError(f"unknown or disabled tool '{call.name}' (available: {available})")
        arguments = parse_arguments(call.arguments)
        return spec, validate(spec.parameters, arguments) if spec.check_arguments else arguments

    def needs_approval(self, call: ToolCall) -> Approval:
        """(needed, summary, risk). Invalid calls need none: they will not run."""
        try:
            spec, arguments = self._checked(call)
        except ArgumentError:
            return False, f"{call.name} {call.arguments}", "low"
        if spec.approval is None:
            return False, summarize(spec.name, arguments), "low"
        return spec.approval(self.context, arguments)

    async def execute(self, call: ToolCall) -> ToolOutcome:
        try:
            spec, arguments = self._checked(call)
        except ArgumentError as error:
            return ToolOutcome(f"error: {error}", ok=False)
        if spec.name not in TRUSTED_OUTPUT_TOOLS:  # before running: a failure's message may quote it too
            self.context.untrusted_reads.append(spec.name)
        outcome: ToolOutcome
        try:
            if inspect.iscoroutinefunction(spec.run):
                outcome = await spec.run(self.context, arguments)
            else:
                done = await asyncio.to_thread(spec.run, self.context, arguments)
                if not isinstance(done, ToolOutcome):  # a plain function returns its outcome
                    raise TypeError(f"{spec.name} returned {type(done).__name__}, not a ToolOutcome")
                outcome = done
        except ArgumentError as error:
            return ToolOutcome(f"error: {error}", ok=False)
        except Exception as error:  # a tool failure goes back to the model, not up the stack
            log.exception("tool %s failed", call.name)
            return ToolOutcome(f"error: {call.name} failed: {type(error).__name__}: {error}",
                               ok=False)
        return outcome
