"""Messages as SQLite rows: the column list, timestamps, and the ``meta`` column (schema v5).

Shared by the store (:mod:`agenttui.core.history.store`) and recall's queries
(:mod:`agenttui.core.history.recall_queries`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from agenttui.core.models import TOOL_STATUSES, Message, ToolCall
from agenttui.core.well_formed import well_formed


def to_ts(moment: datetime) -> str:
    """Fixed-width ISO 8601 UTC (always with microseconds) so text order = time order."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def from_ts(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except (ValueError, TypeError):  # a damaged row: its text still shows, dated 1970
        return UNREADABLE_TIME
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


#: The time shown for a row whose stored time cannot be read (a damaged file):
#: losing the date is better than losing the conversation list.
UNREADABLE_TIME = datetime(1970, 1, 1, tzinfo=UTC)


MESSAGE_COLUMNS = (
    "id, conversation_id, role, content, tool_calls, tool_call_id, name, "
    "image_b64, image_mime, turn_id, created, tokens, incomplete, meta, parent_id"
)


def message_from_row(row: Sequence[Any]) -> Message:
    (mid, cid, role, content, tool_calls, tool_call_id, name,
     image_b64, image_mime, turn_id, created, tokens, incomplete, meta, parent_id) = row
    calls: list[ToolCall] = []
    if tool_calls:
        with contextlib.suppress(ValueError, TypeError, KeyError):
            calls = [ToolCall(id=c["id"], name=c["name"], arguments=c["arguments"],
                              extra=c.get("extra") or {})
                     for c in json.loads(tool_calls)]
    message = Message(
        role=role, content=content, tool_calls=calls, tool_call_id=tool_call_id,
        name=name, image_b64=image_b64, image_mime=image_mime, id=mid,
        conversation_id=cid, turn_id=turn_id, created=from_ts(created),
        tokens=tokens, incomplete=bool(incomplete), parent_id=parent_id,
    )
    if meta:
        apply_meta(message, meta)
    return message


def message_meta(message: Message) -> str | None:
    """The ``meta`` column of ``message`` (schema v5), or None when it has nothing to keep."""
    meta: dict[str, Any] = {}
    if message.incomplete_reason:
        meta["incomplete_reason"] = message.incomplete_reason
    if message.provider_fields:
        meta["provider"] = message.provider_fields
    if message.reasoning:
        meta["reasoning"] = message.reasoning
    if message.cut_tool_calls:
        meta["cut_tool_calls"] = message.cut_tool_calls
    if message.summary_of:
        meta["summary_of"] = list(message.summary_of)
    if message.tool_status:
        meta["tool_status"] = message.tool_status
    # well-formed: a provider field with half a surrogate pair would fail the INSERT
    return well_formed(json.dumps(meta, ensure_ascii=False)) if meta else None


def apply_meta(message: Message, meta: str) -> None:
    """Fill ``message`` from a stored ``meta``; an unreadable one is ignored (the text is kept)."""
    with contextlib.suppress(ValueError, TypeError):
        data = json.loads(meta)
        if isinstance(data, dict):
            message.incomplete_reason = data.get("incomplete_reason") or None
            provider = data.get("provider")
            message.provider_fields = provider if isinstance(provider, dict) else {}
            message.reasoning = data.get("reasoning") or None
            cut = data.get("cut_tool_calls")
            message.cut_tool_calls = cut if isinstance(cut, list) else []
            span = data.get("summary_of")
            if isinstance(span, list) and len(span) == 2 and all(isinstance(i, int) for i in span):
                message.summary_of = (span[0], span[1])
            status = data.get("tool_status")
            message.tool_status = status if status in TOOL_STATUSES else None
