"""History search tool (A3, H6): full-text search over the profile's messages.

Results carry the conversation title, date, role and the store's snippet
(matches marked «like this»); the model can quote them, not open the whole
conversation -- that stays bounded by design.
"""

from __future__ import annotations

from typing import Any

from agenttui.agent.tools import ToolContext, ToolOutcome, ToolSpec

MAX_HITS = 20


def specs(settings: Any) -> list[ToolSpec]:
    return [
        ToolSpec(
            name="search_history",
            description=(
                "Full-text search over earlier conversations of this profile. Returns "
                "matching message snippets with conversation title, date and role."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "query": {"type": "string", "minLength": 1,
                              "description": "Words to look for (all must match)."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": MAX_HITS,
                              "default": 5},
                    "this_conversation_only": {"type": "boolean", "default": False},
                },
                "required": ["query"],
                "additionalProperties": False,
            },
            run=search_history,
        )
    ]


def search_history(context: ToolContext, args: dict[str, Any]) -> ToolOutcome:
    scope = context.conversation_id if args["this_conversation_only"] else None
    hits = context.services.history.search(args["query"], limit=args["limit"],
                                           conversation_id=scope)
    if not hits:
        return ToolOutcome(f"no messages match {args['query']!r}")
    lines = [
        f"- [{hit.conversation_title or 'untitled'} · {hit.created:%Y-%m-%d} · {hit.role} · "
        f"message {hit.message_id}] {' '.join(hit.snippet.split())}"
        for hit in hits
    ]
    text = "\n".join(lines)
    if len(text) > context.max_output:
        text = text[: context.max_output] + "\n[… more omitted]"
    return ToolOutcome(text)
