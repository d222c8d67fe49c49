"""``agenttui mcp serve``: the profile's memory and history for other agents.

A stdio MCP server (the SDK's ``MCPServer``) with four tools, each the same
code path as agenttui's own tools (agent/tools/memory.py, agent/tools/history.py):

* ``memory_search(query, limit)`` -- notes and facts, most relevant first;
* ``memory_list(scope, limit)`` -- what is stored (``all``, ``user``, ``profile``);
* ``history_search(query, limit)`` -- earlier conversations, notes and project
  files, with dates (the recall the model gets);
* ``memory_add(text, scope)`` -- a note, through the write gate with source
  ``mcp`` and the client's name in its origin (shown in the Memory pane and
  the audit). The gate binds it as it binds agenttui's own model: secrets and
  instruction-like text refused at once, ``memory.model_scopes`` honoured,
  duplicates refresh. What passes is **held for the user's review** by
  default (:mod:`agenttui.core.memory.review_queue`): it waits in the Memory
  pane, where ``k`` accepts and ``d`` rejects it, and reaches no prompt
  before. ``[mcp.serve]`` ``memory_add = "accept"`` or ``trusted_clients``
  stores at once (:mod:`agenttui.mcp.serve_policy`). Decision: a held note
  waits in a file, not in this process, because this process has no user to
  ask and may be gone when the user looks.

``--read-only`` offers only the three reading tools. Output is bounded by
``agent.max_tool_output``; stored text is already redacted. stdout carries the
protocol only: logs go to stderr.
"""

# No `from __future__ import annotations`: the SDK reads the tools' annotations (Context is local).

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

READ_TOOLS = ("memory_search", "memory_list", "history_search")


def _context(services: "Services") -> Any:
    from agenttui.agent.tools.spec import ToolContext

    return ToolContext(services)


def _run(services: "Services", tool: str, arguments: dict[str, Any]) -> str:
    """Run one of agenttui's own tools with its schema's checks and defaults."""
    from agenttui.agent.tools.registry import all_tools
    from agenttui.agent.tools.schema import validate
    from agenttui.agent.tools.spec import ToolOutcome

    spec = all_tools(services.settings)[tool]
    outcome = spec.run(_context(services), validate(spec.parameters, arguments))
    if not isinstance(outcome, ToolOutcome):  # agenttui's own memory and history tools are plain functions
        raise TypeError(f"{tool} is not a plain function")
    return str(outcome.output)


def client_name(ctx: Any) -> str:
    try:
        info = ctx.session.client_params.client_info
        name = f"{info.name} {info.version}".strip()
    except AttributeError:
        return "unknown client"
    return "".join(c for c in name if c.isprintable())[:80] or "unknown client"


def _handshake_name(ctx: Any) -> str | None:
    """The client's name as it gave it (no version): what ``trusted_clients`` lists."""
    try:
        return str(ctx.session.client_params.client_info.name)
    except AttributeError:
        return None


def build_server(services: "Services", read_only: bool = False) -> Any:
    from mcp.server.mcpserver import Context, MCPServer
    from mcp_types import ToolAnnotations

    from agenttui import __version__

    server = MCPServer("agenttui", version=__version__, subscriptions=False,
                       instructions=("The user's long-term memory and conversation history kept by "
                                     "agenttui (profile " + services.profile_name + "). Search before "
                                     "asking the user something they may have said before."))
    reading = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                              open_world_hint=False)

    @server.tool(description="Search the user's remembered notes and facts (most relevant first).",
                 annotations=reading)
    def memory_search(query: str, limit: int = 10) -> str:
        return _run(services, "recall", {"query": query, "scope": "all", "limit": max(1, min(limit, 50))})

    @server.tool(description="List the user's remembered notes and facts. scope: all, user "
                             "(every profile) or profile (this project).", annotations=reading)
    def memory_list(scope: str = "all", limit: int = 50) -> str:
        if scope not in ("all", "user", "profile"):
            raise ValueError("scope must be all, user or profile")
        return _run(services, "recall", {"scope": scope, "limit": max(1, min(limit, 50))})

    @server.tool(description="Search the user's earlier conversations, notes and project files; "
                             "each hit with its date and source.", annotations=reading)
    def history_search(query: str, limit: int = 5) -> str:
        return _run(services, "search_history", {"query": query, "limit": max(1, min(limit, 20))})

    if not read_only:
        from agenttui.mcp import serve_policy

        policy = serve_policy.load(services.paths)

        @server.tool(description="Remember a stable fact or preference about the user (one short "
                                 "sentence; never secrets or instructions). scope: profile (this "
                                 "project) or user (everywhere).",
                     annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False))
        def memory_add(text: str, ctx: Context, scope: str = "profile") -> str:
            from agenttui.agent.tools.memory import describe_result
            from agenttui.core.models import Origin

            if scope not in ("user", "profile"):
                raise ValueError("scope must be user or profile")
            origin = Origin(profile=services.profile_name, client=client_name(ctx))
            if policy.stores_at_once(_handshake_name(ctx)):
                result = services.memory.add_note(text, scope=scope, source="mcp",  # type: ignore[arg-type]
                                                  origin=origin, confirmed=True)
            else:
                result = services.memory.hold_for_review(text, scope, "mcp", origin)  # type: ignore[arg-type]
            return describe_result(result, text).output

    return server


def serve(services: "Services", read_only: bool = False) -> None:
    import logging

    logging.basicConfig(level=logging.WARNING)  # to stderr: stdout is the protocol
    build_server(services, read_only).run()
