"""Read notes from a file into memory (``agenttui memory import``), through the gate.

Accepted files:

* **JSON**: an array of strings (each a note), or of item objects as
  ``agenttui memory list --json`` prints them (notes ``{"kind": "note",
  "text": …}`` and facts ``{"kind": "fact", "key": …, "value": …}``; without
  ``kind``, an object with ``key`` is a fact), or a memory file itself
  (``{"items": [...]}``: its live items; the archive is left out).
* **Text / Markdown**: one note per line or per bullet (``- ``, ``* ``,
  ``+ ``, ``1. ``, ``1) ``; a task-box ``[ ]`` / ``[x]`` is dropped). Headings,
  blank lines, horizontal rules and code-fence lines are skipped. An indented
  line that is not a bullet continues the bullet above it (a wrapped bullet
  stays one note).

A file is read as JSON when its name ends in ``.json`` (then it must be valid
JSON) or when its text starts with ``[`` or ``{`` and parses; otherwise as text.

Every proposal goes through :class:`~agenttui.core.memory.store.MemoryStore`'s
write gate with source ``import`` (a user source: a secret is redacted rather
than refused, injection-like text is refused, near-duplicates refresh the
existing note, a fact with an existing key updates it). What an item object
carries over: ``pinned``, ``confidence`` and the time left before ``expires``;
an item already expired is refused (it would be dropped at once).
Its ``scope`` is used unless the caller gives one (``--scope``); ids, use
counts and dates are not: the store makes a new item (or refreshes a twin).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from agenttui.core.models import SCOPES, Scope, Source, WriteResult, from_iso, utcnow

if TYPE_CHECKING:
    from agenttui.core.memory.store import MemoryStore

SOURCE: Source = "import"
_BULLET = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?")
_HEADING = re.compile(r"^#{1,6}(?:\s|$)")
_RULE = re.compile(r"^(?:-{3,}|\*{3,}|_{3,})$")


class MemoryImportError(ValueError):
    """The file cannot be read as notes (the message says why; it does not name the file)."""


@dataclass
class Proposal:
    """One note or fact read from the file, not yet checked by the gate."""

    label: str  # where it came from, for reports: "line 4", "item 2"
    kind: Literal["note", "fact"] = "note"
    text: str = ""
    key: str | None = None
    value: str | None = None
    scope: Scope | None = None  # the item's own scope, if it named one
    pinned: bool = False
    confidence: float = 1.0
    expires: datetime | None = None
    problem: str | None = None  # refused before the gate (wrong shape, expired)

    @property
    def display(self) -> str:
        return f"{self.key} = {self.value}" if self.kind == "fact" else self.text


@dataclass
class MemoryImportReport:
    added: list[WriteResult] = field(default_factory=list)
    refreshed: list[WriteResult] = field(default_factory=list)
    updated: list[WriteResult] = field(default_factory=list)
    refused: list[tuple[Proposal, str]] = field(default_factory=list)  # (proposal, reason)


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------
def read_notes_file(path: Path) -> list[Proposal]:
    """The proposals in ``path``; raises :class:`MemoryImportError` when it cannot be read."""
    from agenttui.core.files import sqlite_in_use

    if sqlite_in_use(Path(path)):  # e.g. the history database, given by mistake
        raise MemoryImportError("a database in use (its -wal/-shm is beside it), not notes; not read")
    try:
        text = Path(path).read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise MemoryImportError(f"cannot read it ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise MemoryImportError("not UTF-8 text") from exc
    must_be_json = Path(path).suffix.lower() == ".json"
    if must_be_json or text.lstrip()[:1] in ("[", "{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            if must_be_json:
                raise MemoryImportError(f"not JSON ({exc.msg} at line {exc.lineno})") from exc
        else:
            return parse_json_notes(data)
    return parse_text_notes(text)


def parse_json_notes(data: Any) -> list[Proposal]:
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        data = data["items"]  # a memory file (memory.file format)
    if not isinstance(data, list):
        raise MemoryImportError("expected a JSON array of notes (strings) or of memory items")
    return [_json_element(element, number) for number, element in enumerate(data, 1)]


def _json_element(element: Any, number: int) -> Proposal:
    label = f"item {number}"
    if isinstance(element, str):
        return Proposal(label, text=element.strip(),
                        problem=None if element.strip() else "the note is empty")
    if not isinstance(element, dict):
        return Proposal(label, text=json.dumps(element)[:80],
                        problem=f"not a note (a JSON {type(element).__name__})")
    kind = element.get("kind") or ("fact" if "key" in element else "note")
    proposal = Proposal(label, kind="fact" if kind == "fact" else "note")
    if kind not in ("note", "fact"):
        proposal.problem = f"unknown kind {kind!r}"
    elif kind == "fact":
        proposal.key = _text(element.get("key"))
        proposal.value = _text(element.get("value"))
    else:
        proposal.text = _text(element.get("text")).strip()
        if not proposal.text:
            proposal.problem = "the note is empty"
    scope = element.get("scope")
    proposal.scope = scope if scope in SCOPES else None
    proposal.pinned = bool(element.get("pinned", False))
    try:
        proposal.confidence = float(element.get("confidence", 1.0))
        proposal.expires = from_iso(element.get("expires"))
    except (TypeError, ValueError) as exc:
        proposal.problem = proposal.problem or f"bad field ({exc})"
    if proposal.expires is not None and proposal.expires <= utcnow() and proposal.problem is None:
        proposal.problem = f"expired on {proposal.expires:%Y-%m-%d}"
    return proposal


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def parse_text_notes(text: str) -> list[Proposal]:
    proposals: list[Proposal] = []
    current: Proposal | None = None  # the bullet an indented line would continue
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if (not stripped or _HEADING.match(stripped) or _RULE.match(stripped)
                or stripped.startswith(("```", "~~~"))):
            current = None
            continue
        bullet = _BULLET.match(line)
        if bullet:
            body = line[bullet.end():].strip()
            current = Proposal(f"line {number}", text=body) if body else None
            if current is not None:
                proposals.append(current)
        elif line[:1].isspace() and current is not None:
            current.text += " " + stripped
        else:
            current = None
            proposals.append(Proposal(f"line {number}", text=stripped))
    return proposals


# --------------------------------------------------------------------------
# Writing (through the gate)
# --------------------------------------------------------------------------
def import_notes(memory: MemoryStore, proposals: Iterable[Proposal], scope: Scope | None = None) -> MemoryImportReport:
    """Submit each proposal to ``memory`` (a MemoryStore) with source ``import``.

    ``scope`` overrides every item's own; without it an item's scope is used,
    else ``user`` (as ``agenttui memory add``).
    """
    report = MemoryImportReport()
    now = utcnow()
    submitted: list[Proposal] = []
    items = []
    for proposal in proposals:
        if proposal.problem:
            report.refused.append((proposal, proposal.problem))
            continue
        target: Scope = scope or proposal.scope or "user"
        ttl = (proposal.expires - now).total_seconds() / 86400 if proposal.expires else None
        if proposal.kind == "fact":
            item = memory.proposed_fact(proposal.key or "", proposal.value or "", target, SOURCE,
                                        pinned=proposal.pinned, ttl_days=ttl, confidence=proposal.confidence)
        else:
            item = memory.proposed_note(proposal.text, target, SOURCE,
                                        pinned=proposal.pinned, ttl_days=ttl, confidence=proposal.confidence)
        submitted.append(proposal)
        items.append(item)
    # One write per batch, not per item (MemoryStore.submit_many); results come in order.
    for proposal, result in zip(submitted, memory.submit_many(items), strict=True):
        if result.status == "added":
            report.added.append(result)
        elif result.status == "refreshed":
            report.refreshed.append(result)
        elif result.status == "updated":
            report.updated.append(result)
        else:  # rejected (or, never for a user source, held for consent: not stored either)
            report.refused.append((proposal, result.reason or "refused by the memory gate"))
    return report


__all__ = ["MemoryImportError", "MemoryImportReport", "Proposal", "import_notes",
           "parse_json_notes", "parse_text_notes", "read_notes_file"]
