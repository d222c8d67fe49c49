"""Parsing and inline editing of one memory item (shared by the pane and the audit).

One text syntax for both kinds, so the user never picks a kind from a menu:
``key = value`` (a single identifier-like word, then ``=``) is a fact,
anything else is a note. ``a == b`` or ``x = y + z`` with spaces in the
key stay notes, because the key must be one word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input

from agenttui.core.models import MemoryItem, utcnow
from agenttui.ui.widgets.edit_box import EditBox

_FACT = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.-]{0,63})\s*=(?!=)\s*(\S.*?)\s*$", re.DOTALL)


@dataclass(frozen=True)
class Entry:
    """What the user typed: a note (``key is None``) or a fact."""

    text: str
    key: str | None = None
    value: str | None = None

    @property
    def is_fact(self) -> bool:
        return self.key is not None


def parse_entry(raw: str) -> Entry | None:
    """``None`` for blank input; a fact for ``key = value``; else a note."""
    text = raw.strip()
    if not text:
        return None
    match = _FACT.match(text)
    if match:
        return Entry(text=text, key=match.group(1), value=match.group(2))
    return Entry(text=text)


def edit_text(item: MemoryItem) -> str:
    """The editable form of an item (the inverse of :func:`parse_entry`)."""
    return f"{item.key} = {item.value}" if item.kind == "fact" else item.text


def apply_edit(memory, item: MemoryItem, raw: str):
    """Write an edit through the gate; returns the store's ``WriteResult``.

    A fact whose key changed becomes a new fact (the store edits values, not
    keys) and the old one is removed only if the new one was accepted. The new
    fact keeps what the user set on the old one: its pin and its expiry (a
    renamed ``★ language`` lost its star, and its place in every prompt).
    """
    entry = parse_entry(raw)
    if entry is None:
        raise ValueError("empty edit: delete the item instead")
    if item.kind == "note":
        return memory.edit(item.id, text=entry.text)
    if not entry.is_fact:
        raise ValueError("a fact needs the form 'key = value'")
    if entry.key == item.key:
        return memory.edit(item.id, value=entry.value)
    result = memory.set_fact(entry.key, entry.value, scope=item.scope, source="manual", pinned=item.pinned,
                             ttl_days=_days_left(item))
    if result.ok and not getattr(result, "pending", False):
        memory.remove([item.id])
    return result


def _days_left(item: MemoryItem) -> float | None:
    """The item's expiry as days from now (None: it has none); one already past stays past-due."""
    if item.expires is None:
        return None
    return max((item.expires - utcnow()).total_seconds() / 86400, 1e-9)


class MemoryItemEditor(EditBox):
    """A box prefilled with one item; Enter saves, Escape cancels (Esc typed with what
    follows too: :mod:`.edit_box`).

    The cursor lands at the end, nothing selected: with Textual's select-all on focus, the
    first key typed replaced the whole note.
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel edit", id="memory.edit_cancel")]

    class EditSubmitted(Message):
        def __init__(self, editor: MemoryItemEditor, item: MemoryItem, text: str) -> None:
            super().__init__()
            self.editor = editor
            self.item = item
            self.text = text

    class EditCancelled(Message):
        def __init__(self, editor: MemoryItemEditor) -> None:
            super().__init__()
            self.editor = editor

    def __init__(self, **kwargs) -> None:
        super().__init__(select_on_focus=False, **kwargs)
        self.item: MemoryItem | None = None

    def start(self, item: MemoryItem) -> None:
        self.item = item
        self.border_title = f"edit {item.kind} ({item.scope}) — Enter saves, Esc cancels"
        self.begin(edit_text(item))

    def stop(self) -> None:
        self.item = None
        self.end()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        # Re-posted as our own message so the parent's add-Input handler never sees it.
        event.stop()
        if self.item is not None:
            self.post_message(self.EditSubmitted(self, self.item, self.value))

    def action_cancel(self) -> None:
        self.editing = False  # what is still on its way here changes nothing
        self.post_message(self.EditCancelled(self))
