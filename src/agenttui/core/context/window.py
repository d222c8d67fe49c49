"""The message window (docs/agent.md#what-a-request-holds): which stored messages go into a request.

The unit of selection is a *group*: an assistant message with ``tool_calls``
together with the tool results answering it, or any other single message. A
window is a run of whole groups from the end, so it never starts with an
orphaned tool result and never holds a ``tool_calls`` message without all of
its results (the API rejects both).

Repairs made while grouping (a crash or a failed write can leave history
ragged): a tool result with no matching call before it is dropped; a
``tool_calls`` message missing any of its results loses its calls (its text,
if any, stays as a plain assistant message) and its partial results go too.

Collapsing (the "completed steps" of an agent turn): tool groups of turns other
than the current one are left out, keeping each turn's user message and
final assistant text. "Current" means ``turn_id == current_turn_id`` when
one is given, otherwise anything after the last user message.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from agenttui.core.models import Message
from agenttui.core.tokens import message_tokens

Group = list[Message]


def group_messages(messages: Sequence[Message]) -> list[Group]:
    """Split into whole units, repairing orphans (see module doc)."""
    groups: list[Group] = []
    i, n = 0, len(messages)
    while i < n:
        message = messages[i]
        if message.role == "tool":  # orphan: its call is not in this slice
            i += 1
            continue
        if message.role != "assistant" or not message.tool_calls:
            groups.append([message])
            i += 1
            continue
        wanted = {call.id for call in message.tool_calls}
        results: list[Message] = []
        j = i + 1
        while j < n and messages[j].role == "tool":
            if messages[j].tool_call_id in wanted and all(
                r.tool_call_id != messages[j].tool_call_id for r in results
            ):
                results.append(messages[j])
            j += 1
        if {r.tool_call_id for r in results} == wanted:
            groups.append([message, *results])
        elif message.content and message.content.strip():
            groups.append([dataclasses.replace(message, tool_calls=[])])
        i = j
    return groups


def is_tool_group(group: Group) -> bool:
    return bool(group[0].tool_calls)


def collapse_old_tool_steps(groups: list[Group], current_turn_id: str | None = None) -> list[Group]:
    """Drop tool groups that belong to earlier turns."""
    last_user = max((k for k, g in enumerate(groups) if g[0].role == "user"), default=-1)
    kept = []
    for index, group in enumerate(groups):
        if is_tool_group(group):
            turn = group[0].turn_id
            current = turn == current_turn_id if current_turn_id is not None else index > last_user
            if not current:
                continue
        kept.append(group)
    return kept


def select_window(
    messages: Sequence[Message],
    count: int = 30,
    token_budget: int = 0,
    collapse_tool_steps: bool = True,
    current_turn_id: str | None = None,
) -> list[Message]:
    """The latest whole groups within ``count`` messages and ``token_budget`` tokens.

    Either limit may be 0 (= no limit); ``count=30, token_budget=0`` is the
    default "last 30 messages". Groups are taken newest first and the
    selection stops at the first group that does not fit, so the window is
    contiguous. Never dropped, even when alone they exceed a limit: the groups
    of the current turn (trailing groups with ``turn_id == current_turn_id``)
    or, without a turn id, the newest group -- a turn in progress must not
    lose its own user message or tool results.
    """
    groups = group_messages(messages)
    if collapse_tool_steps:
        groups = collapse_old_tool_steps(groups, current_turn_id)
    mandatory = 1 if groups else 0
    if current_turn_id is not None:
        mandatory = 0
        for group in reversed(groups):
            if group[0].turn_id != current_turn_id:
                break
            mandatory += 1
    picked: list[Group] = []
    used_count = used_tokens = 0
    for index, group in enumerate(reversed(groups)):
        size = len(group)
        tokens = sum(message_tokens(m) for m in group) if token_budget > 0 else 0
        over = (count > 0 and used_count + size > count) or (
            token_budget > 0 and used_tokens + tokens > token_budget
        )
        if over and index >= mandatory:
            break
        picked.append(group)
        used_count += size
        used_tokens += tokens
    return [m for group in reversed(picked) for m in group]
