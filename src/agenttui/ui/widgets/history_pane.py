"""The History pane (docs/agent.md): conversations, search, rename/archive/restore/delete.

Layout, top to bottom: a search Input, a one-line mode label, then either
the conversation list (paged, see :mod:`.conversation_list`) or the search
results, and a rename Input that appears only while renaming.

Decisions:

* **Search is debounced** (``SEARCH_DELAY``) and runs ``HistoryStore.search``
  in an exclusive thread worker: typing fast cancels the stale query, and a
  result that arrives for an older query text is dropped. A page holds
  ``SEARCH_LIMIT`` hits; a cut list says so on the mode line, and reaching
  its end asks for the next page (the search again with a page more, only
  the hits not shown yet added below, so the rows seen stay put).
  Conversations whose title holds the query's words come first
  (:func:`agenttui.core.history.search.title_hits`).
* **By meaning too**: when the profile's messages have vectors, the worker
  fuses the full-text hits with the semantic ranking of the query
  (:mod:`agenttui.core.recall.search_by_meaning`); else, or when it fails, the
  full-text hits alone, silently.
* **Opening** a conversation or a hit posts
  :class:`HistoryPane.ConversationSelected` (a subclass of the app-level
  ``messages.ConversationRequested``), carrying the hit's message id so the
  chat opens at that message.
* **Focus and keys**: F3 lands on the conversation list
  (the search results while a search shows), never in the search box, so
  the list keys work at once. The footer shows only the keys that act where
  the focus is: the list's ``r`` ``a`` ``v`` ``d`` ``X`` on the conversation
  list, ``r`` ``a`` ``d`` on the search results too (acting on the hit's
  conversation; in the search box they would type), ``/`` outside the search
  box, and in it ``↓`` to go to the list. Esc is three bindings, one shown
  at a time, so the footer names what it does: cancel a rename, clear the
  search, else back to the chat.
* **Archive is the undo-able removal** (``a``, restore with ``a`` in the
  archived view, toggled with ``v``); **delete** and **clear history** are
  destructive: a confirm dialog states what goes, and a full backup
  (``core.backup.archive.create_backup``) is written before anything is deleted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, OptionList, Static

from agenttui.ui import messages
from agenttui.ui.one_shot import OneShot, set_timer
from agenttui.ui.survivable_errors import dispatch_guarded
from agenttui.ui.widgets.command_list import focus_now
from agenttui.ui.widgets.conversation_list import ConversationList, SearchResults
from agenttui.ui.widgets.edit_box import EditBox
from agenttui.ui.widgets.escape_aware_input import EscapeAwareInput

if TYPE_CHECKING:
    from agenttui.bootstrap import Services
    from agenttui.core.models import Conversation, SearchHit

SEARCH_DELAY = 0.25
_LIST_ACTIONS = frozenset({"rename", "archive_or_restore", "toggle_archived", "delete", "clear_history"})
_TYPING_BINDINGS = ("history.search", "history.rename")  # keys whose box takes what is typed next
_HIT_ACTIONS = frozenset({"rename", "archive_or_restore", "delete"})  # act on a search hit's conversation too
SEARCH_LIMIT = 200  # messages a page of results holds; shown grouped, one row per conversation


SEARCH_BOX_MAX = 500  # characters pastes fill the box to; the search uses the first 200 (core.history.search)
SEARCH_PASTE_MAX = 200  # characters one paste adds (a terminal may deliver a long paste in several)


class SearchBox(EscapeAwareInput):
    """The search Input, with ↓ to the list below shown in the footer (Input's own ↓ scrolls).

    A paste adds at most the first ``SEARCH_PASTE_MAX`` characters of its first
    line, and pastes fill the box to ``SEARCH_BOX_MAX`` at most (typing goes on):
    Textual's ``Input`` lays out its whole value on every key, so a pasted
    megabyte froze the app (a bare ``Input`` too), and no search uses more.
    """

    BINDINGS = [Binding("down", "to_list", "List", id="history.to_list")]
    ONLY_WHEN_EMPTY = True  # with text, Esc clears it and goes to the list, whose keys are commands

    def _on_paste(self, event: events.Paste) -> None:
        # Runs before Input's own _on_paste, which would insert the whole first line.
        if not event.text:
            return
        event.prevent_default()
        event.stop()
        selected = abs(self.selection.end - self.selection.start)
        room = max(0, min(SEARCH_PASTE_MAX, SEARCH_BOX_MAX - len(self.value) + selected))
        line = event.text[:SEARCH_PASTE_MAX * 2].split("\n", 1)[0].rstrip("\r")[:room]
        if line:
            if self.selection.is_empty:
                self.insert_text_at_cursor(line)
            else:
                self.replace(line, *self.selection)

    def action_to_list(self) -> None:
        pane = next((node for node in self.ancestors if isinstance(node, HistoryPane)), None)
        if pane is not None:
            pane.focus_default()


class HistoryPane(Vertical):
    """Right sidebar; construct with the app's ``services``."""

    DEFAULT_CSS = """
    HistoryPane { height: 1fr; }
    HistoryPane > #history-search { margin-bottom: 0; }
    HistoryPane > #history-mode { height: auto; max-height: 2; color: $text-muted; padding: 0 1; }
    HistoryPane > #conversation-list, HistoryPane > #search-results { height: 1fr; border: none;
        scrollbar-gutter: stable; scrollbar-size-vertical: 1; padding: 0 0 0 1; }  /* as Memory's */
    HistoryPane > OptionList > .option-list--option { padding: 0 1 0 0; }
    HistoryPane > #search-results { display: none; }
    HistoryPane > #history-rename { display: none; border: round $accent; }
    """

    BINDINGS = [
        Binding("slash", "focus_search", "Search", id="history.search"),
        Binding("r", "rename", "Rename", id="history.rename"),  # f2 is Memory everywhere
        Binding("a", "archive_or_restore", "Archive/restore", id="history.archive"),
        Binding("v", "toggle_archived", "Show archived", id="history.toggle_archived"),
        Binding("d,delete", "delete", "Delete", id="history.delete"),
        Binding("X", "clear_history", "Clear history", id="history.clear"),
        # Esc: the first of these that is enabled (check_action) is the one shown and run.
        Binding("escape", "cancel_rename", "Cancel rename", id="history.cancel_rename"),
        Binding("escape", "clear_search", "Clear search", id="history.clear_search"),
        # Back to the chat, the pane staying open, once Esc has nothing to clear here.
        Binding("escape", "escape", "Chat", id="history.to_chat"),
    ]

    class ConversationSelected(messages.ConversationRequested):
        """Open ``conversation_id`` (at ``message_id`` when it came from a search hit)."""

        def __init__(self, pane: HistoryPane, conversation_id: str, message_id: int | None = None) -> None:
            super().__init__(conversation_id, message_id)
            self.pane = pane

        @property
        def control(self) -> HistoryPane:
            return self.pane

    class _SearchFinished(Message):
        def __init__(self, query: str, hits: list, error: str | None, more: bool = False,
                     append: bool = False, generation: int = 0) -> None:
            super().__init__()
            self.query = query
            self.hits = hits
            self.error = error
            self.more = more  # there were more hits than the page holds
            self.append = append  # a next page: added below the rows shown
            self.generation = generation

    class _ActionFinished(Message):
        def __init__(self, verb: str, conversation_id: str | None, note: str, error: str | None) -> None:
            super().__init__()
            self.verb = verb
            self.conversation_id = conversation_id
            self.note = note
            self.error = error

    async def _on_message(self, message: Message) -> None:
        # a bug in one handler is a notice; this widget keeps its loop and stays (survivable_errors)
        await dispatch_guarded(self, message, super()._on_message)

    def __init__(self, services: Services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self.border_title = "History"  # the main screen's pane title
        self._search_timer: OneShot | None = None
        self._query = ""
        self._search_limit = SEARCH_LIMIT  # grows a page at a time as the results are scrolled
        self._search_generation = 0  # a page that comes after a newer search started is dropped
        self._renaming: str | None = None
        self._rename_from: OptionList | None = None  # the list the rename started on, focused after

    def compose(self) -> ComposeResult:
        yield SearchBox(placeholder="search history…  (/)", id="history-search")
        yield Static(id="history-mode")
        yield ConversationList(self.services, id="conversation-list", typing_bindings=_TYPING_BINDINGS)
        yield SearchResults(id="search-results", typing_bindings=_TYPING_BINDINGS)
        yield EditBox(id="history-rename")

    def on_mount(self) -> None:
        self.reload()

    @property
    def conversation_list(self) -> ConversationList:
        return self.query_one(ConversationList)

    @property
    def search_results(self) -> SearchResults:
        return self.query_one(SearchResults)

    @property
    def archived_view(self) -> bool:
        return self.conversation_list.archived

    def reload(self) -> None:
        """Reload from the database (after a profile switch or a new message)."""
        current = self.conversation_list.selected_conversation()
        self.conversation_list.reload(keep_id=current.id if current else None)
        if self._query:
            self._run_search(self._query, self._search_limit)  # as many as were shown

    # -- mode line ------------------------------------------------------------
    @on(ConversationList.CountChanged)
    def _count_changed(self, event: ConversationList.CountChanged) -> None:
        event.stop()
        if not self.search_results.display:  # else the search's line stands: the list is hidden
            self._show_mode()

    def _show_mode(self, text: str | None = None, hint: str | None = None) -> None:
        """The count on the mode line, the key hint in the border subtitle.

        At the default 30-column pane the two did not fit on one line (the
        hint was cut off); the subtitle sits on the border, where nothing else is.
        """
        if text is None:
            listing = self.conversation_list
            count = listing.total
            if listing.archived:
                text, hint = f"{count} archived", "v: back"
            else:
                text = f"{count} conversation" + ("" if count == 1 else "s")
                hint = "v: archived"
        self.query_one("#history-mode", Static).update(Text(text, no_wrap=True, overflow="ellipsis"))
        self.border_subtitle = hint or ""

    # -- focus and which keys act ---------------------------
    def focus_default(self) -> None:
        """Where F3 lands: the list on show, whose keys then work (the search box took them)."""
        (self.search_results if self.search_results.display else self.conversation_list).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        focused = self.screen.focused
        if action in _HIT_ACTIONS and focused is self.search_results:
            return True
        if action in _LIST_ACTIONS:
            return focused is self.conversation_list
        search = self.query_one("#history-search", Input)
        if action == "focus_search":
            return focused is not search
        if action == "cancel_rename":
            return self._renaming is not None
        if action == "clear_search":
            return self._renaming is None and bool(search.value)
        return True

    async def _selected(self) -> Conversation | None:
        """The conversation the list keys act on: the list's row, or the search hit's conversation."""
        if self.screen.focused is self.search_results:
            option = self.search_results.highlighted_option
            hit = self.search_results.hit_for(option.id if option else None)
            if hit is None:
                return None
            import asyncio

            # in a thread: the store may be waiting on another process's lock
            return await asyncio.to_thread(self.services.history.get_conversation, hit.conversation_id)
        return self.conversation_list.selected_conversation()

    # -- search ---------------------------------------------------------------
    def action_focus_search(self) -> None:
        focus_now(self.query_one("#history-search", Input))

    @on(Input.Changed, "#history-search")
    def _search_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self._search_timer is not None:
            self._search_timer.stop()
        query = event.value.strip()
        if not query:
            self._query = ""
            self._show_results(False)
            return
        self._search_timer = set_timer(self, SEARCH_DELAY, lambda: self._run_search(query))

    @on(Input.Submitted, "#history-search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._search_timer is not None:
            self._search_timer.stop()
        query = event.value.strip()
        if query:
            self._run_search(query)
            self.search_results.focus()

    def _run_search(self, query: str, limit: int = SEARCH_LIMIT, append: bool = False) -> None:
        self._query = query
        self._search_limit = limit
        if not append:
            self._search_generation += 1
        self._search(query, limit, append, self._search_generation)

    @on(SearchResults.MoreWanted)
    def _more_wanted(self, event: SearchResults.MoreWanted) -> None:
        """The next page: the search again with a page more, its new hits added below."""
        event.stop()
        if self._query:
            self._run_search(self._query, self._search_limit + SEARCH_LIMIT, append=True)

    @work(thread=True, exclusive=True, group="history-search")
    def _search(self, query: str, limit: int, append: bool, generation: int) -> None:
        from agenttui.core.recall.search_by_meaning import with_meaning

        titles: list[SearchHit] = []
        try:
            from agenttui.core.history.search import search_messages, title_hits

            # one more than the page: whether the list is cut is known, not guessed
            hits, error = search_messages(self.services.history, query, limit=limit + 1), None
            titles = title_hits(self.services.history, query, limit)
        except Exception as exc:  # e.g. an FTS syntax error the store did not absorb
            hits, error = [], str(exc)
        more = len(hits) > limit
        hits = with_meaning(self.services, query, titles + hits[:limit])  # never raises; may add a few
        self.post_message(self._SearchFinished(query, hits, error, more, append, generation))

    @on(_SearchFinished)
    def _search_finished(self, message: _SearchFinished) -> None:
        if message.query != self._query or message.generation != self._search_generation:
            return  # typed on since
        if message.error:
            self.notify(message.error, title="Search failed", severity="error")
        results = self.search_results
        added = results.show_hits(message.hits, more=message.more, append=message.append)
        self._show_results(True)
        self._show_mode(_results_line(results.option_count, results.hit_count, results.more),
                        "Esc: clear search")  # as the footer says
        if message.append and message.more and not added:
            self._run_search(self._query, self._search_limit + SEARCH_LIMIT, append=True)  # this page held none new

    def _show_results(self, on_: bool) -> None:
        # The focus follows from the list that hides to the one that shows (↓ pressed before
        # the debounced results came would otherwise leave it nowhere).
        follow = self.screen.focused in (self.conversation_list, self.search_results)
        self.search_results.display = on_
        self.conversation_list.display = not on_
        if follow:
            (self.search_results if on_ else self.conversation_list).focus()
        if not on_:
            self._show_mode()

    def action_cancel_rename(self) -> None:
        self._stop_rename()

    def action_clear_search(self) -> None:
        self.query_one("#history-search", Input).value = ""
        self.conversation_list.focus()

    async def action_escape(self) -> None:
        """Esc: end a rename, else clear the search, else back to the chat."""
        search = self.query_one("#history-search", Input)
        if self._renaming:
            self._stop_rename()
        elif search.value:
            search.value = ""
            self.conversation_list.focus()
        else:
            await self.app.run_action("focus_pane('chat')")

    # -- open -----------------------------------------------------------------
    @on(OptionList.OptionSelected, "#conversation-list")
    def _conversation_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.ConversationSelected(self, event.option.id, None))

    @on(OptionList.OptionSelected, "#search-results")
    def _hit_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        hit = self.search_results.hit_for(event.option.id)
        if hit is not None:
            self.post_message(self.ConversationSelected(self, hit.conversation_id, hit.message_id))

    # -- rename ---------------------------------------------------------------
    async def action_rename(self) -> None:
        focused = self.screen.focused
        conversation = await self._selected()
        if conversation is None:
            return
        self._rename_from = focused if isinstance(focused, OptionList) else None
        self._renaming = conversation.id
        rename = self.query_one("#history-rename", EditBox)
        rename.border_title = "rename — Enter saves, Esc cancels"
        rename.begin(conversation.title or "")

    @on(Input.Submitted, "#history-rename")
    def _rename_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        cid, title = self._renaming, event.value.strip()
        self._stop_rename()
        if cid and title:
            self._act("rename", cid, _rename, title)

    def _stop_rename(self) -> None:
        self._renaming = None
        self.query_one("#history-rename", EditBox).end()
        back = self._rename_from
        (back if back is not None and back.display else self.conversation_list).focus()

    # -- archive / restore ----------------------------------------------------
    def action_toggle_archived(self) -> None:
        self.conversation_list.reload(archived=not self.archived_view)

    async def action_archive_or_restore(self) -> None:
        conversation = await self._selected()
        if conversation is None:
            return
        verb = "restore" if conversation.archived else "archive"
        self._act(verb, conversation.id, _archive if verb == "archive" else _restore)

    # -- delete / clear ----------------------------------------------
    async def action_delete(self) -> None:
        import asyncio

        from agenttui.ui.screens.confirm import ConfirmScreen

        conversation = await self._selected()
        if conversation is None:
            return
        # In a thread: the store may be waiting on another process's lock for a turn's write.
        count = await asyncio.to_thread(self.services.history.count_messages, conversation.id)
        statement = (
            f"The conversation {conversation.title or '(untitled)'!r} and its "
            f"{count} message(s) will be deleted from profile '{self.services.profile_name}'."
        )

        def done(confirmed: bool | None) -> None:
            if confirmed:
                self._act("delete", conversation.id, _delete, backup=True)

        self.app.push_screen(
            ConfirmScreen("Delete conversation?", statement, backup=self.services.paths.backups_dir),
            done,
        )

    async def action_clear_history(self) -> None:
        import asyncio

        from agenttui.ui.screens.confirm import ConfirmScreen

        history = self.services.history
        active, archived = await asyncio.to_thread(
            lambda: (history.count_conversations(False), history.count_conversations(True)))
        statement = (
            f"ALL history of profile '{self.services.profile_name}' will be deleted: "
            f"{active} conversation(s) and {archived} archived conversation(s)."
        )

        def done(confirmed: bool | None) -> None:
            if confirmed:
                self._act("clear", None, _clear, backup=True)

        self.app.push_screen(
            ConfirmScreen(
                "Clear history?", statement, backup=self.services.paths.backups_dir,
                require_word="delete", confirm_label="Clear history",
            ),
            done,
        )

    # -- the one worker every change goes through -----------------------------
    @work(thread=True, group="history-write")
    def _act(self, verb: str, cid: str | None, fn, *args, backup: bool = False) -> None:
        note = ""
        try:
            if backup:  # nothing is deleted unless the backup exists
                from agenttui.core.backup.archive import create_backup

                note = f"backup: {create_backup(self.services.paths)}"
            fn(self.services.history, cid, *args)
            error = None
        except Exception as exc:
            error = str(exc) or type(exc).__name__
        self.post_message(self._ActionFinished(verb, cid, note, error))

    @on(_ActionFinished)
    def _action_finished(self, message: _ActionFinished) -> None:
        if message.error:
            self.notify(message.error, title=f"History {message.verb} failed", severity="error")
            return
        done = {"rename": "Renamed", "archive": "Archived (v shows archived)", "restore": "Restored",
                "delete": "Deleted", "clear": "History cleared"}[message.verb]
        self.notify(f"{done}. {message.note}".strip(), title="History")
        self.reload()
        if message.verb in ("delete", "clear"):  # the chat must not keep a deleted one open
            self.post_message(messages.ConversationDeleted(message.conversation_id))
        self.post_message(messages.ConversationsChanged(message.conversation_id))


def _results_line(conversations: int, hits: int, more: bool = False) -> str:
    """The search header, short enough for the narrowest pane: the query is in the box above
    ("12 results for 'deploy …'" was cut at the default width). A cut list says so on a
    second line: the rest loads at its end."""
    if not conversations:
        return "no matches"
    line = f"{conversations} conversation" + ("" if conversations == 1 else "s")
    if hits or more:  # none: found by their titles alone
        line += f", {hits}{'+' if more else ''} hit" + ("" if hits == 1 and not more else "s")
    return line + "\nmore: scroll to the end" if more else line


def _rename(history, cid, title):
    history.rename(cid, title)


def _archive(history, cid):
    history.archive(cid)


def _restore(history, cid):
    history.restore(cid)


def _delete(history, cid):
    history.delete(cid)


def _clear(history, _cid):
    history.clear()
