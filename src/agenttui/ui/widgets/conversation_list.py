"""Conversation and search-hit lists for the History pane (docs/agent.md#what-a-request-holds).

Both are ``OptionList``s: line-rendered, so only visible rows cost anything.
``ConversationList`` never holds the whole profile: it loads ``PAGE`` rows at
a time from SQLite (``list_conversations(limit, offset)``) and asks for the
next page when the cursor or the scroll position comes within ``PREFETCH``
rows of the end. Loads run in thread workers; every load carries a
generation number so a page that arrives after a reload or a profile switch
is dropped instead of being appended to the wrong list.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from agenttui.core.history.search import ConversationMatches
from agenttui.core.models import Conversation, SearchHit, utcnow
from agenttui.ui.host import app_parts
from agenttui.ui.inert import inert_line
from agenttui.ui.widgets.command_list import CommandList

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

HIGHLIGHT_OPEN, HIGHLIGHT_CLOSE = "«", "»"  # core.history.recall_queries's snippet markers (not imported: start-up)
PAGE = 100
PREFETCH = 20


def when(moment: datetime, now: datetime | None = None) -> str:
    """Short, local-time age: ``14:05`` today, ``Nov 03`` this year, else ``2024-11-03``."""
    now = now or utcnow()
    local, local_now = moment.astimezone(), now.astimezone()
    if local.date() == local_now.date():
        return local.strftime("%H:%M")
    if local.year == local_now.year:
        return local.strftime("%b %d")
    return local.strftime("%Y-%m-%d")


def conversation_label(conversation: Conversation) -> Text:
    label = Text(no_wrap=True, overflow="ellipsis")
    label.append(f"{when(conversation.updated):>6} ", style="dim")
    label.append(inert_line(conversation.title or "(untitled)", 120))
    if conversation.message_count:
        label.append(f" ·{conversation.message_count}", style="dim")
    return label


def _span(first: datetime | None, last: datetime | None) -> str:
    if first is None or last is None:
        return ""
    start, end = when(first), when(last)
    return start if start == end else f"{start} – {end}"


def _around_first_match(snippet: str, lead: int = 12, width: int = 72) -> str:
    """The snippet from shortly before its first highlighted match: the row wraps at most twice."""
    start = max(0, snippet.find(HIGHLIGHT_OPEN) - lead)
    cut = snippet[start:]
    if start:
        cut = "…" + cut.split(" ", 1)[-1] if " " in cut[:lead] else "…" + cut
    return cut if len(cut) <= width else cut[: width - 1].rstrip() + "…"


def matches_label(group: ConversationMatches) -> Text:
    """Title, then "Nov 03 – Nov 12 · 4 hits", then the best hit's words around the match."""
    hit = group.best
    label = Text(overflow="ellipsis")
    label.append(inert_line(hit.conversation_title or "(untitled)", 80), style="bold")
    count = (f"{group.count} hit" + ("" if group.count == 1 else "s")) if group.count else ""
    title = "in the title" if group.in_title else ""
    label.append("\n" + " · ".join(p for p in (_span(group.first, group.last), title, count) if p), style="dim")
    label.append("\n")
    snippet = _around_first_match(inert_line(hit.snippet, 240))
    for n, part in enumerate(snippet.split(HIGHLIGHT_OPEN)):
        matched, _, rest = part.partition(HIGHLIGHT_CLOSE) if n else ("", "", part)
        label.append(matched, style="bold reverse")
        label.append(rest, style="italic")
    return label


class ConversationList(CommandList):
    """The profile's conversations, newest first, paged from the database."""

    class _PageLoaded(Message):
        def __init__(self, generation: int, rows: list[Conversation], total: int | None) -> None:
            super().__init__()
            self.generation = generation
            self.rows = rows
            self.total = total

    class _PageFailed(Message):
        """An expected failure (a newer or damaged database, a full disk): a notice, not a crash."""

        def __init__(self, generation: int, text: str) -> None:
            super().__init__()
            self.generation = generation
            self.text = text

    class CountChanged(Message):
        """Posted after a page lands, for the pane's subtitle."""

        def __init__(self, loaded: int, total: int) -> None:
            super().__init__()
            self.loaded = loaded
            self.total = total

    def __init__(self, services: Services, **kwargs) -> None:
        super().__init__(markup=False, **kwargs)
        self.services = services
        self.archived = False
        self.total = 0
        self.conversations: dict[str, Conversation] = {}
        self._generation = 0
        self._loading = False
        self._keep_id: str | None = None
        self._reported: set[str] = set()

    @property
    def exhausted(self) -> bool:
        return self.option_count >= self.total

    def reload(self, archived: bool | None = None, keep_id: str | None = None) -> None:
        """Start over from the first page (keeps the cursor on ``keep_id`` if it is there)."""
        if archived is not None:
            self.archived = archived
        self._generation += 1
        self._keep_id = keep_id
        self._loading = True
        self._load(self._generation, 0, True)

    def load_more(self) -> None:
        if self._loading or self.exhausted:
            return
        self._loading = True
        self._load(self._generation, self.option_count, False)

    @work(thread=True, group="history-page")
    def _load(self, generation: int, offset: int, with_total: bool) -> None:
        history = self.services.history
        try:
            rows = history.list_conversations(limit=PAGE, offset=offset, archived=self.archived)
            total = history.count_conversations(archived=self.archived) if with_total else None
        except Exception as exc:
            from agenttui.core.errors import explain

            text = explain(exc)
            if text is None:
                raise  # a bug: the app's error policy writes the crash log
            self.post_message(self._PageFailed(generation, text))
            return
        self.post_message(self._PageLoaded(generation, rows, total))

    @on(_PageFailed)
    def _page_failed(self, message: _PageFailed) -> None:
        message.stop()
        self._loading = False
        self.total = self.option_count  # stop asking for more pages
        app_parts(self).notify_failure(message.text, title="History not available")
        self.post_message(self.CountChanged(self.option_count, self.total))

    @on(_PageLoaded)
    def _page_loaded(self, message: _PageLoaded) -> None:
        message.stop()
        if message.generation != self._generation:
            return  # a reload or profile switch happened meanwhile
        self._loading = False
        for problem in list(self.services.history.problems):
            if problem not in self._reported:  # a corrupt database moved aside is said
                self._reported.add(problem)
                self.app.notify(problem, title="History", severity="warning", timeout=30)
        if message.total is not None:
            self.total = message.total
            self.conversations.clear()
            self.clear_options()
        fresh = [row for row in message.rows if row.id not in self.conversations]
        self.conversations.update((row.id, row) for row in fresh)
        self.add_options(Option(conversation_label(row), id=row.id) for row in fresh)
        if not message.rows:  # the table shrank under us: stop asking
            self.total = self.option_count
        if message.total is not None:
            keep = self._keep_id
            self.highlighted = self.get_option_index(keep) if keep in self.conversations else (
                0 if self.option_count else None
            )
        self.post_message(self.CountChanged(self.option_count, self.total))

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if new_value >= self.max_scroll_y - PREFETCH:
            self.load_more()

    @on(OptionList.OptionHighlighted)
    def _near_end(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_index >= self.option_count - PREFETCH:
            self.load_more()

    def selected_conversation(self) -> Conversation | None:
        option = self.highlighted_option
        return self.conversations.get(option.id) if option and option.id else None


class SearchResults(CommandList):
    """Full-text search results, one row per conversation.

    Option ids are ``<conversation id>:<message id>`` of the conversation's best hit,
    where opening the row lands.
    """

    class MoreWanted(Message):
        """The cursor or the scroll position came near the end of a cut list: load the next page."""

    def __init__(self, **kwargs) -> None:
        super().__init__(markup=False, **kwargs)
        self.hits: dict[str, SearchHit] = {}
        self.hit_count = 0  # messages that matched, over all conversations shown
        self.more = False  # the search had more hits than are shown
        self.loading = False  # a next page was asked for and has not come yet
        self._shown: list[SearchHit] = []

    def show_hits(self, hits: list[SearchHit], more: bool = False, append: bool = False) -> int:
        """Show ``hits``; with ``append`` the rows shown stay where they are and only the hits
        not shown yet are added after them. The number of hits added."""
        from agenttui.core.history.search import group_by_conversation

        before = len(self._shown) if append else 0
        if append:
            seen = {(hit.message_id, hit.in_title) for hit in self._shown}
            hits = self._shown + [hit for hit in hits if (hit.message_id, hit.in_title) not in seen]
        keep = self.highlighted_option.id if append and self.highlighted_option else None
        self._shown = hits
        self.more, self.loading = more, False
        groups = group_by_conversation(hits)
        self.hit_count = sum(not hit.in_title for hit in hits)
        self.hits = {f"{g.best.conversation_id}:{g.best.message_id}": g.best for g in groups}
        self.set_options(Option(matches_label(g), id=f"{g.best.conversation_id}:{g.best.message_id}")
                         for g in groups)
        if keep in self.hits:
            self.highlighted = self.get_option_index(keep)
        elif groups:
            self.highlighted = 0
        return len(hits) - before

    def _want_more(self) -> None:
        if self.more and not self.loading:
            self.loading = True
            self.post_message(self.MoreWanted())

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if self.max_scroll_y and new_value >= self.max_scroll_y - PREFETCH:
            self._want_more()

    @on(OptionList.OptionHighlighted)
    def _near_end(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_index >= self.option_count - PREFETCH:
            self._want_more()

    def hit_for(self, option_id: str | None) -> SearchHit | None:
        return self.hits.get(option_id) if option_id else None
