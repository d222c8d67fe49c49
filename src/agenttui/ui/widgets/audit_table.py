"""The audit table (docs/memory.md#the-audit): one row per memory item, sortable and filterable.

``DataTable`` renders lines lazily, so 10,000 items are fine. Sorting is done
on the underlying values (ages as datetimes, uses as ints), not on the
displayed strings ("3d" < "12h" alphabetically), and the table is rebuilt
from the sorted, filtered rows; the cursor stays on the same item.
All item text is passed through :func:`inert_line` and truncated.

The text column takes what the other columns leave (``TEXT_MIN`` to
``TEXT_WIDTH`` cells), measured again after every rebuild and resize: at 80
columns a fixed 44 pushed the flags column, the one the audit is about, off
the right edge.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from rich.text import Text
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

from agenttui.core.models import AuditFinding, MemoryItem, utcnow
from agenttui.ui.inert import inert_line

TEXT_WIDTH = 44  # at most
TEXT_MIN = 8  # below this the text column scrolls sideways rather than vanish
FLAG_TAGS = {
    "suspicious": "SUSP", "secret": "SECRET", "duplicate": "DUP", "conflict": "CONFL",
    "stale": "stale", "expired": "expired", "too_long": "long",
}
FLAG_STYLES = {"suspicious": "bold red", "secret": "bold red", "conflict": "yellow",
               "duplicate": "yellow"}
# column key -> (label, sort key over an AuditRow)
COLUMNS: dict[str, tuple[str, Callable[[AuditRow], Any]]] = {
    "scope": ("scope", lambda r: r.item.scope),
    "kind": ("kind", lambda r: r.item.kind),
    "text": ("text / key = value", lambda r: r.item.display.casefold()),
    "source": ("source", lambda r: r.item.source),
    "age": ("age", lambda r: -r.item.created.timestamp()),
    "last_used": ("last used", lambda r: -(r.item.last_used.timestamp() if r.item.last_used else 0)),
    "uses": ("uses", lambda r: r.item.use_count),
    "expiry": ("expiry", lambda r: r.item.expires.timestamp() if r.item.expires else float("inf")),
    "flags": ("flags", lambda r: (-len(r.flags), r.flags)),
}


def span(moment: datetime, now: datetime) -> str:
    """Compact duration: 45s, 12m, 5h, 3d, 2mo, 1y."""
    seconds = abs((now - moment).total_seconds())
    for unit, size in (("y", 31_536_000), ("mo", 2_592_000), ("d", 86_400), ("h", 3_600), ("m", 60)):
        if seconds >= size:
            return f"{int(seconds // size)}{unit}"
    return f"{int(seconds)}s"


@dataclass
class AuditRow:
    item: MemoryItem
    flags: list[str] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)
    twins: list[str] = field(default_factory=list)
    matched: dict[str, str] = field(default_factory=dict)  # twin id -> why the two were matched
    notes: dict[str, str] = field(default_factory=dict)  # not problems: "override"


def rows_from(items: list[MemoryItem], findings: list[AuditFinding]) -> list[AuditRow]:
    """Every item gets a row, flagged or not (the audit may list only flagged ones)."""
    by_id = {finding.item.id: finding for finding in findings}
    rows = []
    for item in items:
        finding = by_id.get(item.id)
        rows.append(AuditRow(item, list(finding.flags), dict(finding.reasons), list(finding.twins),
                             dict(finding.matched), dict(finding.notes))
                    if finding else AuditRow(item))
    return rows


class AuditTable(DataTable):
    """Shows ``AuditRow``s; ``show(rows, flag, sort, reverse)`` rebuilds it."""

    def __init__(self, now: datetime | None = None, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.now = now
        self.rows_by_id: dict[str, AuditRow] = {}
        self.shown: list[AuditRow] = []

    def on_mount(self) -> None:
        for key, (label, _) in COLUMNS.items():
            self.add_column(label, key=key, width=TEXT_WIDTH if key == "text" else None)

    def on_resize(self) -> None:
        self._fit_text()

    def _fit_text(self) -> None:
        """Give the text column the width the others leave, within ``TEXT_MIN``..``TEXT_WIDTH``."""
        column = self.columns.get(ColumnKey("text"))
        if column is None:
            return
        others = sum(c.get_render_width(self) for key, c in self.columns.items() if key != "text")
        # room for a vertical scrollbar whether it shows yet or not: it comes with the rows,
        # after this runs, and would push the last column out by its width
        gutter = self.scrollbar_size_vertical or self.styles.scrollbar_size_vertical
        room = self.content_region.width - gutter - others - 2 * self.cell_padding
        width = max(TEXT_MIN, min(TEXT_WIDTH, room))
        if width != column.width:
            column.width = width
            # DataTable caches rendered rows and its virtual size by column widths
            self._clear_caches()
            self._require_update_dimensions = True
            self.refresh()

    def show(self, rows: list[AuditRow], flag: str | None = None, sort: str = "flags",
             reverse: bool = False) -> None:
        keep = self.current_id()
        self.rows_by_id = {row.item.id: row for row in rows}
        shown = [row for row in rows if flag is None or flag in row.flags]
        shown.sort(key=COLUMNS[sort][1], reverse=reverse)  # stable: ties keep their order
        self.shown = shown
        self.clear()
        now = self.now or utcnow()
        for row in shown:
            self.add_row(*self._cells(row, now), key=row.item.id)
        if keep is not None and any(r.item.id == keep for r in shown):
            self.move_cursor(row=next(i for i, r in enumerate(shown) if r.item.id == keep))
        self._fit_text()  # the other columns' widths follow what they now hold

    def _cells(self, row: AuditRow, now: datetime) -> tuple:
        item = row.item
        text = inert_line(item.display, TEXT_WIDTH * 4)
        expiry = "-"
        if item.expires is not None:
            expiry = f"-{span(item.expires, now)}" if item.expires <= now else f"in {span(item.expires, now)}"
        flags = Text()
        for flag in row.flags:
            if flags:
                flags.append(" ")
            flags.append(FLAG_TAGS.get(flag, flag), style=FLAG_STYLES.get(flag, ""))
        if "override" in row.notes:  # shown, not flagged: a profile value set on purpose
            flags.append((" " if flags else "") + "override", style="italic cyan")
        return (
            ("★ " if item.pinned else "") + item.scope,
            item.kind,
            Text(text, no_wrap=True, overflow="ellipsis"),
            item.source,
            span(item.created, now),
            span(item.last_used, now) if item.last_used else "never",
            Text(str(item.use_count), justify="right"),
            expiry,
            flags,
        )

    def current_id(self) -> str | None:
        if not self.shown or self.cursor_row is None or not (0 <= self.cursor_row < len(self.shown)):
            return None
        return self.shown[self.cursor_row].item.id

    def current_row(self) -> AuditRow | None:
        current = self.current_id()
        return self.rows_by_id.get(current) if current else None
