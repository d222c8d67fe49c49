"""The memory audit screen (docs/memory.md#the-audit).

Every item of the user scope and the current profile in one table (see
:mod:`agenttui.ui.widgets.audit_table`), flagged by ``core.audit.findings.audit``
computed in a thread worker. Keys:

* sort: click a header, or ``o`` to cycle the sort column and ``r`` to
  reverse;
* filter by flag: ``1``–``7`` (suspicious, secret, duplicate, conflict,
  stale, expired, too long), ``0`` for all; or the Select above the table;
* ``e`` edit (the Memory pane's inline editor), ``p`` pin, ``d`` delete
  (confirm), ``m`` merge duplicates (asks which wording to keep, then
  folds the others into it), ``X`` bulk delete of every flagged item in view (confirm
  with counts and a typed word; the store snapshots memory first).

The panel under the table shows, for the highlighted item, each flag's
reason, a duplicate side by side with its twins (both texts and why they
were matched), and an override (a profile value set on purpose: shown, not
flagged). With ``[recall] semantic = true`` the audit also asks the
endpoint for embeddings (duplicates by meaning); if it cannot, it says so
once and stays lexical.

``/audit deep`` opens the screen with a **deep review** (``deep=True``):
after the audit, the model reviews memory in batches
(:mod:`agenttui.agent.deep_review`) and its proposals -- merges,
corrections, deletions, each with a reason -- are listed under the table;
``a`` accepts the highlighted proposal (corrections go through the write
gate), ``n`` rejects it. Nothing changes until a proposal is accepted; the
requests are in the prompt inspector.

Every change posts :class:`AuditScreen.MemoryChanged` to the app so the
Memory pane and the next prompt pick it up; the screen dismisses with
``True`` if anything changed.
"""

from __future__ import annotations

import functools
from collections import Counter
from datetime import datetime
from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, OptionList, Select, Static
from textual.widgets.option_list import Option

from agenttui.core.models import AUDIT_FLAGS
from agenttui.ui import messages
from agenttui.ui.escape_then_key import Handover
from agenttui.ui.inert import inert_line
from agenttui.ui.widgets.audit_table import COLUMNS, FLAG_TAGS, AuditRow, AuditTable, rows_from
from agenttui.ui.widgets.memory_item_editor import MemoryItemEditor, apply_edit

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

SORT_ORDER = list(COLUMNS)


def filter_label(name: str, key: int) -> str:
    """A filter's label with its key, which must not read as a count ("suspicious (1)" did)."""
    return f"{name} · key {key}"


class AuditScreen(Screen[bool]):
    CSS_PATH = "audit.tcss"
    BINDINGS = [
        Binding("escape,q", "close", "Close", id="audit.close"),
        Binding("e", "edit", "Edit", id="audit.edit"),
        Binding("p", "toggle_pin", "Pin", id="audit.pin"),
        Binding("d,delete", "delete", "Delete", id="audit.delete"),
        Binding("m", "merge", "Merge dups", id="audit.merge"),
        Binding("X", "bulk_delete", "Delete flagged", id="audit.bulk_delete"),
        Binding("a", "accept_proposal", "Accept proposal", show=False, id="audit.accept"),
        Binding("n", "reject_proposal", "Reject proposal", show=False, id="audit.reject"),
        Binding("o", "cycle_sort", "Sort", id="audit.sort"),
        Binding("r", "reverse_sort", "Reverse", show=False, id="audit.reverse"),
        Binding("0", "filter(None)", "All", show=False, id="audit.filter_all"),
        *[Binding(str(n), f"filter('{flag}')", flag, show=False, id=f"audit.filter_{flag}")
          for n, flag in enumerate(AUDIT_FLAGS, 1)],
    ]

    class MemoryChanged(messages.MemoryChanged):
        """Posted to the app after every write made from the audit."""

    class _Audited(Message):
        def __init__(self, rows: list[AuditRow], warning: str | None = None) -> None:
            super().__init__()
            self.rows = rows
            self.warning = warning

    class _Written(Message):
        def __init__(self, verb: str, note: str, error: str | None) -> None:
            super().__init__()
            self.verb, self.note, self.error = verb, note, error

    class _Reviewed(Message):
        def __init__(self, proposals: list, problems: list[str]) -> None:
            super().__init__()
            self.proposals, self.problems = proposals, problems

    def __init__(self, services: Services, now: datetime | None = None, deep: bool = False) -> None:
        super().__init__()
        self._handover = Handover()
        self.deep = deep
        self.proposals: list = []  # deep review proposals still waiting for the user
        self.services = services
        self.now = now  # frozen clock for snapshots / tests
        self.rows: list[AuditRow] = []
        self.sync_conflicts_elsewhere = 0  # kept by a sync on conversations and files (not rows here)
        self.flag: str | None = None
        self.sort = "flags"
        self.reverse = False
        self.changed = False
        self.embeddings_warned = False

    def compose(self) -> ComposeResult:
        with Horizontal(id="audit-bar"):
            yield Static(Text("Memory audit", style="bold"), id="audit-title")
            # The digit is the key that picks the filter, said so: "suspicious (1)" read as a
            # count of suspicious items. The counts are on the summary line.
            select = Select([(filter_label(flag, n), flag) for n, flag in enumerate(AUDIT_FLAGS, 1)],
                            prompt=filter_label("all items", 0), id="audit-filter")
            select.tooltip = "Show only the items with one flag. Keys 0-7 pick a filter from the table."
            yield select
        yield Static(id="audit-summary")
        yield AuditTable(now=self.now, id="audit-table")
        yield Static(id="audit-reasons")
        yield MemoryItemEditor(id="audit-editor")
        if self.deep:
            yield Static(Text("Deep review: asking the model…", style="italic"), id="audit-review-status")
            yield OptionList(id="audit-proposals")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(AuditTable).focus()
        self.refresh_audit()
        if self.deep:
            self._review()

    # -- deep review ------------------------------------------------
    @work(group="audit-review", exclusive=True)
    async def _review(self) -> None:
        from agenttui.agent.deep_review import review

        try:
            items = self.services.memory.items("all", include_expired=True)
            result = await review(self.services, items)
            self.post_message(self._Reviewed(result.proposals, result.problems))
        except Exception as error:  # no key, no endpoint: the audit itself still works
            self.post_message(self._Reviewed([], [f"the deep review could not run: {error}"]))

    @on(_Reviewed)
    def _reviewed(self, message: _Reviewed) -> None:
        self.proposals = list(message.proposals)
        self._show_proposals()
        for problem in message.problems[:3]:
            self.notify(inert_line(problem, 300), title="Deep review", severity="warning")

    def _show_proposals(self) -> None:
        options = self.query_one("#audit-proposals", OptionList)
        options.clear_options()
        for n, proposal in enumerate(self.proposals):
            options.add_option(Option(Text(inert_line(proposal.describe(), 400)), id=str(n)))
        status = (f"Deep review: {len(self.proposals)} proposal(s) — a accept, n reject"
                  if self.proposals else "Deep review: no proposals left")
        self.query_one("#audit-review-status", Static).update(Text(status, style="italic"))
        if self.proposals:
            options.highlighted = 0

    def _current_proposal(self) -> int | None:
        if not self.deep or not self.proposals:
            return None
        highlighted = self.query_one("#audit-proposals", OptionList).highlighted
        return highlighted if highlighted is not None and highlighted < len(self.proposals) else 0

    def action_accept_proposal(self) -> None:
        index = self._current_proposal()
        if index is None:
            return
        from agenttui.agent.deep_review import apply_proposal

        proposal = self.proposals.pop(index)
        self._show_proposals()
        self._write("accept", _accept, self.services.memory, proposal, apply_proposal)

    def action_reject_proposal(self) -> None:
        index = self._current_proposal()
        if index is not None:
            self.proposals.pop(index)
            self._show_proposals()

    @property
    def table(self) -> AuditTable:
        return self.query_one(AuditTable)

    # -- computing ------------------------------------------------------------
    def refresh_audit(self) -> None:
        self._audit()

    @work(thread=True, exclusive=True, group="audit")
    def _audit(self) -> None:
        from agenttui.core.audit.findings import audit
        from agenttui.core.audit.vectors import embedder_for
        from agenttui.sync.conflicts import memory_conflicts

        memory, settings = self.services.memory, self.services.settings.memory
        items = memory.items("all", include_expired=True)
        run = functools.partial(audit, items, now=self.now, stale_days=settings.stale_days,
                                max_chars=settings.max_note_chars,
                                redact_patterns=self.services.settings.redaction.extra_patterns,
                                sync_conflicts=memory_conflicts(self.services.paths))
        embed, warning = embedder_for(self.services), None
        try:
            findings = run(embed=embed)
        except Exception as error:  # EmbeddingError, or an endpoint gone: the lexical audit still runs
            if embed is None:
                raise
            findings = run()
            warning = f"Duplicates by meaning are off: {error}"
        from agenttui.sync.conflicts import other_conflicts

        self.sync_conflicts_elsewhere = other_conflicts(self.services.paths)
        self.post_message(self._Audited(rows_from(items, findings), warning))

    @on(_Audited)
    def _audited(self, message: _Audited) -> None:
        self.rows = message.rows
        if message.warning and not self.embeddings_warned:
            self.embeddings_warned = True
            self.notify(message.warning, title="Audit", severity="warning")
        self._show()

    def _show(self) -> None:
        self.table.show(self.rows, self.flag, self.sort, self.reverse)
        counts = Counter(flag for row in self.rows for flag in row.flags)
        flagged = sum(1 for row in self.rows if row.flags)
        count = len(self.rows)
        summary = Text(f"{count} item{'' if count == 1 else 's'}, {flagged} flagged")
        for flag in AUDIT_FLAGS:
            if counts[flag]:
                summary.append(f" · {FLAG_TAGS[flag]} {counts[flag]}")
        if self.sync_conflicts_elsewhere:  # on this line: the summary is one row high
            summary.append(f" · {self.sync_conflicts_elsewhere} sync conflict(s) on chats/files: /sync status",
                           style="bold")
        summary.append(f"   showing {len(self.table.shown)}"
                       f" ({self.flag or 'all'}; sorted by {COLUMNS[self.sort][0]}"
                       f"{' ↑' if self.reverse else ''})", style="dim")
        self.query_one("#audit-summary", Static).update(summary)
        self._show_reasons()

    @on(DataTable.RowHighlighted)
    def _show_reasons(self, event: DataTable.RowHighlighted | None = None) -> None:
        row = self.table.current_row()
        self.query_one("#audit-reasons", Static).update(self._explain(row) if row is not None else Text())

    def _explain(self, row: AuditRow) -> Group:
        """Reasons, then duplicates side by side (this text | the twin's, and why)."""
        text = Text()
        for flag in row.flags:
            text.append(f"{flag}: ", style="bold")
            text.append(inert_line(row.reasons.get(flag, ""), 400) + "  ")
        for name, note in row.notes.items():
            text.append(f"{name}: ", style="bold cyan")
            text.append(inert_line(note, 400) + "  ")
        parts: list = [text]
        if row.matched:
            by_id = {r.item.id: r.item for r in self.rows}
            table = Table(box=None, expand=True, show_edge=False, padding=(0, 1))
            table.add_column("this item", ratio=1)
            table.add_column("duplicate", ratio=1)
            table.add_column("why", ratio=1, style="dim")
            for twin_id, why in list(row.matched.items())[:3]:
                twin = by_id.get(twin_id)
                if twin is not None:
                    table.add_row(inert_line(row.item.display, 200), inert_line(twin.display, 200), why)
            parts.append(table)
        return Group(*parts)

    # -- sort / filter ---------------------------------------------------------
    @on(DataTable.HeaderSelected)
    def _header(self, event: DataTable.HeaderSelected) -> None:
        key = str(event.column_key.value)
        self.reverse = (not self.reverse) if key == self.sort else False
        self.sort = key
        self._show()

    def action_cycle_sort(self) -> None:
        self.sort = SORT_ORDER[(SORT_ORDER.index(self.sort) + 1) % len(SORT_ORDER)]
        self._show()

    def action_reverse_sort(self) -> None:
        self.reverse = not self.reverse
        self._show()

    def action_filter(self, flag: str | None) -> None:
        select = self.query_one("#audit-filter", Select)
        value = flag if flag is not None else Select.NULL
        if select.value != value:
            select.value = value  # -> Select.Changed -> _filter_changed
        else:
            self._set_filter(flag)

    @on(Select.Changed, "#audit-filter")
    def _filter_changed(self, event: Select.Changed) -> None:
        self._set_filter(event.value if isinstance(event.value, str) else None)

    def _set_filter(self, flag: str | None) -> None:
        self.flag = flag
        self._show()

    # -- actions -----------------------------------------------------------------
    def action_edit(self) -> None:
        row = self.table.current_row()
        if row is not None:
            self.query_one(MemoryItemEditor).start(row.item)

    @on(MemoryItemEditor.EditSubmitted)
    def _edit_submitted(self, event: MemoryItemEditor.EditSubmitted) -> None:
        event.stop()
        event.editor.stop()
        self.table.focus()
        self._write("edit", _edit, self.services.memory, event.item, event.text)

    @on(MemoryItemEditor.EditCancelled)
    def _edit_cancelled(self, event: MemoryItemEditor.EditCancelled) -> None:
        event.stop()
        event.editor.stop()
        self.table.focus()

    def action_toggle_pin(self) -> None:
        row = self.table.current_row()
        if row is not None:
            self._write("pin", _pin, self.services.memory, row.item.id, not row.item.pinned)

    def action_delete(self) -> None:
        row = self.table.current_row()
        if row is not None:
            self._confirm_delete([row], f"Delete this {row.item.kind}?", require_word=None)

    def action_bulk_delete(self) -> None:
        flagged = [row for row in self.table.shown if row.flags]
        if not flagged:
            self.notify("No flagged items in view.", title="Audit")
            return
        self._confirm_delete(flagged, f"Delete {len(flagged)} flagged items?", require_word="delete")

    def _confirm_delete(self, rows: list[AuditRow], title: str, require_word: str | None) -> None:
        from agenttui.ui.screens.confirm import ConfirmScreen

        scopes = Counter(row.item.scope for row in rows)
        flags = Counter(flag for row in rows for flag in row.flags)
        statement = (
            f"{len(rows)} memory item(s) will be deleted: {scopes['user']} user, "
            f"{scopes['profile']} profile '{self.services.profile_name}'."
        )
        if flags:
            statement += " Flags: " + ", ".join(f"{flag} {n}" for flag, n in flags.most_common()) + "."
        if len(rows) == 1:
            statement += f"\n{rows[0].item.display[:200]}"
        ids = [row.item.id for row in rows]

        def done(confirmed: bool | None) -> None:
            if confirmed:
                self._write("delete", _delete, self.services.memory, ids)

        self.app.push_screen(
            ConfirmScreen(title, statement, backup=self.services.paths.memory_backups_dir,
                          require_word=require_word),
            done,
        )

    def action_merge(self) -> None:
        row = self.table.current_row()
        if row is None:
            return
        live = {r.item.id: r.item for r in self.rows}
        twins = [twin for twin in row.twins if twin in live]
        if not twins or not {"duplicate", "conflict"} & set(row.flags):
            self.notify("This item has no duplicates to merge.", title="Audit")
            return
        from agenttui.ui.screens.merge_choice import MergeChoiceScreen

        group = [row.item.id, *twins]

        def chosen(keep: str | None) -> None:
            if keep is not None:
                self._write("merge", _merge, self.services.memory, keep, [i for i in group if i != keep])

        self.app.push_screen(MergeChoiceScreen([live[i] for i in group], row.matched), chosen)

    @work(thread=True, group="audit-write")
    def _write(self, verb: str, fn, *args) -> None:
        try:
            note, error = fn(*args), None
        except Exception as exc:
            note, error = "", str(exc) or type(exc).__name__
        self.post_message(self._Written(verb, note, error))

    @on(_Written)
    def _written(self, message: _Written) -> None:
        if message.error:
            self.notify(message.error, title=f"Audit {message.verb} failed", severity="error")
            return
        if message.note:
            self.notify(message.note, title="Audit")
        self.changed = True
        self.app.post_message(self.MemoryChanged())
        self.refresh_audit()

    def on_key(self, event: events.Key) -> None:
        # Esc and the next key typed at once reach us as one alt+key (escape_then_key.py)
        self._handover.on_key(self.app, event, self.action_close)

    def action_close(self) -> None:
        self.dismiss(self.changed)


def _accept(memory, proposal, apply_proposal) -> str:
    outcome = apply_proposal(memory, proposal)
    if isinstance(outcome, str):
        return outcome
    if not outcome.ok:
        raise ValueError(f"Not applied: {outcome.reason}")
    return f"Applied: {proposal.action}."


def _edit(memory, item, text) -> str:
    result = apply_edit(memory, item, text)
    if not result.ok:
        raise ValueError(f"Not saved: {result.reason}")
    return ""


def _pin(memory, item_id, pinned) -> str:
    memory.set_pinned(item_id, pinned)
    return ""


def _delete(memory, ids) -> str:
    removed = memory.remove(ids)
    return f"Deleted {len(removed)} item(s). Backup: {memory.last_backup}"


def _merge(memory, keep_id, drop_ids) -> str:
    memory.merge(keep_id, drop_ids)
    return f"Merged {len(drop_ids)} duplicate(s) into the chosen wording. Backup: {memory.last_backup}"
