"""Export one conversation as Markdown or JSON (docs/storage.md#history-database).

The text in the database is already redacted; every field is redacted
again here (defence in depth: rules improve, and an export leaves the app).
Messages arrive as an iterator (the store pages them), so exporting a long
conversation never runs one huge query.

Markdown is for people: attached images become a placeholder (the base64
would drown the text), and it shows the active branch only -- the
conversation as the chat shows it. JSON is for machines and round trips: every
field, images included, with a ``format`` tag and version, and every branch
(schema v6/v7, conversations as trees): each message carries its ``parent_id`` (null for a root; ids are
the store's, parents always listed before their children) and the conversation
its ``active_leaf_id``. Both are additions to version 1: a reader that does
not know them sees the messages in id order, as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from agenttui.core.models import Conversation, Message, to_iso
from agenttui.security import redact_secrets

EXPORT_FORMAT = "agenttui.conversation"
EXPORT_VERSION = 1

_ROLE_HEADINGS = {"system": "System", "user": "User", "assistant": "Assistant", "tool": "Tool result"}


Redact = Callable[[str | None], str | None]


def _redactor(patterns: Sequence[str]) -> Redact:
    def redact(text: str | None) -> str | None:
        return redact_secrets(text, patterns) if text else text

    return redact


def _fence(text: str, info: str = "") -> str:
    """A code fence longer than any backtick run inside ``text``."""
    longest = run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{info}\n{text}\n{ticks}"


def conversation_to_markdown(conversation: Conversation, messages: Iterable[Message],
                             redact_patterns: Sequence[str] = ()) -> str:
    redact = _redactor(redact_patterns)
    title = redact(conversation.title) or "Untitled conversation"
    lines = [
        f"# {title}",
        "",
        f"- id: `{conversation.id}`",
        f"- created: {to_iso(conversation.created)}",
        f"- updated: {to_iso(conversation.updated)}",
        f"- model: {conversation.model or '—'}",
        f"- archived: {'yes' if conversation.archived else 'no'}",
        f"- messages: {conversation.message_count}",
        "",
    ]
    counted = len(lines) - 2  # the "messages" line: says so when other branches hold more
    shown = 0
    for message in messages:
        shown += 1
        heading = _ROLE_HEADINGS.get(message.role, message.role)
        if message.role == "tool" and message.name:
            heading += f" `{redact(message.name)}`"
        flags = " (incomplete)" if message.incomplete else ""
        if message.role == "tool" and message.tool_status and message.tool_status != "ok":
            flags += f" ({message.tool_status})"  # denied, failed, not run, stopped
        lines += [f"## {heading}{flags}", "", f"<sub>#{message.id} · {to_iso(message.created)}</sub>", ""]
        if message.image_b64:
            size = len(message.image_b64) * 3 // 4
            lines += [f"*[image: {message.image_mime or 'image'}, about {size} bytes]*", ""]
        if message.role == "tool":
            if message.content:
                lines += [_fence(redact(message.content) or ""), ""]
        elif message.content:
            lines += [redact(message.content) or "", ""]
        for call in message.tool_calls:
            lines += [f"**Tool call** `{call.name}` (`{call.id}`):", "",
                      _fence(redact(call.arguments) or "", "json"), ""]
    if shown < conversation.message_count:
        lines[counted] = (f"- messages: {shown} of {conversation.message_count} (the active branch; "
                          "`agenttui history export --format json` keeps every branch)")
    return "\n".join(lines).rstrip("\n") + "\n"


def _message_dict(message: Message, redact: Redact) -> dict[str, Any]:
    return {
        "id": message.id,
        "parent_id": message.parent_id,
        "role": message.role,
        "content": redact(message.content),
        "tool_calls": [{"id": c.id, "name": c.name, "arguments": redact(c.arguments),
                        **({"extra": c.extra} if c.extra else {})}  # e.g. Gemini's thought signature
                       for c in message.tool_calls],
        "tool_call_id": message.tool_call_id,
        "name": redact(message.name),
        "image_b64": message.image_b64,
        "image_mime": message.image_mime,
        "turn_id": message.turn_id,
        "created": to_iso(message.created),
        "tokens": message.tokens,
        "incomplete": message.incomplete,
        # schema v5's ``meta``, only when set: why a reply is incomplete, provider fields the
        # API needs back, saved reasoning, tool calls cut mid-arguments
        **({"incomplete_reason": message.incomplete_reason} if message.incomplete_reason else {}),
        **({"provider_fields": message.provider_fields} if message.provider_fields else {}),
        **({"reasoning": redact(message.reasoning)} if message.reasoning else {}),
        **({"cut_tool_calls": message.cut_tool_calls} if message.cut_tool_calls else {}),
        # a /compact summary names the first and last message (ids above) it replaces
        **({"summary_of": list(message.summary_of)} if message.summary_of else {}),
        # a tool result's outcome (ok, failed, denied, not run, stopped); absent: it ran, or it
        # was stored before outcomes were kept
        **({"tool_status": message.tool_status} if message.tool_status else {}),
    }


def message_json(message: Message, redact_patterns: Sequence[str] = ()) -> dict[str, Any]:
    """One message as the JSON export writes it (``history show --json`` too)."""
    return _message_dict(message, _redactor(redact_patterns))


def conversation_to_json(conversation: Conversation, messages: Iterable[Message],
                         redact_patterns: Sequence[str] = ()) -> str:
    redact = _redactor(redact_patterns)
    document = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "conversation": {
            "id": conversation.id,
            "title": redact(conversation.title),
            "created": to_iso(conversation.created),
            "updated": to_iso(conversation.updated),
            "model": conversation.model,
            "archived": conversation.archived,
            "message_count": conversation.message_count,
            "active_leaf_id": conversation.active_leaf_id,
        },
        "messages": [_message_dict(message, redact) for message in messages],
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def write_export(text: str, target: Path | None, exports: Path, stem: str, fmt: str) -> Path:
    """Write ``text`` atomically to ``target``, or (None) to a new file in ``exports``
    named ``<stem>-<timestamp>[-n].<fmt>``: a second export never overwrites the first.
    Returns where it went; an ``OSError`` propagates (the caller names the path)."""
    from agenttui.core.files import atomic_write_text, ensure_dir, timestamp_slug

    if target is None:
        ensure_dir(exports)
        stamp, n = timestamp_slug(), 1
        target = exports / f"{stem}-{stamp}.{fmt}"
        while target.exists():
            n += 1
            target = exports / f"{stem}-{stamp}-{n}.{fmt}"
    atomic_write_text(target, text)
    return target
