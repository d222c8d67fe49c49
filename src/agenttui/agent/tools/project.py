"""Project memory tools (docs/memory.md): read learnings, append decision/learning, update context.

Learnings are loaded on demand (they stay out of the system prompt);
decisions and learnings are appended as dated entries; ``update_context``
rewrites ``context.md`` whole (its previous text is in the prompt the model
just saw, so it can carry over what still holds). ProjectMemory redacts
secrets and writes atomically under a lock.
"""

from __future__ import annotations

from typing import Any

from agenttui.agent.tools.spec import ToolContext, ToolOutcome, ToolSpec

MAX_TITLE = 200
MAX_BODY = 8_000
MAX_CONTEXT = 20_000

_ENTRY = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "minLength": 1, "maxLength": MAX_TITLE},
        "body": {"type": "string", "maxLength": MAX_BODY, "default": ""},
    },
    "required": ["title"],
    "additionalProperties": False,
}


def specs(settings: Any) -> list[ToolSpec]:
    return [
        ToolSpec(
            name="read_learnings",
            description="Read the project's learnings.md (dated patterns and lessons).",
            parameters={"type": "object", "properties": {}, "additionalProperties": False},
            run=read_learnings,
        ),
        ToolSpec(
            name="append_decision",
            description="Append a dated entry to the project's decision log (decisions.md).",
            parameters=_ENTRY,
            run=append_decision,
        ),
        ToolSpec(
            name="append_learning",
            description="Append a dated entry to the project's learnings.md.",
            parameters=_ENTRY,
            run=append_learning,
        ),
        ToolSpec(
            name="update_context",
            description=(
                "Rewrite the project's context.md (current state, active focus, blockers, "
                "next steps). Replaces the whole file: include what still holds."
            ),
            parameters={
                "type": "object",
                "properties": {"text": {"type": "string", "minLength": 1,
                                        "maxLength": MAX_CONTEXT}},
                "required": ["text"],
                "additionalProperties": False,
            },
            run=update_context,
        ),
    ]


def read_learnings(context: ToolContext, args: dict[str, Any]) -> ToolOutcome:
    text = context.services.project.learnings().strip()
    if not text:
        return ToolOutcome("learnings.md is empty")
    if len(text) > context.max_output:  # newest entries are at the end: keep the tail
        text = "[… older entries omitted]\n" + text[-context.max_output :]
    return ToolOutcome(text)


def append_decision(context: ToolContext, args: dict[str, Any]) -> ToolOutcome:
    context.services.project.append_decision(args["title"], args["body"])
    return ToolOutcome(f"decision recorded: {args['title']}")


def append_learning(context: ToolContext, args: dict[str, Any]) -> ToolOutcome:
    context.services.project.append_learning(args["title"], args["body"])
    return ToolOutcome(f"learning recorded: {args['title']}")


def update_context(context: ToolContext, args: dict[str, Any]) -> ToolOutcome:
    context.services.project.write_context(args["text"])
    return ToolOutcome(f"context.md updated ({len(args['text'])} characters)")
