"""The Memory pane: notes and facts of both scopes, editable in place.

Decisions:

* **One list, both kinds and scopes.** An ``OptionList`` (line-rendered, so a
  few hundred items cost nothing) sorted pinned first, then user scope, then
  profile scope, newest first. Each row is compact but readable at the pane's
  narrowest (24 columns): a pin glyph (``★``), the scope as a dim word (``user``
  for every profile, ``proj`` for this profile only) and, only when the user
  did not write it themselves, where it came from (``model``, ``auto`` for
  the extraction pass, ``fix`` for a noticed correction, ``import``). The
  list's tooltip spells the legend and the keys out; the border subtitle
  counts items and pinned items.
* **Add** with the Input at the bottom: ``key = value`` is a fact, anything
  else a note (see :mod:`.memory_item_editor`); ``s`` switches the scope new
  items go to.
* **Every write goes through the core's gate** (``MemoryStore``). A rejection
  is an error toast with the gate's reason; nothing is written.
* **Delete is immediate, with undo** rather than a confirm dialog: deleting
  one item is small and the store backs the file up before removing; ``u``
  (or the toast's hint) puts the removed item back as it was (its id, dates,
  pin and use count; not through the gate: a refused re-add lost it). Bulk and whole-scope deletes (the app's
  reset-memory action, the audit) use the confirm dialog instead.
* **Screened where read** (core/memory/read_screen.py): an item that reads
  like an instruction is flagged ``⚠held`` and sent to no model until ``k``
  keeps it; secrets show masked, as they are sent.
* **Review queue**: notes other agents gave ``mcp serve`` (``+review`` rows,
  first) are not memory yet: ``k`` accepts one (through the gate again), ``d``
  rejects it. The queue's file is looked at every two seconds, so a note an
  agent adds while the pane is open shows up.
* **An offer belongs to its profile**: a "remember this?" (or "remembered",
  with Undo) row is made by one profile's chat, and its Remember / Undo act on
  that profile's memory. A profile switch takes it out of the pane and keeps it
  (the last one per profile, in this process only) until that profile is
  active again, where it is shown as it was; it is kept rather than dropped so
  an unanswered question is not lost by a look at another profile. An offer
  that arrives after the switch (a turn of the old profile ending late) waits
  for its profile the same way, and so does what ``u`` would undo (a delete, a
  reset): put back in another profile, a profile-scope note landed there.
* Store calls run in thread workers (file locks, fsync); handlers update the
  list and post :class:`MemoryPane.MemoryChanged` so the app rebuilds the
  next turn's prompt from disk.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from agenttui.core.memory import read_screen
from agenttui.core.models import MemoryItem, WriteResult
from agenttui.ui import messages
from agenttui.ui.inert import inert_line
from agenttui.ui.survivable_errors import dispatch_guarded
from agenttui.ui.widgets.command_list import CommandList, focus_now
from agenttui.ui.widgets.escape_aware_input import EscapeAwareInput
from agenttui.ui.widgets.memory_item_editor import MemoryItemEditor, apply_edit, parse_entry
from agenttui.ui.widgets.memory_offer import MemoryOffer

if TYPE_CHECKING:
    from pathlib import Path

    from agenttui.bootstrap import Services

# Where an item came from, shown only when the user did not write it themselves.
SOURCE_TAGS = {"correction": "fix", "model": "model", "extraction": "auto", "import": "import"}
SCOPE_TAGS = {"user": "user", "profile": "proj"}
PIN_GLYPH = "★"
_LIST_ACTIONS = frozenset({"edit", "toggle_pin", "delete", "undo", "toggle_scope", "focus_add"})
LEGEND = (
    "★ pinned (always in the prompt)\n"
    "user: shared by every profile · proj: this profile only\n"
    "model / auto / fix / import: proposed by the model, found by extraction, "
    "from a correction you made, imported (no tag: you wrote it)\n"
    "⚠held: reads like an instruction, not sent until you keep it (k)\n"
    "+review: another agent's note (mcp serve), stored only if you accept (k) or gone if you reject (d)\n"
    "e edit · p pin · d delete/reject · u undo · k keep/accept · s scope for new items · a add"
)


def item_label(item: MemoryItem, kept: Collection[str] = ()) -> Text:
    """One compact, inert row (user data is never parsed as markup), secrets masked, and
    flagged "held" when the read screen keeps it out of prompts until the user keeps it (k)."""
    label = Text(no_wrap=True, overflow="ellipsis")
    if read_screen.screen(item).quarantined and read_screen.content_hash(item) not in kept:
        label.append("⚠held ", style="bold red")
    item = read_screen.shown(item)
    label.append(PIN_GLYPH if item.pinned else " ", style="bold yellow")
    user = item.scope == "user"
    label.append(" ")
    label.append(SCOPE_TAGS.get(item.scope, item.scope[:4]), style="dim cyan" if user else "dim magenta")
    source = SOURCE_TAGS.get(item.source)
    if source is None and item.source not in ("explicit", "manual"):
        source = item.source
    if source:
        label.append(f"·{source}", style="dim")
    label.append(" ")
    if item.kind == "fact":
        label.append(inert_line(str(item.key), 64), style="bold")
        label.append(" = ")
        label.append(inert_line(str(item.value), 300))
    else:
        label.append(inert_line(item.text, 300))
    return label


def review_label(item: MemoryItem) -> Text:
    """A row of the review queue: another agent's note waiting for accept (k) or reject (d)."""
    item = read_screen.shown(item)
    label = Text(no_wrap=True, overflow="ellipsis")
    label.append("+review ", style="bold yellow")
    user = item.scope == "user"
    label.append(SCOPE_TAGS.get(item.scope, item.scope[:4]), style="dim cyan" if user else "dim magenta")
    label.append(f"·{inert_line(item.origin.client or item.source, 40)} ", style="dim")
    label.append(inert_line(item.display, 300))
    return label


def counts_line(items: list[MemoryItem]) -> str:
    """The border subtitle: "3 items · 1 pinned" (no pinned part when none is)."""
    pinned = sum(1 for item in items if item.pinned)
    text = f"{len(items)} item" + ("" if len(items) == 1 else "s")
    return text + (f" · {pinned} pinned" if pinned else "")


def sort_key(item: MemoryItem):
    return (not item.pinned, 0 if item.scope == "user" else 1, -item.updated.timestamp())


class MemoryPane(Vertical):
    """Left sidebar; construct with the app's ``services``."""

    DEFAULT_CSS = """
    MemoryPane { height: 1fr; }
    /* The scrollbar's column is kept even while nothing scrolls, so rows never re-wrap (and lose
       their last line) when it appears, and one thin bar never sits on text. */
    MemoryPane > #memory-list { height: 1fr; border: none; scrollbar-gutter: stable;
                                scrollbar-size-vertical: 1; padding: 0 0 0 1; }
    MemoryPane > #memory-list > .option-list--option { padding: 0 1 0 0; }
    MemoryPane > #memory-editor { display: none; border: round $accent; }
    MemoryPane > #memory-add { dock: bottom; }
    """

    BINDINGS = [
        Binding("e", "edit", "Edit", id="memory.edit"),
        Binding("p", "toggle_pin", "Pin", id="memory.pin"),
        Binding("d,delete", "delete", "Delete", id="memory.delete"),
        Binding("u", "undo", "Undo delete", id="memory.undo"),
        Binding("k", "keep", "Keep a held item / accept a review", id="memory.keep"),
        Binding("s", "toggle_scope", "Scope for new", id="memory.scope"),
        Binding("a", "focus_add", "Add", id="memory.add"),
        # Back to the chat, the pane staying open; the editor's own Esc wins.
        Binding("escape", "app.focus_pane('chat')", "Chat", id="memory.to_chat"),
    ]

    class MemoryChanged(messages.MemoryChanged):
        """Memory on disk changed; ``item_ids`` are the items touched.

        A subclass of the app-level ``messages.MemoryChanged``, so the main
        screen's ``@on(messages.MemoryChanged)`` routing sees it too.
        """

        def __init__(self, pane: MemoryPane, verb: str, item_ids: tuple[str, ...] = ()) -> None:
            super().__init__()
            self.pane = pane
            self.verb = verb
            self.item_ids = item_ids

        @property
        def control(self) -> MemoryPane:
            return self.pane

    class _Loaded(Message):
        def __init__(self, items: list[MemoryItem], problems: list[str], kept: frozenset[str] = frozenset(),
                     reviews: list[MemoryItem] | None = None) -> None:
            super().__init__()
            self.items = items
            self.problems = problems
            self.kept = kept  # content hashes the user kept (read in the worker, not the UI thread)
            self.reviews = reviews or []  # other agents' notes waiting for accept / reject

    class _Written(Message):
        def __init__(self, verb: str, outcome: object, error: str | None, undo: list[MemoryItem]) -> None:
            super().__init__()
            self.verb = verb
            self.outcome = outcome
            self.error = error
            self.undo = undo

    async def _on_message(self, message: Message) -> None:
        # a bug in one handler is a notice; this widget keeps its loop and stays (survivable_errors)
        await dispatch_guarded(self, message, super()._on_message)

    def __init__(self, services: Services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self.border_title = "Memory"  # the main screen's pane title
        self.items: dict[str, MemoryItem] = {}
        self.reviews: dict[str, MemoryItem] = {}
        self._review_stamp: object = None
        self.add_scope = "user"
        self._undo: list[MemoryItem] = []
        # ids whose delete is on its way to disk: a reload meanwhile must not show them again, or
        # the next ``d`` would land on an item already gone
        self._deleting: set[str] = set()
        self._reset_undo: tuple[Path, str] | None = None  # (snapshot, scope) of the last reset
        self._reported_problems: set[str] = set()
        self._offer_profile: str | None = None  # the profile the shown offer was made in
        self._parked_offers: dict[str, tuple[str, WriteResult]] = {}  # profile -> its unanswered offer
        # What ``u`` undoes belongs to the profile it was done in, as an offer does (module doc).
        self._undo_profile = services.profile_name
        self._parked_undo: dict[str, tuple[list[MemoryItem], tuple[Path, str] | None]] = {}

    # -- layout ---------------------------------------------------------------
    def compose(self) -> ComposeResult:
        listing = CommandList(id="memory-list", markup=False, typing_bindings=("memory.add", "memory.edit"))
        listing.tooltip = LEGEND
        yield listing
        yield MemoryItemEditor(id="memory-editor")
        yield MemoryOffer(id="memory-offer")
        yield EscapeAwareInput(id="memory-add")
        # Hidden: notices memory and history changed on disk (another shell, a restore) and
        # tells the main screen, which reloads this pane and History.
        from agenttui.ui.widgets.data_watcher import DataWatcher

        yield DataWatcher(self.services)

    def on_mount(self) -> None:
        self._show_add_scope()
        self.reload()
        self.set_interval(2.0, self._check_reviews)

    def _check_reviews(self) -> None:
        """Reload when another process (``mcp serve``) held or took a note: one ``stat``."""
        queue = getattr(self.services.memory, "review_queue", None)
        stamp = queue.stamp() if queue is not None else None
        if stamp != self._review_stamp:
            self._review_stamp = stamp
            self.reload()

    def _show_add_scope(self) -> None:
        add = self.query_one("#memory-add", Input)
        # Fits the narrowest pane (24 columns: 18 for the text); "proj" says new items stay in
        # this profile. Its tooltip spells it out.
        add.tooltip = ("Enter adds a note, or a fact written key = value, to "
                       + ("your memory (every profile)" if self.add_scope == "user" else "this profile only")
                       + ". s in the list switches.")
        add.placeholder = "+ note / key=value" if self.add_scope == "user" else "+ proj: note/k=v"

    @property
    def option_list(self) -> OptionList:
        return self.query_one("#memory-list", OptionList)

    # -- loading --------------------------------------------------------------
    def reload(self) -> None:
        """Re-read memory from disk (after a profile switch, /remember, …)."""
        self._load()

    @work(thread=True, exclusive=True, group="memory-load")
    def _load(self) -> None:
        memory = self.services.memory
        items = memory.items("all")
        reviews = memory.reviews() if hasattr(memory, "reviews") else []
        self.post_message(self._Loaded(items, list(getattr(memory, "problems", []) or []), memory.kept_hashes(),
                                       reviews))

    @on(_Loaded)
    def _loaded(self, message: _Loaded) -> None:
        shown = [item for item in message.items if item.id not in self._deleting]
        self.items = {item.id: item for item in shown}
        self.reviews = {item.id: item for item in message.reviews if item.id not in self.items}
        option_list = self.option_list
        highlighted = option_list.highlighted_option
        keep = highlighted.id if highlighted else None
        keep_index = option_list.highlighted
        ordered = sorted(shown, key=sort_key)
        option_list.set_options([
            *(Option(review_label(item), id=item.id) for item in self.reviews.values()),
            *(Option(item_label(item, message.kept), id=item.id) for item in ordered),
        ])
        if keep in self.items or keep in self.reviews:
            option_list.highlighted = option_list.get_option_index(keep)
        elif keep_index is not None and option_list.option_count:
            # the highlighted item went (deleted): its neighbour takes the place, so a
            # second ``d`` acts without moving the cursor first
            option_list.highlighted = min(keep_index, option_list.option_count - 1)
        elif option_list.option_count:
            # never no highlight: the list's keys (e, p, d, shown in the footer) act on the
            # highlighted item, and shift+tab into the list highlights nothing by itself
            option_list.highlighted = 0
        for problem in message.problems:  # say where a corrupt file went
            if problem not in self._reported_problems:
                self._reported_problems.add(problem)
                self.notify(problem, title="Memory file problem", severity="error", timeout=15)
        self.border_subtitle = counts_line(shown) + (
            f" · {len(self.reviews)} to review" if self.reviews else "")

    # -- writes ---------------------------------------------------------------
    @work(thread=True, group="memory-write")
    def _write(self, verb: str, fn, *args, undo: list[MemoryItem] | None = None, **kwargs) -> None:
        try:
            outcome, error = fn(*args, **kwargs), None
        except Exception as exc:  # the gate / store explains itself in str(exc)
            from agenttui.core.errors import explain  # a full disk, a lock held: the policy's words

            outcome, error = None, explain(exc) or str(exc) or type(exc).__name__
        self.post_message(self._Written(verb, outcome, error, undo or []))

    @on(_Written)
    def _written(self, message: _Written) -> None:
        if message.verb == "delete":
            self._deleting.difference_update(item.id for item in message.undo)
        if message.error:
            self.notify(message.error, title=f"Memory {message.verb} failed", severity="error")
            if message.verb == "delete":
                self.reload()  # the row was taken out at the press: show it again
            return
        outcome = message.outcome
        ids: tuple[str, ...] = ()
        if isinstance(outcome, WriteResult):
            if not outcome.ok:
                self.notify(outcome.reason or "rejected", title="Not remembered", severity="error")
                return
            ids = (outcome.item.id,) if outcome.item else ()
            self._report(message.verb, outcome)
        elif isinstance(outcome, MemoryItem):
            ids = (outcome.id,)
        elif isinstance(outcome, list):
            ids = tuple(item.id for item in outcome if isinstance(item, MemoryItem))
        if message.verb == "restore" and isinstance(outcome, int):
            self.notify(f"Restored {outcome} item(s) from the snapshot taken before the reset.",
                        title="Memory")
        if message.verb in ("accept", "reject"):
            said = "Accepted: stored in memory." if message.verb == "accept" else "Rejected: it was not stored."
            self.notify(said, title="Memory", timeout=3)
        if message.undo:
            self._undo = message.undo
            self.notify(
                f"Deleted {len(message.undo)} item(s). Press u in the Memory pane to undo.",
                title="Memory",
            )
        self.reload()
        self.post_message(self.MemoryChanged(self, message.verb, ids))

    def _report(self, verb: str, result: WriteResult) -> None:
        if result.pending or result.status == "pending":
            self.notify("Waiting for your yes before it is stored.", title="Memory")
        elif result.status == "refreshed":
            self.notify("Already remembered; refreshed the existing item.", title="Memory")
        elif result.reason:
            self.notify(result.reason, title=f"Memory {verb}")
        if result.archived:
            names = ", ".join(item.display[:40] for item in result.archived)
            self.notify(f"Over the cap; archived (restorable): {names}", title="Memory", timeout=8)

    def highlighted_item(self) -> MemoryItem | None:
        option = self.option_list.highlighted_option
        return self.items.get(option.id) if option and option.id else None

    def highlighted_review(self) -> MemoryItem | None:
        option = self.option_list.highlighted_option
        return self.reviews.get(option.id) if option and option.id else None

    # -- add ------------------------------------------------------------------
    @on(Input.Submitted, "#memory-add")
    def _add_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        entry = parse_entry(event.value)
        if entry is None:
            return
        event.input.value = ""
        memory = self.services.memory
        if entry.is_fact:
            self._write("add", memory.set_fact, entry.key, entry.value, scope=self.add_scope, source="manual")
        else:
            self._write("add", memory.add_note, entry.text, scope=self.add_scope, source="manual")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The list's keys act (and show in the footer) only on the list: in the Add field or the
        editor they type (as History's)."""
        if action in _LIST_ACTIONS:
            return self.screen.focused is self.option_list
        return True

    def action_focus_add(self) -> None:
        focus_now(self.query_one("#memory-add", Input))

    def action_toggle_scope(self) -> None:
        self.add_scope = "profile" if self.add_scope == "user" else "user"
        self._show_add_scope()
        self.notify(f"New items go to the {self.add_scope} scope.", title="Memory", timeout=3)

    # -- edit -----------------------------------------------------------------
    @on(OptionList.OptionSelected, "#memory-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_edit()

    def action_edit(self) -> None:
        item = self.highlighted_item()
        if item is not None:
            self.query_one(MemoryItemEditor).start(item)

    @on(MemoryItemEditor.EditSubmitted)
    def _edit_submitted(self, event: MemoryItemEditor.EditSubmitted) -> None:
        event.stop()
        event.editor.stop()
        self.option_list.focus()
        self._write("edit", apply_edit, self.services.memory, event.item, event.text)

    @on(MemoryItemEditor.EditCancelled)
    def _edit_cancelled(self, event: MemoryItemEditor.EditCancelled) -> None:
        event.stop()
        event.editor.stop()
        self.option_list.focus()

    # -- pin / delete / undo --------------------------------------------------
    def action_toggle_pin(self) -> None:
        item = self.highlighted_item()
        if item is not None:
            self._write("pin", self.services.memory.set_pinned, item.id, not item.pinned)

    def action_keep(self) -> None:
        review = self.highlighted_review()
        if review is not None:
            self._write("accept", self.services.memory.accept_review, review.id)
            return
        item = self.highlighted_item()
        if item is not None:
            self._write("keep", self.services.memory.keep, item.id)

    def action_delete(self) -> None:
        review = self.highlighted_review()
        if review is not None:
            self._write("reject", self.services.memory.reject_review, review.id)
            return
        item = self.highlighted_item()
        if item is not None:
            # the row goes at once and the highlight moves to its neighbour: the next press
            # acts on that one, however quickly it follows (the write is still under way)
            self._deleting.add(item.id)
            self.items.pop(item.id, None)
            self.option_list.remove_option(item.id)
            self._write("delete", self.services.memory.remove, [item.id], undo=[item])

    def action_undo(self) -> None:
        if not self._undo and self._reset_undo is not None:
            self._offer_reset_undo(*self._reset_undo)
            return
        if not self._undo:
            self.notify("Nothing to undo.", title="Memory", timeout=3)
            return
        items, self._undo = self._undo, []
        self._write("undo", self.services.memory.put_back, items)

    # -- undoing a reset ------------------------------------------------------
    def remember_reset(self, snapshot: Path, scope: str) -> None:
        """After ``/reset-memory``: ``u`` offers to put back what ``snapshot`` holds of ``scope``."""
        self._undo = []
        self._reset_undo = (snapshot, scope)
        self.reload()

    @work(group="memory-reset-undo", exclusive=True)
    async def _offer_reset_undo(self, snapshot: Path, scope: str) -> None:
        from agenttui.ui.screens.confirm import ConfirmScreen

        what = {"all": "both scopes", "user": "the user scope"}.get(scope, f"profile {self.services.profile_name!r}")
        statement = (f"The memory of {what} as it was before the reset comes back from the snapshot "
                     f"{snapshot}. Items added since stay.")
        if await self.app.push_screen_wait(ConfirmScreen("Undo the memory reset?", statement,
                                                         confirm_label="Restore")):
            self._reset_undo = None
            self._write("restore", self.services.memory.restore_snapshot, snapshot, scope)

    # -- corrections and model proposals -----------------------------
    def offer(self, text: str, result: WriteResult) -> bool:
        """Show an offer to remember ``text`` (or a saved item with Undo); True if it is shown now.

        ``result`` is what the gate returned: ``pending`` (or an item that
        was not stored) -> Remember/Dismiss; stored -> Undo/OK; rejected ->
        an error toast with the reason.
        """
        if not result.ok:
            self.notify(result.reason or "rejected", title="Not remembered", severity="error")
            return False
        made_in = _offer_profile(result) or self.services.profile_name
        if made_in != self.services.profile_name:  # its turn ended after a switch: wait for its profile
            self._parked_offers[made_in] = (text, result)
            return False
        self._offer_profile = made_in
        self.query_one(MemoryOffer).show(text, result)
        if result.ok and not (result.pending or result.status == "pending"):
            self.reload()
        return True

    def profile_switched(self) -> None:
        """The stores now point at another profile: the offer shown leaves with its profile, the
        new profile's own comes back (module doc), and the list is read again."""
        offer = self.query_one(MemoryOffer)
        if offer.display and offer.result is not None and self._offer_profile is not None:
            self._parked_offers[self._offer_profile] = (offer.text, offer.result)
        offer.hide()
        self._offer_profile = None
        waiting = self._parked_offers.pop(self.services.profile_name, None)
        if waiting is not None:
            self.offer(*waiting)
        if self._undo or self._reset_undo is not None:
            self._parked_undo[self._undo_profile] = (self._undo, self._reset_undo)
        self._undo_profile = self.services.profile_name
        self._undo, self._reset_undo = self._parked_undo.pop(self._undo_profile, ([], None))
        self.reload()

    @on(MemoryOffer.Chosen)
    def _offer_chosen(self, event: MemoryOffer.Chosen) -> None:
        event.stop()
        self._offer_profile = None
        memory, item = self.services.memory, event.result.item
        if event.choice == "remember" and item is not None:
            self._write("add", memory.accept_proposal, item)
        elif event.choice == "undo" and item is not None:
            self._write("undo", memory.remove, [item.id])
        elif event.choice == "dismiss" and item is not None:
            memory.discard_pending(item.id)  # in-process only: no I/O


def _offer_profile(result: WriteResult) -> str | None:
    """The profile whose chat made the offer (the item's origin), where known."""
    return result.item.origin.profile if result.item is not None else None
