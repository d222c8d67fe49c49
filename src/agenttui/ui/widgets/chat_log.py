"""The message list: a VerticalScroll that follows the bottom and pages history.

Only the latest ``PAGE`` messages of a conversation (fewer when they hold more
than ``START_CHARS`` of text: what fills the view) are mounted when it opens;
scrolling to the top loads the previous page from SQLite (in a thread worker)
and mounts it above, keeping the view where the user was reading. The log is
anchored (``VerticalScroll.anchor``): it follows new content until the user
scrolls up, and follows again once they scroll back to the bottom.

A conversation's first page is shown whole: its rows are
mounted with ``display: none`` and shown together once every reply's Markdown
has its blocks (parsed in a thread after mounting; the questions used to show
seconds before their replies under load), at most ``REVEAL_WAIT_S``. An older
page, paged in by scrolling up, is mounted and shown the same way, whole.

The log itself is never hidden. Showing the same conversation again (another
branch, a search hit in it) keeps the rows on screen until the new page is
ready and swaps them in one update: hiding the whole log for the wait left
every chat row blank for seconds on a busy machine, and for good in a user's
trial, and moved the focus off the log, which then needed putting back.

What this session's replies used (their "used: …" line) is kept here, in
memory only, so a reopened conversation shows the line again until restart.

A long conversation costs what a short one does: while the log follows the
end, each new message unmounts the stored messages above the latest
``KEEP_MOUNTED`` (fewer when they hold over ``KEEP_CHARS`` of text;
:meth:`ChatLog.trim_above`), and they come back a page at a
time by scrolling up, as for a reopened conversation. Every reply is a tree of
Markdown blocks (a 500-word reply is about 150 widgets); kept mounted, they
made every layout of the screen -- a key echoed in the prompt, a streamed
update -- slower turn by turn, and the process bigger.

What is mounted is a window of the conversation, bounded both ways. Paging up
unmounts what is below the page and ``KEEP_CHARS`` more (:meth:`ChatLog._trim_below`);
scrolling to the bottom of such a window pages the later messages back in and
unmounts what is far above. Scrolling up through a whole conversation used to
mount all of it, and it stayed mounted until the next turn (the soak bench's
process grew 180 MiB over 50 turns, most of it from its scrolls to the top).

``home`` / ``ctrl+home`` go to the conversation's start in one step: its first
page (read from the start of the active branch, ``START_CHARS`` of text: what
fills the view) replaces what is mounted, and the rest pages in lazily as the
user scrolls down. The page shows in the frame that hides the window it replaces;
that window is unmounted after, and a focus inside it moves to the log. A demanding user pressing
Home expects the first message, not one more page: paging up a page at a time
took 348 presses and 55 s for 100 long messages. ``end`` / ``ctrl+end`` go back
to the latest page, and so does a message sent meanwhile (it goes under the
latest messages, never under the window being read). While a reply streams, Home
only scrolls (the reply is not in history yet, so it could not be paged back).

The log shows the conversation's active branch; a message with
siblings gets its ``‹ 2/3 ›`` navigator, and with the log focused one message
is selected to act on (:mod:`.message_cursor`). Opening at a message (a search
hit) first makes the active branch the one holding it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from textual import events, on, work
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message as TextualMessage
from textual.reactive import reactive
from textual.widget import Widget

from agenttui.core.models import Message
from agenttui.core.recall.usage import RecallUsage
from agenttui.ui.one_shot import set_timer
from agenttui.ui.survivable_errors import dispatch_guarded
from agenttui.ui.widgets.branch_nav import BranchNav
from agenttui.ui.widgets.message_cursor import CURSOR_BINDINGS, CURSOR_CSS, BranchesRead, MessageCursor
from agenttui.ui.widgets.message_view import AssistantMessage, Notice, UserMessage
from agenttui.ui.widgets.thinking_block import ThinkingBlock
from agenttui.ui.widgets.tool_call_view import ToolCallView

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

W = TypeVar("W", bound=Widget)

PAGE = 20  # enough to fill a tall terminal; each Markdown reply costs ms to mount
PAGE_CHARS = 12_000  # ... and a page stops at this much text: ten 500-word replies took seconds to mount
KEEP_MOUNTED = 2 * PAGE  # stored messages mounted at most while following the end (see trim_above)
# ... and their text at most (long replies are many widgets each): a 500-word reply is about 3,300
# characters and 150 widgets, so this is 3-4 such replies, still over a hundred lines above a
# 40-line view. At 48,000 characters the log held 15 of them (2,250 widgets) and the process grew
# 90 MiB over a short conversation's size; at 24,000, 7 of them: a conversation past its 7th long
# reply held ~150,000 more live objects than one at its 5th (+30 MiB), and every full collection
# walked them (1-2 s on a loaded machine, in the middle of a Home or a streamed reply).
KEEP_CHARS = PAGE_CHARS
# Home's page: the conversation's first messages up to this much text (at least the first question
# and its reply), enough to fill a tall view; the rest pages in as the user scrolls down. A whole
# PAGE_CHARS page (four long replies, ~600 widgets) took seconds to mount beside the window it
# replaces, longer the more the process held (each full collection walks every live object).
START_CHARS = 4_000
MAX_PAGES = 20
REVEAL_WAIT_S = 5.0  # a reopened page stays hidden at most this long waiting for its replies
MAX_USED = 300  # replies whose "used: …" line is kept for reopening (memory only, this session)


def by_size(page: list[Message], chars: int) -> tuple[list[Message], bool]:
    """The latest messages of ``page`` that hold at most ``chars`` of text (at least the last
    two, a question and its reply), and whether any were left out."""
    total, start = 0, len(page)
    while start > 0:
        total += len(page[start - 1].content or "")
        if total > chars and len(page) - start >= 2:
            break
        start -= 1
    return page[start:], start > 0


def from_start(page: list[Message], chars: int) -> tuple[list[Message], bool]:
    """The first messages of ``page`` that hold at most ``chars`` of text (at least the first
    two), and whether any were left out: :func:`by_size` from the other end."""
    kept, cut = by_size(page[::-1], chars)
    return kept[::-1], cut


def last_shown_id(rows: list[Widget], has_newer: bool) -> int | None:
    """The stored id of the newest message on screen, when the log shows the conversation's
    end (``run_turn``'s ``seen``: a question hangs there if another window went on past it).
    None when newer messages are not loaded or the last message has no stored id yet: then
    nothing is compared and the question follows what is stored, as always."""
    if has_newer:
        return None
    for row in reversed(rows):
        if isinstance(row, UserMessage | AssistantMessage):
            return row.message_id
    return None


def not_shown(messages: list[Message], rows: list[Widget]) -> list[Message]:
    """The page's messages but those already on screen. A message sent while the conversation's
    latest page was being read is stored, so in the page, and shown as sent, its row's id perhaps
    not set yet; shown twice, ↑ selected the copy above and the marker went on the other. Matched
    by id, else (a row still without its id) by role and text, once each."""
    ids = {getattr(row, "message_id", None) for row in rows} - {None}
    pending = [(isinstance(row, UserMessage), getattr(row, "text", None)) for row in rows
               if isinstance(row, UserMessage | AssistantMessage) and row.message_id is None]
    kept = []
    for message in messages:
        if message.id in ids:
            continue
        key = (message.role == "user", message.content)
        if message.role in ("user", "assistant") and key in pending:
            pending.remove(key)
            continue
        kept.append(message)
    return kept


def widgets_for(messages: list[Message], used: Mapping[int, RecallUsage] | None = None) -> list[Widget]:
    """History rows -> widgets; tool results attach to the call that asked for them.

    ``used`` maps reply ids to what their turn used (this session's replies).
    """
    used = used or {}
    widgets: list[Widget] = []
    calls: dict[str, ToolCallView] = {}
    for message in messages:
        if message.role == "user":
            widgets.append(UserMessage(message.content or "", message.id, image=bool(message.image_b64)))
        elif message.role == "assistant":
            if message.reasoning:  # saved only with [history] save_reasoning
                widgets.append(ThinkingBlock(message.reasoning, done=True))
            if message.content or message.incomplete:  # an unfinished reply says why, even if empty
                widgets.append(AssistantMessage(
                    message.content or "", message.id, used=used.get(message.id or -1),
                    incomplete=(message.incomplete_reason or "interrupted") if message.incomplete else None))
            for call in message.tool_calls:
                calls[call.id] = ToolCallView(call, status="ok")
                widgets.append(calls[call.id])
        elif message.role == "system" and message.summary_of is not None:  # a /compact summary
            from agenttui.ui.widgets.chat_context import SummaryView

            widgets.append(SummaryView(message.content or "", message.id))
        elif message.role == "tool":
            view = calls.get(message.tool_call_id or "")
            if view is not None:  # stored before outcomes were kept: it ran
                view.set_status(message.tool_status or "ok", message.content or "")
    return widgets


class PageLoaded(TextualMessage):
    """A page of the conversation was read from history (ChatLog posts it to itself)."""

    def __init__(self, conversation_id: str, messages: list[Message], older: bool, focus_id: int | None,
                 opened: int, more: bool = False, kind: str = "") -> None:
        super().__init__()
        self.more = more  # older messages are left in history (newer ones, for "newer"/"start")
        self.conversation_id = conversation_id
        self.opened = opened
        self.messages = messages
        self.older = older
        self.focus_id = focus_id
        # "latest" (the end), "older" (above what is shown), "newer" (below it) or
        # "start" (the conversation's first page, replacing what is shown)
        self.kind = kind or ("older" if older else "latest")


class UsedLines:
    """What replies used (their "used: …" line), kept in memory for this session so a reopened
    conversation shows them again; the latest ``MAX_USED`` replies."""

    def __init__(self) -> None:
        self._by_reply: OrderedDict[tuple[str, int], RecallUsage] = OrderedDict()  # (conversation, reply)

    def remember(self, conversation_id: str, reply_id: int, usage: RecallUsage) -> None:
        self._by_reply[(conversation_id, reply_id)] = usage
        self._by_reply.move_to_end((conversation_id, reply_id))
        while len(self._by_reply) > MAX_USED:
            self._by_reply.popitem(last=False)

    def of(self, conversation_id: str) -> dict[int, RecallUsage]:
        return {reply: usage for (cid, reply), usage in self._by_reply.items() if cid == conversation_id}


class ChatLog(VerticalScroll):
    DEFAULT_CSS = "ChatLog { height: 1fr; padding: 0 1; }" + CURSOR_CSS
    BINDINGS = [
        *CURSOR_BINDINGS,  # the selected message's keys (widgets/message_cursor.py)
        # the conversation's start / end, whatever is mounted (module doc: a window of it is)
        Binding("home,ctrl+home", "to_start", "Start", show=False),
        Binding("end,ctrl+end", "to_end", "End", show=False),
    ]

    empty: reactive[bool] = reactive(True)  # nothing shown: the chat pane's welcome may show

    async def _on_message(self, message: TextualMessage) -> None:
        # a bug in one handler is a notice; this widget keeps its loop and stays (survivable_errors)
        await dispatch_guarded(self, message, super()._on_message)

    def __init__(self, services: Services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self.conversation_id: str | None = None
        self.oldest_id: int | None = None
        self.has_older = False
        # What is mounted is a window of the conversation (module doc): after a jump to its
        # start, or paging up past KEEP_CHARS, the latest messages are in history only.
        self.newest_id: int | None = None
        self.has_newer = False
        self._loading = False
        self._reveal_waits: list[asyncio.Future[Any]] = []  # a first page waiting for its replies
        # the selected message, and the rows still shown until the page replacing them is ready
        self.cursor = MessageCursor(self, services, lambda: self.conversation_id)
        # Bumped per show_conversation: a page read for an earlier opening of the same
        # conversation (left and reopened meanwhile) must not be mounted a second time.
        self._opened = 0
        self.used = UsedLines()  # what each reply used, for its line when reopened

    def on_mount(self) -> None:
        self.anchor()

    # -- the selected message: keys, clicks and messages reach the log, its cursor acts --
    def on_focus(self, _event: events.Focus) -> None:
        self.cursor.focused()

    def on_click(self, event: events.Click) -> None:
        self.cursor.clicked(event.widget)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.cursor.allows(action, parameters)

    def action_select_message(self, step: int) -> None:
        if not self.cursor.step(step) and self.has_older:
            self.load_older()

    def action_copy_code(self, number: int) -> None:
        self.cursor.copy_code(number)

    def action_message(self, action: str) -> None:
        self.cursor.ask(action)

    async def on_branches_read(self, event: BranchesRead) -> None:
        await self.cursor.show_branches(event)

    def on_branch_nav_step(self, event: BranchNav.Step) -> None:
        self.cursor.nav_stepped(event)

    # -- opening -------------------------------------------------------------
    async def show_conversation(self, conversation_id: str | None, message_id: int | None = None) -> None:
        for wait in self._reveal_waits:  # a page still waiting for its replies: left, stop waiting
            wait.cancel()
        if conversation_id is not None and conversation_id == self.conversation_id and self.children:
            # the same conversation again (a branch switch, a search hit in it): what is shown
            # stays until the new page is ready (module doc); a page of an earlier opening that
            # was still hidden goes with it
            self.cursor.leaving = tuple(self.children)
        else:
            self.cursor.leaving = ()
            await self.remove_children()
            self.empty = True
        self._opened += 1
        self._loading = False
        self.conversation_id = conversation_id
        self.oldest_id = None
        self.has_older = False
        self.newest_id = None
        self.has_newer = False
        if conversation_id is not None:
            # After the next frame: the pane titles and prompt paint before any history does.
            self.call_after_refresh(self._load, conversation_id, None, message_id, self._opened)
        self.anchor()

    @work(thread=True, group="chat-page")
    def _load(self, conversation_id: str, before_id: int | None, focus_id: int | None = None,
              opened: int = 0) -> None:
        history = self.services.history
        if focus_id is not None:  # a hit on another branch: that branch is shown
            with contextlib.suppress(Exception):  # gone meanwhile: the page says what is there
                history.show_branch(conversation_id, focus_id)
        page = history.messages(conversation_id, limit=PAGE, before_id=before_id)
        more = len(page) >= PAGE  # a short page is the first one
        if focus_id is None:
            # Opening (or End): the latest messages that fill the view, as Home's page does;
            # paging up brings the rest. A whole PAGE_CHARS page (four long replies) took
            # seconds to mount before the conversation showed.
            page, cut = by_size(page, START_CHARS if before_id is None else PAGE_CHARS)
            more = more or cut
        # Opening at a search hit older than the latest page: page back until it is in
        # (bounded, so a hit deep in a huge conversation costs at most MAX_PAGES reads).
        for _ in range(MAX_PAGES):
            if focus_id is None or not page or page[0].id is None or page[0].id <= focus_id:
                break
            older = history.messages(conversation_id, limit=PAGE, before_id=page[0].id)
            if not older:
                break
            page = older + page
        self.post_message(PageLoaded(conversation_id, page, before_id is not None, focus_id, opened, more))

    @work(thread=True, group="chat-page")
    def _load_after(self, conversation_id: str, after_id: int | None, opened: int) -> None:
        """The page after message ``after_id`` (None: the conversation's first page), read from
        the start of the active branch: history pages backwards from a message, so the page is
        the one before the message that follows it."""
        history = self.services.history
        ids = history.branch_ids(conversation_id)
        start = 0 if after_id is None else (ids.index(after_id) + 1 if after_id in ids else len(ids))
        wanted = ids[start:start + PAGE]
        page: list[Message] = []
        if wanted:
            end = start + len(wanted)
            page = history.messages(conversation_id, limit=len(wanted),
                                    before_id=ids[end] if end < len(ids) else None)
            page = [m for m in page if m.id in set(wanted)]  # the branch moved meanwhile: only these
        kind = "start" if after_id is None else "newer"
        page, cut = from_start(page, START_CHARS if kind == "start" else PAGE_CHARS)
        more = bool(page) and page[-1].id != ids[-1]
        self.post_message(PageLoaded(conversation_id, page, False, None, opened, more or cut, kind))

    async def prepend_conversation(self, conversation_id: str) -> None:
        """Continue ``conversation_id`` under what is shown: its latest page goes above.

        For a message (or /help's text) shown before the start-up lookup found the
        latest conversation. The page is read here, awaited, before the caller lets
        the turn save anything, so the new message cannot be in it.
        """
        self._opened += 1
        self.conversation_id = conversation_id
        if self.cursor.leaving:  # a branch's page that was still loading: not shown now
            await self._swap_in()
        page = await asyncio.to_thread(self.services.history.messages, conversation_id, PAGE)
        if self.conversation_id != conversation_id:
            return
        self.oldest_id = page[0].id if page else None
        self.has_older = len(page) >= PAGE
        widgets = widgets_for(page, self.used.of(conversation_id))
        if widgets:
            await self.mount_all(widgets, before=0 if self.children else None)
            self.empty = False
            self.scroll_end(animate=False, immediate=True)
            self.cursor.refresh_branches()

    @on(PageLoaded)
    async def _page_loaded(self, event: PageLoaded) -> None:
        if event.conversation_id != self.conversation_id or event.opened != self._opened:
            return  # a stale page for a conversation we already left (or left and reopened)
        self._loading = False
        if event.kind == "newer":
            await self._newer_loaded(event)
            return
        if event.kind == "start":  # what is shown goes once the first page is ready
            if not event.messages:
                return  # the conversation is gone meanwhile: what is shown stays
            self.cursor.leaving = tuple(self.children)
        if event.messages:
            self.oldest_id = event.messages[0].id
            if event.kind in ("latest", "start"):
                self.newest_id = event.messages[-1].id
        if event.kind == "start":
            self.has_older, self.has_newer = False, event.more
        else:
            self.has_older = event.more
        messages = event.messages
        if event.kind == "latest" and not event.older and self.cursor.rows():
            messages = not_shown(messages, self.cursor.rows())  # sent while the page was read
        widgets = widgets_for(messages, self.used.of(event.conversation_id))
        if not widgets:
            if self.cursor.leaving:  # the branch shown is empty now: what it replaced must not stay
                await self._swap_in()
                self.empty = not self.children
            return
        self.empty = False
        if event.older and self.children:
            # what the user was reading stays in view: a message, not a line that moves with the
            # page ("older turns not sent", chat_context.py)
            first = next((c for c in self.children if getattr(c, "message_id", None) is not None),
                         self.children[0])
            was_at = first.virtual_region.y
            self.release_anchor()  # reading older turns: new height must not pull the view to the end
            for widget in widgets:  # shown at once when every reply is rendered, as a first page is
                widget.display = False
            await self.mount_all(widgets, before=0)
            await self._rendered([w for w in widgets if isinstance(w, AssistantMessage)])
            if event.opened != self._opened:
                return  # another conversation was opened meanwhile
            for widget in widgets:
                widget.display = True
            await self._trim_below()
            self.cursor.refresh_branches()
            self.call_after_refresh(self._keep_in_view, first, was_at)
        else:
            rows = self.cursor.rows()
            first_page = not rows
            if first_page:  # shown whole once every reply is rendered
                for widget in widgets:
                    widget.display = False
            # above a message sent meanwhile; below the rows it replaces (they go when it shows)
            await self.mount_all(widgets, before=rows[0] if rows else None)
            self.cursor.refresh_branches(event.focus_id)  # their navigators (‹ 2/3 ›), read in a thread
            if first_page:
                await self._rendered([w for w in widgets if isinstance(w, AssistantMessage)])
                if event.opened != self._opened:
                    return  # another page was asked for meanwhile: it shows instead
                await self._swap_in(at_start=event.kind == "start")
            if event.focus_id is not None:
                target = next((w for w in widgets if getattr(w, "message_id", None) == event.focus_id), None)
                if target is not None:
                    # Anchored until the rows just shown are laid out: released on a log still
                    # empty (its rows hidden), the anchor's last scroll stayed -height and the
                    # page sat below the view, a blank chat.
                    self.call_after_refresh(self._show_at, target)
                    return
            if event.kind == "start":
                self.release_anchor()  # reading from the start: nothing pulls the view down
                self.scroll_home(animate=False, immediate=True)
                self.call_after_refresh(self.scroll_home, animate=False, immediate=True)
                self.call_after_refresh(self._fill_viewport)  # a short first page: the next one under it
                return
            self.anchor()  # the end, once the rows just shown are laid out
            self.scroll_end(animate=False)
        self.call_after_refresh(self._fill_viewport)

    def _show_at(self, target: Widget) -> None:
        """The page is laid out: ``target`` (a search hit, a switched version) at the top."""
        self.release_anchor()
        if self.scroll_y < 0:
            # A page shorter than the view: anchored, Textual kept it at the view's bottom with a
            # negative scroll, which only the anchor keeps up to date, and a log that cannot
            # scroll ignores scroll_to_widget. Released there, a row mounted after it (its
            # navigators, read in a thread, often came after this) fell below the view, unseen.
            # The page goes to the top, as an unanchored log shows it.
            self.scroll_y = 0
        self.scroll_to_widget(target, animate=False, top=True, immediate=True)

    async def _swap_in(self, at_start: bool = False) -> None:
        """Show the page's rows (and their navigators) and drop the rows they replace, in one
        update: the screen goes from one branch to the other with no frame between.
        ``at_start``: the page is the conversation's start (Home)."""
        leaving, self.cursor.leaving = self.cursor.leaving, ()
        self.cursor.carry_selection(leaving, at_start)
        with self.app.batch_update():
            for widget in self.cursor.rows():
                widget.display = True
            for widget in leaving:
                widget.display = False
        # Removed after the frame that shows the page: unmounting a window of long replies
        # (~1,000 widgets) took a second or more, and the page waited for it.
        if leaving:
            await self.remove_children([w for w in leaving if w.parent is self])

    async def _rendered(self, replies: list[AssistantMessage]) -> None:
        """Wait until ``replies`` show their text (their Markdown is parsed in a thread after
        mounting, so a page appeared in stages: questions first, replies up to seconds later
        under load). Bounded: past ``REVEAL_WAIT_S`` what is there is shown."""
        waits: list[asyncio.Future[Any]] = [asyncio.ensure_future(reply.rendered.wait()) for reply in replies]
        if not waits:
            return
        self._reveal_waits = waits
        try:
            _, pending = await asyncio.wait(waits, timeout=REVEAL_WAIT_S)
        finally:
            self._reveal_waits = []
        for wait in pending:
            wait.cancel()

    def _keep_in_view(self, widget: Widget, was_at: int, waits: int = 100) -> None:
        """Scroll ``widget`` (what was being read) to the top once the page above it is laid out,
        i.e. it has moved down from ``was_at`` (on a busy machine that can take a few frames;
        at most ``waits`` x 50 ms)."""
        if widget.virtual_region.y <= was_at and waits > 0 and widget.is_attached:
            set_timer(self, 0.05, lambda: self._keep_in_view(widget, was_at, waits - 1))
            return
        self.scroll_to_widget(widget, animate=False, top=True, immediate=True)

    def _fill_viewport(self, waits: int = 100) -> None:
        """A page too short to scroll could never trigger paging: load more now."""
        last = self.children[-1] if self.children else None
        if last is not None and last.region.height == 0 and waits > 0:
            # not laid out yet (a busy machine, or the log hidden while its page renders):
            # its height would read as "too short". At most ``waits`` x 50 ms, then judge.
            set_timer(self, 0.05, lambda: self._fill_viewport(waits - 1))
            return
        if self.max_scroll_y == 0:
            if self.has_newer and not self._loading and self.conversation_id:
                self._loading = True  # Home's short first page: the messages after it
                self._load_after(self.conversation_id, self.newest_id, self._opened)
            else:
                self.load_older()

    async def _newer_loaded(self, event: PageLoaded) -> None:
        """The page below what is shown: mounted under it; what is above goes past KEEP_CHARS,
        the view staying on what the user was reading."""
        self.has_newer = event.more
        widgets = widgets_for(event.messages, self.used.of(event.conversation_id))
        if not widgets:
            return
        self.newest_id = event.messages[-1].id
        self.release_anchor()
        await self.mount_all(widgets)
        self.cursor.refresh_branches()
        kept = self._kept_from_end(KEEP_MOUNTED)
        if kept is None:
            return
        read = self._first_in_view()
        offset = self.scroll_y - read.virtual_region.y if read is not None else 0
        children = list(self.children)
        doomed = children[:children.index(kept)]
        if read in doomed:  # the user reads above the cut: it waits for the next page
            return
        self.oldest_id = kept.message_id  # type: ignore[attr-defined]
        self.has_older = True
        await self.remove_children(doomed)
        if read is not None:
            self.call_after_refresh(self._scroll_back_to, read, offset)

    def _first_in_view(self) -> Widget | None:
        top = self.scroll_y
        return next((w for w in self.cursor.rows() if w.virtual_region.bottom > top), None)

    def _scroll_back_to(self, widget: Widget, offset: float) -> None:
        if widget.is_attached:
            self.scroll_to(y=widget.virtual_region.y + offset, animate=False, immediate=True)

    async def _trim_below(self) -> None:
        """After a page above: unmount the stored messages below the first ``KEEP_MOUNTED``
        (fewer past the page's text and ``KEEP_CHARS`` more); scrolling down pages them back.
        Not while a reply streams: it is not in history yet, so it could not come back."""
        if self._turn_running():
            return
        stored = self.cursor.message_widgets()
        chars, kept = 0, 0
        for widget in stored:  # the page just mounted (up to PAGE_CHARS) and KEEP_CHARS under it
            chars += len(getattr(widget, "text", "") or "")
            if kept >= KEEP_MOUNTED or (chars > KEEP_CHARS + PAGE_CHARS and kept >= 4):
                break
            kept += 1
        if kept >= len(stored):
            return
        last_kept = stored[kept - 1]
        children = list(self.children)
        doomed = children[children.index(last_kept) + 1:]
        if not doomed:
            return
        self.newest_id = last_kept.message_id  # type: ignore[attr-defined]
        self.has_newer = True
        await self.remove_children(doomed)

    def _kept_from_end(self, keep: int) -> Widget | None:
        """The first of the latest ``keep`` stored messages (fewer past ``KEEP_CHARS`` of text),
        or None when that is all of them."""
        stored = self.cursor.message_widgets()
        chars, kept = 0, 0
        for widget in reversed(stored):
            chars += len(getattr(widget, "text", "") or "")
            if kept >= keep or (chars > KEEP_CHARS and kept >= 4):
                break
            kept += 1
        return None if kept >= len(stored) or kept == 0 else stored[-kept]

    # -- the conversation's start and end --------------------------------------
    def action_to_start(self) -> None:
        """Home: the conversation's first message, in one step however long it is. Its first
        page replaces what is mounted (paging up a page at a time took 50 presses and a minute
        for 100 long messages); the rest pages in lazily both ways."""
        if not self.has_older or not self.conversation_id or self._turn_running():
            self.scroll_home(animate=False)  # all of it is mounted, or a reply is on its way
            return
        if not self._loading:
            self._loading = True
            self._load_after(self.conversation_id, None, self._opened)

    async def action_to_end(self) -> None:
        """End: the latest message; when only older ones are mounted, the latest page again."""
        if self.has_newer and self.conversation_id:  # a page still being read is dropped (stale)
            await self.show_conversation(self.conversation_id)
            return
        self.anchor()
        self.scroll_end(animate=False)

    def _turn_running(self) -> bool:
        """A reply is on its way: its rows are not (wholly) in history yet, so they stay mounted.

        Asked of the pane, not of the rows: a finished turn's question and reply are saved, but a
        row can still lack its id (it is set as the next turn starts, or just after the turn's end),
        and waiting for every id kept the window from ever being cut below."""
        return bool(getattr(self.parent, "streaming", False))

    async def _back_to_latest(self) -> None:
        """Mount the latest page in place of an older window (a message is being sent)."""
        cid = self.conversation_id
        if cid is None:
            return
        self._opened += 1  # a page being read for the old window is not mounted now
        self._loading = False
        page = await asyncio.to_thread(self.services.history.messages, cid, PAGE)
        page, cut = by_size(page, PAGE_CHARS)
        if self.conversation_id != cid:
            return
        widgets = widgets_for(page, self.used.of(cid))
        with self.app.batch_update():
            await self.remove_children()
            if widgets:
                await self.mount_all(widgets)
        self.oldest_id = page[0].id if page else None
        self.newest_id = page[-1].id if page else None
        self.has_older = cut or len(page) >= PAGE
        self.has_newer = False
        self.cursor.refresh_branches()
        self.anchor()

    # -- paging on scroll ----------------------------------------------------
    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        if self._loading or not self.conversation_id:
            return
        if new <= 0 and old > 0 and self.has_older:
            self._loading = True
            self._load(self.conversation_id, self.oldest_id, None, self._opened)
        elif new >= self.max_scroll_y > old and self.has_newer and not self.cursor.leaving:
            self._loading = True
            self._load_after(self.conversation_id, self.newest_id, self._opened)

    def load_older(self) -> None:
        """Page in older messages now (the same as scrolling to the top)."""
        if self.has_older and not self._loading and self.conversation_id:
            self._loading = True
            self._load(self.conversation_id, self.oldest_id, None, self._opened)

    # -- appending -----------------------------------------------------------
    async def add(self, widget: W) -> W:
        if self.has_newer:  # an older window is shown: the new message goes under the latest ones
            await self._back_to_latest()
        await self.mount(widget)
        self.empty = False
        if isinstance(widget, UserMessage):  # a turn starts: the one before it has its ids
            await self.trim_above()
        return widget

    async def trim_above(self, keep: int | None = None) -> int:
        """Unmount what is above the latest ``keep`` stored messages (fewer when they hold more
        than ``KEEP_CHARS`` of text) while the user reads the end; scrolling up pages it back
        in from history. Returns how many widgets went.

        Not while the user reads older messages (the view would jump), and only down to a
        stored message (one with an id): what is cut must be in history to come back.
        """
        keep = KEEP_MOUNTED if keep is None else keep
        stored = self.cursor.message_widgets()
        chars, kept = 0, 0
        for widget in reversed(stored):  # the latest ``keep`` messages, or fewer past KEEP_CHARS of text
            chars += len(getattr(widget, "text", "") or "")
            if kept >= keep or (chars > KEEP_CHARS and kept >= 4):
                break
            kept += 1
        if kept >= len(stored) or not self.conversation_id or self._loading or not self._following():
            return 0
        first_kept = stored[-kept]
        children = list(self.children)
        doomed = children[:children.index(first_kept)]
        if not doomed:
            return 0
        self.oldest_id = first_kept.message_id  # type: ignore[attr-defined]
        self.has_older = True
        await self.remove_children(doomed)
        return len(doomed)

    def _following(self) -> bool:
        """The view is at (or within a screen of) the end: the user is not reading above."""
        return self.max_scroll_y - self.scroll_y <= max(self.size.height, 1)

    async def notice(self, text: str, error: bool = False) -> Notice:
        return await self.add(Notice(text, error=error))

    def last_reply(self) -> AssistantMessage | None:
        replies = self.query(AssistantMessage)
        return replies.last() if replies else None
