"""The list of what one reply used, in the prompt inspector: one row per thing.

Rows, in the order the model read them: the notes and facts of the system
prompt, the archived ones recall quoted, then each recalled past message
(oldest first; a matched message and the neighbouring turn quoted with it are
a row each, so the rows match the "N past messages" count) and project
entries. Every row is one inert line (model and user text is never parsed as
markup) and carries what its actions need: a memory item id (edit, forget) or
a conversation and message id (open).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from typing import Literal

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from agenttui.core.models import MemoryItem
from agenttui.core.recall.usage import RecallUsage, format_span
from agenttui.ui.inert import inert_line

RowKind = Literal["note", "fact", "message", "project"]
SCOPE_TAGS = {"user": "user", "profile": "proj"}
ROLE_TAGS = {"user": "you", "assistant": "agent"}
KIND_STYLE = {"note": "bold cyan", "fact": "bold cyan", "message": "bold green", "project": "bold magenta"}


@dataclass(frozen=True)
class UsedRow:
    key: str  # the option id
    kind: RowKind
    text: str  # the note, "key = value", the message or the entry (raw; made inert when shown)
    scope: str | None = None
    archived: bool = False
    item_id: str | None = None
    conversation_id: str | None = None
    conversation_title: str = ""
    message_id: int | None = None
    role: str | None = None
    day: date | None = None
    where: str | None = None
    forgotten: bool = False

    @property
    def is_memory(self) -> bool:
        return self.kind in ("note", "fact")


def rows_for(usage: RecallUsage) -> list[UsedRow]:
    """Every used thing as a row (see module doc)."""
    rows: list[UsedRow] = []
    seen: set[str] = set()
    for item in usage.memory_items:
        if item.id not in seen:
            seen.add(item.id)
            rows.append(UsedRow(f"item-{item.id}", item.kind, item.display, scope=item.scope, item_id=item.id))
    ordered = sorted(usage.recalled, key=lambda s: (s.date, s.message_id or 0, s.item_id or "", s.where or ""))
    for snippet in ordered:
        if snippet.source in ("note", "fact") and snippet.item_id and snippet.item_id not in seen:
            seen.add(snippet.item_id)
            rows.append(UsedRow(f"item-{snippet.item_id}", snippet.source, snippet.text, scope=snippet.scope,
                                archived=snippet.archived, item_id=snippet.item_id))
    for snippet in ordered:
        if snippet.source != "message":
            continue
        for turn in snippet.turns:
            if f"msg-{turn.message_id}" in seen:
                continue
            seen.add(f"msg-{turn.message_id}")
            rows.append(UsedRow(f"msg-{turn.message_id}", "message", turn.text, role=turn.role,
                                conversation_id=snippet.conversation_id,
                                conversation_title=snippet.conversation_title, message_id=turn.message_id,
                                day=turn.created.astimezone().date(), archived=snippet.archived))
    for index, snippet in enumerate(s for s in ordered if s.source == "project"):
        rows.append(UsedRow(f"proj-{index}", "project", snippet.text, where=snippet.where,
                            day=snippet.date.date() if snippet.date.year > 1 else None))
    return rows


def row_label(row: UsedRow, today: date | None = None) -> Text:
    """One inert, one-line label."""
    today = today or date.today()
    label = Text(no_wrap=True, overflow="ellipsis")
    tag = {"message": "msg", "project": "proj"}.get(row.kind, row.kind)
    label.append(f"{tag:<5}", style="dim" if row.forgotten else KIND_STYLE[row.kind])
    if row.forgotten:
        label.append("forgotten ", style="bold")
        label.append(inert_line(row.text, 300), style="dim strike")
        return label
    if row.is_memory:
        label.append(SCOPE_TAGS.get(row.scope or "", row.scope or "") + " ", style="dim")
        if row.archived:
            label.append("archived ", style="dim italic")
    elif row.kind == "message":
        if row.day is not None:
            label.append(format_span((row.day, row.day), today) + " ", style="dim")
        label.append(f"“{inert_line(row.conversation_title or 'untitled', 28)}” ", style="italic")
        label.append(f"{ROLE_TAGS.get(row.role or '', row.role or '?')}: ", style="bold")
    elif row.kind == "project":
        label.append(f"{inert_line(row.where, 40)} ", style="dim")
    label.append(inert_line(row.text, 300))
    return label


class UsedList(OptionList):
    """An ``OptionList`` of :class:`UsedRow` (the screen owns the actions)."""

    # One line per row, cut with "…": the full text is in the request below and in its conversation.
    DEFAULT_CSS = """
    UsedList { height: auto; max-height: 60%; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    UsedList, UsedList:focus { border: none; }
    """

    def __init__(self, usage: RecallUsage, **kwargs) -> None:
        super().__init__(markup=False, **kwargs)
        self.rows: dict[str, UsedRow] = {row.key: row for row in rows_for(usage)}

    def on_mount(self) -> None:
        self.add_options(Option(row_label(row), id=row.key) for row in self.rows.values())
        if self.rows:
            self.highlighted = 0

    @property
    def current(self) -> UsedRow | None:
        option = self.highlighted_option
        return self.rows.get(option.id) if option is not None and option.id else None

    def update_row(self, row: UsedRow) -> None:
        self.rows[row.key] = row
        self.replace_option_prompt(row.key, row_label(row))

    def item_edited(self, row: UsedRow, item: MemoryItem) -> None:
        self.update_row(replace(row, text=item.display, item_id=item.id, scope=item.scope, kind=item.kind))

    def item_forgotten(self, row: UsedRow) -> None:
        self.update_row(replace(row, forgotten=True))
