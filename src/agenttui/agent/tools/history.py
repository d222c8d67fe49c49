"""History search tool (docs/agent.md, recall): the profile's memory, searched like the prompt is.

One ranking with context assembly (:mod:`agenttui.core.recall.retrieval`): any of
the words may match, best first, over every conversation (archived too),
notes and facts (archived too) and project memory. Each result carries its
date and source; a past message comes with its neighbouring turn. The model
can quote them, not open a whole conversation -- that stays bounded by design.
"""

from __future__ import annotations

from typing import Any

from agenttui.agent.tools.spec import ToolContext, ToolOutcome, ToolSpec

MAX_HITS = 20


def specs(settings: Any) -> list[ToolSpec]:
    return [
        ToolSpec(
            name="search_history",
            description=(
                "Search everything remembered about the user: earlier conversations of this "
                "profile, notes and facts (archived ones too) and project notes. Any of the "
                "words may match; best matches first, each with its date and source. Time "
                "words ('last week', 'in March') rank that span first."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "query": {"type": "string", "minLength": 1,
                              "description": "What to look for, in words (a question works)."},
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
    from agenttui.core.recall.retrieval import RecallRequest, recall, render_snippet

    services = context.services
    only_here = bool(args["this_conversation_only"])
    request = RecallRequest(
        query=args["query"], limit=args["limit"],
        sources=("message",) if only_here else ("message", "note", "fact", "project"),
        conversation_id=context.conversation_id if only_here else None,
    )
    found = recall(request, history=services.history,
                   memory=None if only_here else services.memory,
                   project=None if only_here else services.project)
    if not found.snippets:
        return ToolOutcome(f"nothing remembered matches {args['query']!r}")
    text = "\n\n".join(render_snippet(s) for s in found.snippets)
    if len(text) > context.max_output:
        text = text[: context.max_output] + "\n[… more omitted]"
    return ToolOutcome(text)
