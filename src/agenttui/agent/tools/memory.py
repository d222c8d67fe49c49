"""Memory tools (docs/memory.md#consent): remember, forget, recall -- all through the MemoryStore.

``remember`` writes with ``source="model"``, so the one write gate
decides: injection-like text, secrets, non-allowlisted fact keys or scopes
are *blocked* and the tool answers ``blocked: <reason>`` (the model learns
why; the loop turns ``ToolOutcome.memory`` into a ``MemoryChanged`` and the
trace). With consent "ask" or a sensitive key the gate answers *pending*:
nothing is stored yet and the model is told it waits for the user.

``forget`` removes exactly one item (by id, or by a substring matching one
item); several matches are listed so the model can pick an id, never removed
in bulk. Pinned items are the user's to unpin, not the model's to delete.
With consent "ask" a forget needs the user's approval like a shell command.

What these tools hand the model passes the read screen
(:mod:`agenttui.core.memory.read_screen`) as the system prompt's memory does:
``recall`` leaves held items out (and says how many), secrets are masked, and
``forget`` names a held item by its id only. ``mcp serve`` answers other
agents with this same output.
"""

from __future__ import annotations

from typing import Any

from agenttui.agent.tools.schema import ArgumentError
from agenttui.agent.tools.spec import Approval, ToolContext, ToolOutcome, ToolSpec
from agenttui.core.context.prompt import rank_items, relevance
from agenttui.core.memory import read_screen
from agenttui.core.models import MemoryItem, WriteResult

MAX_RECALL = 50


def _scopes(settings: Any) -> list[str]:
    scopes = list(getattr(getattr(settings, "memory", None), "model_scopes", None) or [])
    return [s for s in scopes if s in ("user", "profile")] or ["user"]


def specs(settings: Any) -> list[ToolSpec]:
    scopes = _scopes(settings)
    return [
        ToolSpec(
            name="remember",
            description=(
                "Save a stable preference or fact about the user for future conversations. "
                "Give either `text` (a short note) or `key` + `value` (a fact, e.g. "
                "language = id). Never store secrets, one-off task details or instructions "
                "to yourself. The user may have to approve it first."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "text": {"type": "string", "minLength": 1,
                             "description": "The note, one sentence about the user."},
                    "key": {"type": "string", "minLength": 1,
                            "description": "Fact key (lower_snake_case), e.g. language."},
                    "value": {"type": "string", "minLength": 1, "description": "Fact value."},
                    "scope": {"type": "string", "enum": scopes, "default": scopes[0],
                              "description": "user = every profile; profile = this project only."},
                    "ttl_days": {"type": "integer", "minimum": 1, "maximum": 3650,
                                 "description": "Forget after this many days (optional)."},
                },
                "additionalProperties": False,
            },
            run=remember,
        ),
        ToolSpec(
            name="forget",
            description=(
                "Delete one remembered item: by `id` (from recall) or by `query`, a "
                "substring that matches exactly one item."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "id": {"type": "string", "minLength": 1},
                    "query": {"type": "string", "minLength": 1},
                },
                "additionalProperties": False,
            },
            run=forget,
            approval=forget_approval,
        ),
        ToolSpec(
            name="recall",
            description=(
                "Look up remembered notes and facts about the user, most relevant to "
                "`query` first (or the most recent without one). Returns ids for forget."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": MAX_RECALL,
                              "default": 10},
                    "scope": {"type": "string", "enum": ["all", "user", "profile"],
                              "default": "all"},
                },
                "additionalProperties": False,
            },
            run=recall,
        ),
    ]


def describe_result(result: WriteResult, proposed: str) -> ToolOutcome:
    """The tool output for one write-gate result (shared with extraction)."""
    if result.status == "rejected":
        return ToolOutcome(f"blocked: {result.reason or 'rejected by the memory policy'}",
                           ok=False, memory=[result])
    shown = result.item.display if result.item is not None else proposed
    if result.pending or result.status == "pending":
        return ToolOutcome(
            f"waiting for the user's approval: {shown!r} is not stored yet"
            f"{' (' + result.reason.rstrip('.') + ')' if result.reason else ''}. "
            "Do not propose it again in this conversation.",
            memory=[result],
        )
    verb = {"added": "remembered", "refreshed": "already remembered (refreshed)",
            "updated": "updated"}.get(result.status, result.status)
    item_id = f" [id {result.item.id}]" if result.item is not None else ""
    note = f" ({result.reason})" if result.reason else ""
    return ToolOutcome(f"{verb}{item_id}: {shown}{note}", memory=[result])


def remember(context: ToolContext, args: dict[str, Any]) -> ToolOutcome:
    text, key, value = args.get("text"), args.get("key"), args.get("value")
    if text is not None and (key is not None or value is not None):
        raise ArgumentError("give either 'text' (a note) or 'key' and 'value' (a fact), not both")
    if text is None and (key is None or value is None):
        raise ArgumentError("give 'text' (a note), or both 'key' and 'value' (a fact)")
    memory = context.services.memory
    common = dict(scope=args["scope"], source="model", origin=context.origin(),
                  ttl_days=args.get("ttl_days"), untrusted=bool(context.untrusted_reads))
    if text is not None:
        result = memory.add_note(text, **common)
        outcome = describe_result(result, text)
        if result.status == "rejected" and len(text) > context.settings.memory.max_note_chars:
            # Decision (recall issue): long text is refused as a note, not cut; the model is
            # pointed at project memory, which recall searches and which has no length limit.
            outcome.output += (" Save the gist as a short note, and keep the full text in project "
                               "memory with append_learning (searched on every turn).")
        return outcome
    result = memory.set_fact(str(key), str(value), **common)
    return describe_result(result, f"{key} = {value}")


def _line(context: ToolContext, item: MemoryItem) -> str:
    flags: list[str] = [item.kind, item.scope]
    if item.pinned:
        flags.append("pinned")
    return f"- [{item.id}] ({', '.join(flags)}) {_display(context, item)}"


def _display(context: ToolContext, item: MemoryItem) -> str:
    """The item as the model may read it (the read screen: masked, or held back)."""
    memory = context.services.memory
    return read_screen.for_model(item, memory.redact_patterns, memory.kept_hashes())


def _matches(context: ToolContext, args: dict[str, Any]) -> list[MemoryItem]:
    memory = context.services.memory
    if args.get("id"):
        item = memory.get(args["id"])
        return [item] if item is not None else []
    if args.get("query"):
        return memory.find(args["query"])
    raise ArgumentError("give 'id' or 'query'")


def forget_approval(context: ToolContext, args: dict[str, Any]) -> Approval:
    if context.settings.memory.model_consent != "ask":
        return False, f"forget {args}", "low"
    try:
        found = _matches(context, args)
    except ArgumentError:
        return False, "forget (invalid arguments)", "low"
    if len(found) != 1:
        return False, "forget (no single match: nothing will be removed)", "low"
    shown = read_screen.shown(found[0], context.services.memory.redact_patterns)  # the user sees it masked
    return True, f"Forget memory: {shown.display}", "medium"


def forget(context: ToolContext, args: dict[str, Any]) -> ToolOutcome:
    found = _matches(context, args)
    wanted = args.get("id") or args.get("query")
    if not found:
        return ToolOutcome(f"no memory item matches {wanted!r}; nothing was removed", ok=False)
    if len(found) > 1:
        listing = "\n".join(_line(context, i) for i in found[:20])
        return ToolOutcome(
            f"{len(found)} items match {wanted!r}; nothing was removed. "
            f"Call forget again with the id of the one to remove:\n{listing}", ok=False)
    item = found[0]
    if item.pinned:
        return ToolOutcome(f"{_display(context, item)!r} is pinned by the user; ask the user to unpin "
                           "or delete it. Nothing was removed.", ok=False)
    removed = context.services.memory.remove([item.id])
    if not removed:
        return ToolOutcome(f"{_display(context, item)!r} was already gone", ok=False)
    return ToolOutcome(f"forgot [id {item.id}]: {_display(context, item)}")


def recall(context: ToolContext, args: dict[str, Any]) -> ToolOutcome:
    memory = context.services.memory
    items = memory.items(args["scope"], include_expired=False)
    # screened where read: a hand edit, restore or import never passed the write gate
    items, held = read_screen.for_prompt(items, memory.redact_patterns, memory.kept_hashes())
    query = (args.get("query") or "").strip()
    if query:
        scores = relevance(items, query, 0.0)
        needle = query.casefold()
        items = [i for i in items if scores.get(i.id, 0.0) > 0 or needle in i.display.casefold()]
    aside = (f"\n({len(held)} item(s) held back: they read like instructions and wait for the "
             "user in the Memory pane)") if held else ""
    if not items:
        what = f" matches {query!r}" if query else " is stored"
        return ToolOutcome(f"no memory{what}{aside}")
    bias = float(context.settings.memory.preference_bias)
    ranked = rank_items(items, query, bias)[: args["limit"]]
    text = "\n".join(_line(context, i) for i in ranked)
    if len(text) > context.max_output:
        text = text[: context.max_output] + "\n[… more omitted]"
    return ToolOutcome(text + aside)
