"""Read conversation exports into history (``agenttui history import``).

Two formats, both parsed here without any I/O beyond reading the file and no
printing (the CLI reports):

* **agenttui** -- one ``agenttui.conversation`` v1 document, exactly what
  ``agenttui history export --format json`` writes
  (:mod:`agenttui.core.history.export`), or a JSON array of them. Every field
  comes back: roles, content, tool calls and results, images, turn ids,
  ``created``, ``incomplete`` (with its reason), provider fields (thought
  signatures, ``reasoning_content``), saved reasoning, each tool result's
  ``tool_status`` (an export without it: the calls ran, as before); title, times, model and
  the archived flag; and the tree: each message's ``parent_id``
  (an ``id`` of an earlier message of the document) and the conversation's
  ``active_leaf_id``. A document without parent ids (written before trees)
  is one branch, in order.
* **chatgpt** -- ChatGPT's data-export ``conversations.json``: an array of
  conversations, each a message *tree* (``mapping`` of node id -> ``{id,
  message, parent, children}``) plus ``current_node``, the leaf the ChatGPT
  UI shows. The whole tree is imported: regenerated answers and
  edited prompts become sibling branches, in the order of ``children``, and the
  path to ``current_node`` is the active branch (without a usable one: the last
  child at every fork, see :func:`chatgpt_path`). A message that is skipped
  (below) is passed over: its children hang under its nearest kept ancestor.
  Only what the UI shows is imported: ``user`` and ``assistant`` messages addressed to everybody
  (``recipient`` "all"), with ``content_type`` ``text`` or
  ``multimodal_text``, not flagged ``is_visually_hidden_from_conversation``
  (nor ``is_user_system_message``), with some text. ``system`` and ``tool``
  messages, tool invocations, reasoning ("thoughts") and custom-instruction
  context are skipped. String parts are joined with newlines; other parts
  (uploaded or generated images, files) become a short placeholder such as
  ``[image]``. A message's time is its ``create_time`` (epoch seconds); when
  that is null, the conversation's ``create_time``.

Idempotency: every conversation gets a **stable id** derived from its source,
and :meth:`HistoryStore.import_conversation` skips an id that is present
(no schema change needed). An agenttui document keeps its own id when it is
one of ours (32 hex digits), so export -> import round-trips and importing
into the profile it came from adds nothing; any other id is hashed. A ChatGPT
conversation's id is a hash of its ChatGPT id (``id`` / ``conversation_id``;
without one, of its title, create_time and current node). Consequence: a
conversation already present is skipped whole even if the source has grown
since (a later ChatGPT export of a chat continued there); delete it here and
import again to refresh it.

Redaction happens in the store (the append path), not here.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from agenttui.core.history.export import EXPORT_FORMAT, EXPORT_VERSION
from agenttui.core.models import TOOL_STATUSES, Conversation, Message, ToolCall, from_iso, utcnow
from agenttui.core.well_formed import well_formed

if TYPE_CHECKING:
    from agenttui.core.history.store import HistoryStore

Format = Literal["auto", "agenttui", "chatgpt"]
FORMATS: tuple[Format, ...] = ("auto", "agenttui", "chatgpt")
ROLES = ("system", "user", "assistant", "tool")
CHATGPT_KEPT_ROLES = ("user", "assistant")
CHATGPT_TEXT_TYPES = ("text", "multimodal_text")
_OUR_ID = re.compile(r"^[0-9a-f]{32}$")


class ImportFormatError(ValueError):
    """The file is not an export we can read (the message says why)."""


@dataclass
class ImportedConversation:
    conversation: Conversation  # id = the stable id (see the module doc)
    messages: list[Message]
    source: str  # where it came from, for reports: "chatgpt:<id>" / "agenttui:<id>"
    # The tree: for each message the index of its parent in ``messages`` (None: a root),
    # parents first; None = one branch in order. ``active``: index of the active leaf.
    parents: list[int | None] | None = None
    active: int | None = None


@dataclass
class ParsedExport:
    format: Literal["agenttui", "chatgpt"]
    conversations: list[ImportedConversation] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # conversations that could not be read


@dataclass
class ImportCounts:
    imported: int = 0
    present: int = 0  # skipped: already in history
    empty: int = 0  # skipped: nothing to import (e.g. only hidden messages)
    messages: int = 0  # messages of the imported conversations

    def add(self, other: ImportCounts) -> None:
        self.imported += other.imported
        self.present += other.present
        self.empty += other.empty
        self.messages += other.messages


# --------------------------------------------------------------------------
# Reading a file
# --------------------------------------------------------------------------
def read_export(path: Path, fmt: Format = "auto") -> ParsedExport:
    """Parse ``path``; raises :class:`ImportFormatError` (unreadable, not JSON, wrong shape).

    Messages do not name the file: the caller prefixes it.
    """
    from agenttui.core.files import sqlite_in_use

    if sqlite_in_use(Path(path)):  # e.g. the history database itself, given by mistake
        raise ImportFormatError("a database in use (its -wal/-shm is beside it), not an export; "
                                "not read")
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ImportFormatError(f"cannot read it ({exc.strerror or exc})") from exc
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise ImportFormatError("not UTF-8 text") from exc
    except json.JSONDecodeError as exc:
        raise ImportFormatError(f"not JSON ({exc.msg} at line {exc.lineno})") from exc
    return parse_export(data, fmt)


def parse_export(data: Any, fmt: Format = "auto") -> ParsedExport:
    """Parse already-decoded JSON (see :func:`read_export`)."""
    if fmt == "auto":
        fmt = detect_format(data)
    if fmt == "agenttui":
        return _parse_many(data, "agenttui", _is_agenttui, "an agenttui.conversation document",
                           parse_agenttui_document)
    if fmt == "chatgpt":
        return _parse_many(data, "chatgpt", _is_chatgpt, "a ChatGPT conversation (with 'mapping')",
                           parse_chatgpt_conversation)
    raise ImportFormatError(f"unknown format {fmt!r} (use one of {', '.join(FORMATS)})")


def detect_format(data: Any) -> Literal["agenttui", "chatgpt"]:
    """Which export ``data`` is: the first recognisable document decides (one format a file)."""
    if isinstance(data, list) and not data:
        return "agenttui"  # nothing to import either way
    for document in data if isinstance(data, list) else [data]:
        if _is_agenttui(document):
            return "agenttui"
        if _is_chatgpt(document):
            return "chatgpt"
    raise ImportFormatError(
        "not a known export: expected an agenttui.conversation document (agenttui history "
        "export --format json), an array of them, or ChatGPT's conversations.json")


def _is_agenttui(doc: Any) -> bool:
    return isinstance(doc, dict) and doc.get("format") == EXPORT_FORMAT


def _is_chatgpt(doc: Any) -> bool:
    return isinstance(doc, dict) and isinstance(doc.get("mapping"), dict)


def _parse_many(data: Any, fmt: Literal["agenttui", "chatgpt"], is_one: Callable[[Any], bool], what: str,
                parse_one: Callable[[Any], ImportedConversation]) -> ParsedExport:
    documents = data if isinstance(data, list) else [data]
    if isinstance(data, list) and data and not any(is_one(d) for d in data):
        raise ImportFormatError(f"no element of the array is {what}")
    if not isinstance(data, list) and not is_one(data):
        raise ImportFormatError(f"not {what}")
    parsed = ParsedExport(format=fmt)
    for number, document in enumerate(documents, 1):
        try:
            if not is_one(document):
                raise ImportFormatError(f"not {what}")
            parsed.conversations.append(parse_one(document))
        except (ImportFormatError, KeyError, TypeError, ValueError, AttributeError) as exc:
            title = document.get("title") if isinstance(document, dict) else None
            if isinstance(document, dict) and isinstance(document.get("conversation"), dict):
                title = document["conversation"].get("title")
            label = f"conversation {number}" + (f" ({title!r})" if isinstance(title, str) else "")
            parsed.problems.append(f"{label}: {_describe(exc)}")
    return parsed


def _describe(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    return str(exc) or type(exc).__name__


# --------------------------------------------------------------------------
# agenttui.conversation v1
# --------------------------------------------------------------------------
def parse_agenttui_document(doc: dict[str, Any]) -> ImportedConversation:
    version = doc.get("version")
    if not isinstance(version, int) or version < 1:
        raise ImportFormatError(f"bad version {version!r}")
    if version > EXPORT_VERSION:
        raise ImportFormatError(f"written by a newer agenttui (format version {version}; this one "
                                f"reads up to {EXPORT_VERSION}) -- upgrade agenttui to import it")
    head = doc["conversation"]
    if not isinstance(head, dict):
        raise ImportFormatError("'conversation' is not an object")
    source_id = str(head.get("id") or "")
    if not source_id:
        raise ImportFormatError("the conversation has no id")
    raw_messages = doc.get("messages") or []
    if not isinstance(raw_messages, list):
        raise ImportFormatError("'messages' is not an array")
    messages = [_agenttui_message(m, n) for n, m in enumerate(raw_messages, 1)]
    parents, active = _agenttui_tree(raw_messages, head.get("active_leaf_id"))
    created = _iso(head.get("created"), "conversation created") or (
        messages[0].created if messages else utcnow())
    updated = _iso(head.get("updated"), "conversation updated") or (
        messages[-1].created if messages else created)
    cid = source_id if _OUR_ID.match(source_id) else stable_id("agenttui", source_id)
    conversation = Conversation(id=cid, title=str(head.get("title") or ""), created=created,
                                updated=updated, model=_str_or_none(head.get("model")),
                                archived=bool(head.get("archived", False)))
    return ImportedConversation(conversation, messages, f"agenttui:{source_id}", parents, active)


def _agenttui_tree(raw_messages: list[Any], active_leaf: Any) -> tuple[list[int | None] | None, int | None]:
    """(parents, active) from the documents' ``id``/``parent_id`` (see ImportedConversation);
    (None, None) for a document without parent ids: one branch."""
    if not any(isinstance(m, dict) and "parent_id" in m for m in raw_messages):
        return None, None
    index: dict[Any, int] = {}
    parents: list[int | None] = []
    for number, raw in enumerate(raw_messages, 1):
        parent = raw.get("parent_id")
        if parent is not None and parent not in index:
            raise ImportFormatError(f"message {number}'s parent_id {parent!r} is not an earlier "
                                    "message of the conversation")
        parents.append(None if parent is None else index[parent])
        if raw.get("id") is not None:
            index[raw["id"]] = number - 1
    return parents, index.get(active_leaf)


def _agenttui_message(raw: Any, number: int) -> Message:
    if not isinstance(raw, dict):
        raise ImportFormatError(f"message {number} is not an object")
    role = raw.get("role")
    if role not in ROLES:
        raise ImportFormatError(f"message {number} has an unknown role {role!r}")
    created = _iso(raw.get("created"), f"message {number} created")
    if created is None:
        raise ImportFormatError(f"message {number} has no 'created' time")
    calls = []
    for call in raw.get("tool_calls") or []:
        extra = call.get("extra")
        calls.append(ToolCall(id=str(call["id"]), name=str(call["name"]),
                              arguments=str(call.get("arguments") or ""),
                              extra=extra if isinstance(extra, dict) else {}))
    provider = raw.get("provider_fields")
    cut = raw.get("cut_tool_calls")
    span = raw.get("summary_of")  # a /compact summary: ids of this document, renumbered on storing
    ident = raw.get("id")
    status = raw.get("tool_status")  # absent in exports written before outcomes were kept
    return Message(
        id=ident if isinstance(ident, int) and not isinstance(ident, bool) else None,
        summary_of=(span[0], span[1]) if isinstance(span, list) and len(span) == 2 and all(
            isinstance(i, int) and not isinstance(i, bool) for i in span) else None,
        role=role, content=_str_or_none(raw.get("content")), tool_calls=calls,
        tool_call_id=_str_or_none(raw.get("tool_call_id")), name=_str_or_none(raw.get("name")),
        image_b64=_str_or_none(raw.get("image_b64")), image_mime=_str_or_none(raw.get("image_mime")),
        turn_id=_str_or_none(raw.get("turn_id")), created=created,
        tokens=_count(raw.get("tokens")), incomplete=bool(raw.get("incomplete", False)),
        incomplete_reason=_str_or_none(raw.get("incomplete_reason")),
        provider_fields=provider if isinstance(provider, dict) else {},
        reasoning=_str_or_none(raw.get("reasoning")),
        cut_tool_calls=[c for c in cut if isinstance(c, dict)] if isinstance(cut, list) else [],
        tool_status=status if role == "tool" and status in TOOL_STATUSES else None,
    )


def _iso(value: Any, what: str) -> datetime | None:
    if value in (None, ""):
        return None
    try:
        moment = from_iso(str(value))
        if moment is not None:
            moment.astimezone(UTC)  # stored in UTC: 9999-12-31T23:00-05:00 has no UTC year
        return moment
    except ValueError as exc:
        raise ImportFormatError(f"{what}: {value!r} is not an ISO 8601 time") from exc
    except OverflowError as exc:
        raise ImportFormatError(f"{what}: {value!r} is out of range (years 1 to 9999 in UTC)") from exc


def _count(value: Any) -> int:
    """A stored count (``tokens``): one SQLite can hold, else 0 (unknown) -- a bookkeeping
    number out of range (1e400, NaN, 2**70) must not cost the conversation."""
    if isinstance(value, float) and not math.isfinite(value):
        return 0
    number = int(value or 0)  # "abc", a list: a malformed message (ValueError, TypeError)
    return number if 0 <= number < 2**63 else 0


def _str_or_none(value: Any) -> str | None:
    return None if value is None else well_formed(str(value))


# --------------------------------------------------------------------------
# ChatGPT conversations.json
# --------------------------------------------------------------------------
def parse_chatgpt_conversation(conv: dict[str, Any]) -> ImportedConversation:
    mapping: dict[str, Any] = conv["mapping"]
    created_at = _epoch(conv.get("create_time"))
    path = chatgpt_path(mapping, conv.get("current_node"))
    messages: list[Message] = []
    parents: list[int | None] = []
    # id(node) -> index in messages of the node, or of its nearest kept ancestor (None: none)
    nearest: dict[int, int | None] = {}
    last_slug: str | None = None  # the model of the active branch's last reply
    on_path = {id(node) for node in path}
    for node, parent in _chatgpt_tree(mapping, path[0] if path else None):
        message = node.get("message")
        text = _chatgpt_visible_text(message)
        inherited = nearest.get(parent) if parent is not None else None
        if text is None or message is None:  # (no text without a message)
            nearest[id(node)] = inherited
            continue
        role = message["author"]["role"]
        when = _epoch(message.get("create_time")) or created_at or utcnow()
        nearest[id(node)] = len(messages)
        parents.append(inherited)
        messages.append(Message(role=role, content=text, created=when))
        slug = (message.get("metadata") or {}).get("model_slug")
        if role == "assistant" and id(node) in on_path and isinstance(slug, str) and slug:
            last_slug = slug
    active = nearest.get(id(path[-1])) if path else None
    model = _str_or_none(conv.get("default_model_slug")) or last_slug
    source_id = str(conv.get("id") or conv.get("conversation_id") or "")
    if not source_id:  # an export without ids: its content must identify it
        source_id = "untitled:" + hashlib.blake2b(json.dumps(
            [conv.get("title"), conv.get("create_time"), conv.get("current_node")],
            sort_keys=True, default=str).encode(), digest_size=16).hexdigest()
    created = created_at or (messages[0].created if messages else utcnow())
    updated = _epoch(conv.get("update_time")) or (messages[-1].created if messages else created)
    conversation = Conversation(id=stable_id("chatgpt", source_id), title=str(conv.get("title") or ""),
                                created=created, updated=max(updated, created), model=model,
                                archived=bool(conv.get("is_archived", False)))
    return ImportedConversation(conversation, messages, f"chatgpt:{source_id}", parents, active)


def _chatgpt_tree(mapping: dict[str, Any], root: Any) -> Iterable[tuple[dict[str, Any], int | None]]:
    """Every node below ``root`` (itself included), parents before children, siblings in the
    order of ``children``; each with its parent's ``id()`` (None for ``root``). Iterative
    (deep conversations), and a node is visited once whatever the links say (cycles)."""
    if not isinstance(root, dict):
        return
    seen: set[int] = set()
    stack: list[tuple[dict[str, Any], int | None]] = [(root, None)]
    while stack:
        node, parent = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield node, parent
        children = [mapping[c] for c in node.get("children") or []
                    if isinstance(c, str) and isinstance(mapping.get(c), dict)]
        stack.extend((child, id(node)) for child in reversed(children))


def chatgpt_path(mapping: dict[str, Any], current_node: Any) -> list[dict[str, Any]]:
    """The nodes from the root to ``current_node``, in order.

    Without a usable ``current_node`` (older or hand-trimmed exports), the
    path follows the last child at every fork: the most recent branch, which
    is the one ChatGPT shows. Cycles and dangling parents end the walk.
    """
    if isinstance(current_node, str) and current_node in mapping:
        path, seen, node_id = [], set(), current_node
        while isinstance(node_id, str) and node_id in mapping and node_id not in seen:
            seen.add(node_id)
            path.append(mapping[node_id])
            node_id = mapping[node_id].get("parent")
        path.reverse()
        return path
    roots = [n for n in mapping.values()
             if isinstance(n, dict) and (n.get("parent") is None or n.get("parent") not in mapping)]
    if not roots:
        raise ImportFormatError("the message tree has no root")
    path = []
    visited: set[int] = set()
    node: Any = roots[0]
    while isinstance(node, dict) and id(node) not in visited:
        visited.add(id(node))
        path.append(node)
        children = [c for c in node.get("children") or [] if c in mapping]
        node = mapping[children[-1]] if children else None
    return path


def _chatgpt_visible_text(message: Any) -> str | None:
    """The text the ChatGPT UI showed for ``message``, or None to skip it (module doc)."""
    if not isinstance(message, dict):
        return None
    role = (message.get("author") or {}).get("role")
    if role not in CHATGPT_KEPT_ROLES:
        return None
    metadata = message.get("metadata") or {}
    if metadata.get("is_visually_hidden_from_conversation") or metadata.get("is_user_system_message"):
        return None
    if message.get("recipient", "all") != "all":  # a tool invocation (browser, python, dalle …)
        return None
    content = message.get("content") or {}
    if content.get("content_type", "text") not in CHATGPT_TEXT_TYPES:
        return None
    pieces = [_part_text(part) for part in content.get("parts") or []]
    text = "\n".join(p for p in pieces if p).strip()
    return text or None


def _part_text(part: Any) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, dict):
        kind = str(part.get("content_type") or "attachment")
        if "image" in kind:
            return "[image]"
        spoken = part.get("text")
        if kind == "audio_transcription" and isinstance(spoken, str):
            return spoken
        return f"[{kind.replace('_', ' ')}]"
    return ""


def _epoch(value: Any) -> datetime | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return datetime.fromtimestamp(value, UTC)
    except (OverflowError, OSError, ValueError):
        return None


# --------------------------------------------------------------------------
# Storing
# --------------------------------------------------------------------------
def stable_id(kind: str, source_id: str) -> str:
    """A conversation id (32 hex digits, like ours) that is the same on every import."""
    return hashlib.blake2b(f"{kind}\x00{source_id}".encode(), digest_size=16).hexdigest()


def import_into(history: HistoryStore, conversations: Iterable[ImportedConversation]) -> ImportCounts:
    """Store each conversation (one transaction each); already present ones are skipped.

    ``history`` is a :class:`~agenttui.core.history.store.HistoryStore`; its write
    errors propagate (what was stored before the failure stays stored).
    """
    counts = ImportCounts()
    for item in conversations:
        if not item.messages:
            counts.empty += 1
        elif history.import_conversation(item.conversation, item.messages, item.parents, item.active):
            counts.imported += 1
            counts.messages += len(item.messages)
        else:
            counts.present += 1
    return counts


__all__ = (
    "FORMATS", "ImportCounts", "ImportFormatError", "ImportedConversation", "ParsedExport",
    "chatgpt_path", "detect_format", "import_into", "parse_agenttui_document",
    "parse_chatgpt_conversation", "parse_export", "read_export", "stable_id",
)
