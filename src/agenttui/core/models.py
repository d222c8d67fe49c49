"""Plain data shared by the core, the agent loop, the CLI and the UI.

Dataclasses only -- no I/O here. Times are timezone-aware UTC ``datetime``;
on disk they are ISO 8601 strings so the JSON stays readable by hand.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from agenttui.core.usage.message_usage import MessageUsage

Scope = Literal["user", "profile"]
SCOPES: tuple[Scope, ...] = ("user", "profile")
Source = Literal["explicit", "correction", "model", "extraction", "manual", "import", "mcp"]
# "mcp": memory_add of another agent through `agenttui mcp serve` (origin.client names it)
SOURCES: tuple[Source, ...] = ("explicit", "correction", "model", "extraction", "manual", "import", "mcp")
ItemKind = Literal["note", "fact"]
Role = Literal["system", "user", "assistant", "tool"]


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_id() -> str:
    return uuid.uuid4().hex


def to_iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).isoformat()


def from_iso(text: str | None) -> datetime | None:
    if not text:
        return None
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


# --------------------------------------------------------------------------
# Memory
# --------------------------------------------------------------------------
@dataclass
class Origin:
    """Where a memory item came from, where known."""

    profile: str | None = None
    conversation_id: str | None = None
    message_id: int | None = None
    client: str | None = None  # the MCP client that wrote it (source "mcp")


@dataclass
class MemoryItem:
    """A note (``text``) or a fact (``key`` -> ``value``)."""

    kind: ItemKind
    scope: Scope
    text: str = ""
    key: str | None = None
    value: str | None = None
    source: Source = "explicit"
    confidence: float = 1.0
    id: str = field(default_factory=new_id)
    created: datetime = field(default_factory=utcnow)
    updated: datetime = field(default_factory=utcnow)
    expires: datetime | None = None
    last_used: datetime | None = None
    use_count: int = 0
    pinned: bool = False
    origin: Origin = field(default_factory=Origin)

    @property
    def display(self) -> str:
        """One line for lists and prompts."""
        return f"{self.key} = {self.value}" if self.kind == "fact" else self.text

    def is_expired(self, now: datetime | None = None) -> bool:
        return self.expires is not None and self.expires <= (now or utcnow())

    def detached(self) -> MemoryItem:
        """A copy sharing nothing mutable with this item (the other fields are immutable values).

        Built from ``__dict__`` rather than ``dataclasses.replace``, which re-runs ``__init__``
        field by field: the memory store hands out copies of 2,000 items on every turn.
        """
        copy = object.__new__(MemoryItem)
        copy.__dict__.update(self.__dict__)
        origin = object.__new__(Origin)
        origin.__dict__.update(self.origin.__dict__)
        copy.origin = origin
        return copy

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "scope": self.scope,
        }
        if self.kind == "fact":
            data["key"] = self.key
            data["value"] = self.value
        else:
            data["text"] = self.text
        data.update(
            source=self.source,
            confidence=self.confidence,
            created=to_iso(self.created),
            updated=to_iso(self.updated),
            expires=to_iso(self.expires),
            last_used=to_iso(self.last_used),
            use_count=self.use_count,
            pinned=self.pinned,
            origin={
                "profile": self.origin.profile,
                "conversation_id": self.origin.conversation_id,
                "message_id": self.origin.message_id,
                **({"client": self.origin.client} if self.origin.client else {}),
            },
        )
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MemoryItem:
        """Parse one item; raises ``KeyError``/``ValueError``/``TypeError`` on bad data."""
        raw_kind = data.get("kind") or ("fact" if "key" in data else "note")
        if raw_kind not in ("note", "fact"):
            raise ValueError(f"unknown item kind {raw_kind!r}")
        kind: ItemKind = "fact" if raw_kind == "fact" else "note"
        scope = data["scope"]
        if scope not in SCOPES:
            raise ValueError(f"unknown scope {scope!r}")
        source = data.get("source", "import")
        if source not in SOURCES:
            raise ValueError(f"unknown source {source!r}")
        origin = data.get("origin") or {}
        item = cls(
            kind=kind,
            scope=scope,
            text=str(data.get("text", "")) if kind == "note" else "",
            key=str(data["key"]) if kind == "fact" else None,
            value=str(data.get("value", "")) if kind == "fact" else None,
            source=source,
            confidence=float(data.get("confidence", 1.0)),
            id=str(data.get("id") or new_id()),
            created=from_iso(data.get("created")) or utcnow(),
            updated=from_iso(data.get("updated")) or utcnow(),
            expires=from_iso(data.get("expires")),
            last_used=from_iso(data.get("last_used")),
            use_count=int(data.get("use_count", 0)),
            pinned=bool(data.get("pinned", False)),
            origin=Origin(
                profile=origin.get("profile"),
                conversation_id=origin.get("conversation_id"),
                message_id=origin.get("message_id"),
                client=origin.get("client") if isinstance(origin.get("client"), str) else None,
            ),
        )
        if kind == "note" and not item.text.strip():
            raise ValueError("note has no text")
        return item


# "pending": held for the user's yes, not stored yet; see MemoryStore.confirm_pending.
WriteStatus = Literal["added", "refreshed", "updated", "rejected", "pending"]


@dataclass
class WriteResult:
    """What the memory write gate did with a proposed write."""

    status: WriteStatus
    item: MemoryItem | None = None
    reason: str = ""  # why it was rejected, or what was changed (e.g. "secret redacted")
    archived: list[MemoryItem] = field(default_factory=list)  # moved out by the cap
    pending: bool = False  # needs the user's yes before it is stored

    @property
    def ok(self) -> bool:
        return self.status != "rejected"


# --------------------------------------------------------------------------
# Audit
# --------------------------------------------------------------------------
AuditFlag = Literal["suspicious", "secret", "duplicate", "conflict", "stale", "expired", "too_long"]
AUDIT_FLAGS: tuple[AuditFlag, ...] = (
    "suspicious", "secret", "duplicate", "conflict", "stale", "expired", "too_long",
)


@dataclass
class AuditFinding:
    item: MemoryItem
    flags: list[AuditFlag] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)  # flag -> human explanation
    twins: list[str] = field(default_factory=list)  # ids of duplicate / conflicting items
    # twin id -> why the two were matched ("a light edit", "embedding cosine 0.91"): shown beside both texts
    matched: dict[str, str] = field(default_factory=dict)
    # Not problems, shown apart from flags: "override" (a profile value set on purpose)
    notes: dict[str, str] = field(default_factory=dict)


# --------------------------------------------------------------------------
# History
# --------------------------------------------------------------------------
@dataclass
class ToolCall:
    id: str
    name: str
    arguments: str  # the JSON text exactly as the model sent it
    # Provider fields of the call that must go back unchanged (Gemini 3's
    # ``extra_content.google.thought_signature``); stored with the call.
    extra: dict[str, Any] = field(default_factory=dict)

    def to_openai(self) -> dict[str, Any]:
        data = {"id": self.id, "type": "function",
                "function": {"name": self.name, "arguments": self.arguments}}
        return {**self.extra, **data} if self.extra else data


@dataclass
class Message:
    role: Role
    content: str | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = None
    image_b64: str | None = None  # an attached image (base64), sent as an image part
    image_mime: str | None = None
    id: int | None = None  # assigned by the history store
    conversation_id: str | None = None
    turn_id: str | None = None  # groups a turn's tool steps
    created: datetime = field(default_factory=utcnow)
    tokens: int = 0
    incomplete: bool = False  # a partial reply kept after a failure
    persist: bool = True  # ephemeral messages are never written
    incomplete_reason: str | None = None  # why, in words ("cut at the token limit", ...)
    # Provider fields of an assistant message that must go back unchanged
    # (DeepSeek's ``reasoning_content`` on a tool-call message); sent in ``to_openai``.
    provider_fields: dict[str, Any] = field(default_factory=dict)
    reasoning: str | None = None  # the model's thinking, kept only with [history] save_reasoning
    cut_tool_calls: list[dict[str, Any]] = field(default_factory=list)  # cut mid-call: kept, never sent
    # The message this one follows in its conversation's tree (schema v6). Read back: None for
    # a root. Given to ``HistoryStore.append``: None continues the active branch, an id hangs
    # the message under that one (a sibling branch), ``history.NEW_ROOT`` (0) starts a new root.
    parent_id: int | None = None
    # A /compact summary (role "system"): the first and last message id it replaces in requests
    # (core/context/compaction.py); kept in ``messages.meta``.
    summary_of: tuple[int, int] | None = None
    # An assistant message's model, tokens and cost (schema v9's ``message_usage`` row);
    # None for other messages and for replies stored before v9.
    usage: MessageUsage | None = None
    # A tool result's outcome, for the chat's ✓ / ✗ / denied when the conversation is opened
    # again (TOOL_STATUSES); kept in ``messages.meta``. None: stored before it was kept.
    tool_status: str | None = None

    def to_openai(self) -> dict[str, Any]:
        """The Chat Completions wire form of this message."""
        data: dict[str, Any] = {"role": self.role}
        if self.image_b64 and self.role == "user":
            mime = self.image_mime or "image/png"
            data["content"] = [
                {"type": "text", "text": self.content or ""},
                {"type": "image_url",
                 "image_url": {"url": f"data:{mime};base64,{self.image_b64}"}},
            ]
        else:
            data["content"] = self.content
        if self.tool_calls:
            data["tool_calls"] = [call.to_openai() for call in self.tool_calls]
        if self.role == "tool":
            data["tool_call_id"] = self.tool_call_id
            if self.name:
                data["name"] = self.name
        if self.provider_fields and self.role == "assistant":
            data = {**self.provider_fields, **data}
        return data


#: What became of a tool call: run ("ok" / "failed"), refused by the user ("denied"), never
#: started (the turn ended first: "not run"), or stopped while it ran ("stopped").
TOOL_STATUSES = ("ok", "failed", "denied", "not run", "stopped")


@dataclass
class Conversation:
    id: str
    title: str
    created: datetime
    updated: datetime
    model: str | None = None
    archived: bool = False
    message_count: int = 0  # every message of every branch
    active_leaf_id: int | None = None  # last message of the branch shown and sent (schema v6)


@dataclass
class SearchHit:
    conversation_id: str
    conversation_title: str
    message_id: int
    role: Role
    snippet: str
    created: datetime
    rank: float
    # The conversation's title holds the query, not this message (History search lists it
    # first; ``message_id`` is then the conversation's active leaf, where opening it lands).
    in_title: bool = False
