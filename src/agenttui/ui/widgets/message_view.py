"""One message in the chat log.

User text and notices are shown as literal ``Content`` (never markup);
assistant replies are Markdown (code fences are syntax-highlighted by
Textual's Markdown). Everything from the model passes :mod:`agenttui.ui.inert`
first. A streaming reply appends deltas with ``Markdown.append``: the widget
appends new blocks instead of re-parsing the whole reply per chunk.

Not ``Markdown.get_stream``: its ``MarkdownStream`` appends from a task of its
own, and ``stop()`` cancels that task and awaits it. When the batching timer
(below) created the stream on this widget's queue and the turn's end called
``finish()`` on the chat pane's queue before the new task had run once, the
task was cancelled before its first step, ``stop()`` re-raised the
``CancelledError`` into the chat pane's message handler, and Textual took that
as the pane's message loop ending: the Chat pane left the screen, and the next
query for it crashed the app. Replies of a few hundred words made the race
likely (a flush falls due as the reply ends). The stream's background task
buys nothing here, as deltas are batched already, so every append is awaited
in order under one lock, on whichever queue flushes.

A streamed reply only ever appends (docs/upstream-textual-markdown-append.md):

* It is mounted with an empty Markdown and its first delta is appended in its
  own mount (:meth:`AssistantMessage.streaming`); the mount waits for that, so
  the first words are on screen when the mount returns (Enter -> first words
  is a measured figure). The first delta was once the Markdown's initial text, which
  ``Markdown.update`` renders; but ``update`` leaves the mark ``append``
  re-parses from at the document's end when the text ends with a newline, so
  the next append replaced the last block with what came next ("Hello.\n\n"
  then "More" showed only "More"; a first delta holding a code fence lost the
  fence and its lines).
* ``append`` assumes new text can change only the last block. Markdown breaks
  that: a list continues after a blank line ("1. a\n\n2" is a list and a
  paragraph "2" until ". b" makes it one list), a reference definition changes
  links above it, and Textual's table update raises when a partial last row
  turns out to be another block (a fence right after a table). So
  :meth:`AssistantMessage.finish` checks the blocks on screen against a parse
  of the whole reply (each top-level block's kind and lines) and renders the
  whole reply once when they differ, and an append that raises turns the
  reply's later batches into whole renders.

Raw HTML is not Markdown here (:func:`reply_parser`): a tag the model writes is
shown as the text it is. Textual draws nothing for an HTML block or tag, so
``<details>`` or ``a <b>b</b> c`` lost words on screen, and an HTML block at a
batch's end made the next append overwrite the block before it (an HTML block
has no widget, so the block ``append`` re-parses from is not the last widget).

A reply's table is at least as wide as its columns' longest words and scrolls
sideways inside the reply when that is wider than the chat (:class:`ReplyTable`):
Textual shrank 40 columns to 0-2 cells each, and a cell narrower than its padding
drew its row over the History pane beside the chat.

Deltas are batched: the first is shown at once, later ones at most every
``STREAM_INTERVAL``. Each Markdown update grows the reply, and a taller widget
means a layout of the whole screen plus a repaint of the scrolled chat; at a
model's pace (a delta every few milliseconds) updating per delta spends most of
the CPU on frames nobody can read. Five updates a second (the goal: CPU of a
paced stream at most half the minimal MarkdownStream app's) still read as a
flowing stream: at a model's 30-80 words/s each adds a line or two, and a key
typed meanwhile is echoed between updates. Ten a second cost about a third more
CPU over a whole stream (``bench/bench_streaming.py``) for no text one can read
sooner.

While the user types into the prompt (a key within ``TYPING_GAP``), the reply
waits: its batches are held until the typing pauses for ``TYPING_GAP`` and shown
at least every ``TYPING_INTERVAL``. A batch that grows the reply scrolls the
chat, and Textual then redraws the whole chat region: 50-180 ms a frame at
120x36 with a reply of a thousand words, measured by sampling the event loop's
long callbacks (they were all the screen's layout refresh and compositor, not
the Markdown parse). A key arriving meanwhile waited for that frame, so one key
in ten echoed after 100 ms (``bench/bench_typing_echo.py``: p95 111 ms, median
22). Typing gets the screen first. A repaint once a second while typing still
put the p95 over 100 ms on a loaded machine (198 ms at load ~6; holding the
reply up to three seconds: 61 ms at the same load, the minimal app 199-232 ms);
nobody reads a streaming reply while typing, and it catches up at the first pause.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Markdown, Static
from textual.widgets._markdown import (  # not exported by textual.widgets.markdown
    MarkdownFence,
    MarkdownTable,
    MarkdownTableContent,
)
from textual.widgets.markdown import MarkdownBlock

from agenttui.core.recall.usage import RecallUsage, count_usage
from agenttui.ui.inert import InertStream, inert
from agenttui.ui.one_shot import OneShot, set_timer
from agenttui.ui.widgets.prompt_input import PromptInput
from agenttui.ui.widgets.reply_lists import ReplyBulletList, ReplyOrderedList
from agenttui.ui.widgets.too_deep_markdown import keep_too_deep
from agenttui.ui.widgets.used_line import UsedLine

STREAM_INTERVAL = 1 / 5  # seconds between Markdown updates while a reply streams
TYPING_GAP = 0.3  # seconds: a key typed this recently into the prompt means the user is typing
TYPING_INTERVAL = 3.0  # seconds between Markdown updates while the user types

_log = logging.getLogger(__name__)


def reply_parser() -> MarkdownIt:
    """Textual's "gfm-like" Markdown without raw HTML: a tag is shown as text (module doc); a
    block nested past the parser's limit is shown as written (:mod:`.too_deep_markdown`)."""
    return keep_too_deep(MarkdownIt("gfm-like", {"html": False}))


# A table column is never narrower than its longest word (up to this) plus its padding: Textual
# shrinks a grid's columns to fit however many there are, and past its padding a cell draws its
# text outside its region -- over the panes beside the chat. A wider table scrolls sideways.
_COLUMN_WORD_MAX = 20
_CELL_PADDING = 2


def _column_minimums(headers: list[Content], rows: list[list[Content]]) -> list[int]:
    widths = [0] * len(headers)
    for row in [headers, *rows]:
        for column, cell in enumerate(row[:len(widths)]):
            longest = max((len(word) for word in cell.plain.split()), default=1)
            widths[column] = max(widths[column], min(longest, _COLUMN_WORD_MAX))
    return [width + _CELL_PADDING for width in widths]


class ReplyTable(MarkdownTable):
    """A reply's table: at least as wide as its columns' longest words, scrolled sideways in
    the reply when that is wider than the chat (see ``AssistantMessage``'s CSS).

    A streamed table is composed with its first rows and grows by the rows after them
    (Textual's ``_update_from_block``): its width is set again from every row then. Set once,
    from a first row of short cells, it squeezed the longer rows below into a column of "…"
    each, where the same table rendered whole (a reopened conversation) showed their words."""

    def compose(self) -> ComposeResult:
        for content in super().compose():  # the table's grid, its headers and rows read
            self._fit(content)
            yield content

    def _fit(self, content: Widget) -> None:
        minimums = _column_minimums(self._headers, self._rows)
        content.styles.min_width = sum(minimums) + len(minimums) + 1  # a keyline either side of each

    async def _update_from_block(self, block: MarkdownBlock) -> None:
        await super()._update_from_block(block)  # the rows added in place, or the block replaced
        for content in self.query_children(MarkdownTableContent):
            self._fit(content)


class ReplyFence(MarkdownFence):
    """A reply's code block. Textual's scrolls sideways with no scrollbar, so a line wider than
    the chat was cut with nothing to say so; when one is, the block gets a bar on its right edge
    (a glyph: it shows without colour too) and a scrollbar, and its tooltip says how to copy it."""

    DEFAULT_CSS = """
    ReplyFence.-clipped { border-right: outer $warning; scrollbar-size-horizontal: 1; }
    """

    def on_resize(self) -> None:
        self.call_after_refresh(self._mark_clipped)

    def watch_virtual_size(self) -> None:
        # The code can grow with the fence's region unchanged (the saved reply's Markdown updates
        # the fence in place): a layout then sends no Resize, and the line stayed unmarked.
        self.call_after_refresh(self._mark_clipped)

    def _mark_clipped(self) -> None:
        clipped = self.max_scroll_x > 0
        self.set_class(clipped, "-clipped")
        self.tooltip = ("Wider than the chat: scroll sideways, or select the message "
                        "(shift+tab) and press c to copy its last code block, 1-9 one by number"
                        if clipped else None)


class ReplyMarkdown(Markdown):
    """Textual's Markdown with :class:`ReplyTable` for tables, :class:`ReplyFence` for code and
    lists that a streamed reply appends to (:mod:`.reply_lists`)."""

    BLOCKS = {**Markdown.BLOCKS, "table_open": ReplyTable, "fence": ReplyFence, "code_block": ReplyFence,
              "bullet_list_open": ReplyBulletList, "ordered_list_open": ReplyOrderedList}


def code_blocks(text: str) -> list[str]:
    """The code blocks of a reply's Markdown, in order, as written (not yet made inert)."""
    return [token.content for token in reply_parser().parse(text)
            if token.type in ("fence", "code_block")]


def _top_blocks(tokens: list[Token]) -> list[tuple[str, tuple[int, int]]]:
    """Each top-level block of a parse: its opening token's type and its lines."""
    return [(token.type, (token.map[0], token.map[1])) for token in tokens
            if token.level == 0 and token.map is not None]


class UserMessage(Static):
    DEFAULT_CSS = """
    UserMessage {
        margin: 1 0 0 0;
        padding: 0 1;
        background: $boost;
        border-left: outer $primary;
    }
    """

    def __init__(self, text: str, message_id: int | None = None, image: bool = False) -> None:
        body = inert(text)
        if image:
            body += "\n[image attached]"
        super().__init__(Content(body))
        self.text = text
        self.message_id = message_id


class Notice(Static):
    """An info line or an error in the chat (not part of the conversation)."""

    DEFAULT_CSS = """
    Notice { margin: 1 0 0 0; padding: 0 1; color: $text-muted; }
    Notice.-error { color: $text-error; border-left: outer $error; }
    """

    def __init__(self, text: str, error: bool = False) -> None:
        super().__init__(Content(inert(text)), classes="-error" if error else "")


class AssistantMessage(Vertical):
    DEFAULT_CSS = """
    AssistantMessage { height: auto; margin: 1 0 0 0; }
    AssistantMessage > Markdown { margin: 0; padding: 0 1; }
    AssistantMessage MarkdownTable { overflow-x: auto; overflow-y: hidden; height: auto; }
    AssistantMessage > .status { color: $text-warning; padding: 0 1; display: none; }
    AssistantMessage.-incomplete > .status { display: block; }
    """

    def __init__(self, text: str = "", message_id: int | None = None, used: RecallUsage | None = None,
                 incomplete: str | None = None) -> None:
        super().__init__()
        self._initial = inert(text)
        self._incomplete = incomplete  # why the provider did not finish it (a stored reply)
        if incomplete:
            self.add_class("-incomplete")
        self._used = used  # what the turn used (this session's replies only): the "used: …" line
        self.message_id = message_id
        self.text = text  # the raw reply as received (for copy)
        self._writing = asyncio.Lock()  # appends, a flush at the end and show_saved, one at a time
        self._inert = InertStream()
        self._first = ""  # a streamed reply's first delta: appended in on_mount
        self._shown = ""  # the (inert) text given to the Markdown so far
        self._whole = False  # render the whole text from now on: appends went wrong or are over
        self._pending: list[str] = []  # deltas not yet given to the stream
        self._flush_timer: OneShot | None = None  # the next batch's flush
        self._shown_first = False  # the first delta is shown at once, later ones batched
        self._flushed_at = 0.0  # time.monotonic() of the last batch shown
        # Set once the Markdown has mounted its first blocks (parsed in a thread after mount):
        # the chat log shows a reopened page only when every reply is rendered.
        self.rendered = asyncio.Event()

    @classmethod
    def streaming(cls, first_delta: str) -> AssistantMessage:
        """A reply whose stream starts with ``first_delta``: mounted with it shown."""
        view = cls()
        view.text = first_delta
        view._first = view._inert.feed(first_delta)
        view._shown_first = True
        return view

    def compose(self) -> ComposeResult:
        yield ReplyMarkdown(self._initial, parser_factory=reply_parser)
        yield Static(Content(f"⚠ incomplete: {inert(self._incomplete)}") if self._incomplete else "",
                     classes="status")
        if self._used is not None and not count_usage(self._used).empty:
            yield UsedLine(self._used)

    @property
    def markdown(self) -> Markdown:
        return self.query_one(Markdown)

    def _drawn(self) -> Markdown | None:
        """The view's Markdown; None once the view is going. Textual removes a widget's children
        before the widget: a reply being removed (its conversation left mid-reply) is attached a
        moment longer with no Markdown, and a batch of words flushed then met ``NoMatches``."""
        if not self.is_attached:
            return None
        found = self.query(Markdown)
        return found.first() if found else None

    @on(Markdown.TableOfContentsUpdated)
    def _markdown_rendered(self) -> None:  # posted by Markdown.update once its blocks are in
        self.rendered.set()

    async def on_mount(self) -> None:
        # Children mount first, so the Markdown has rendered its empty text: appending now
        # never meets update()'s mark (module doc), and mount() returns with the words in.
        if self._first:
            first, self._first = self._first, ""
            async with self._writing:
                await self._append(first)

    async def write(self, delta: str) -> None:
        """Append a delta: the first is shown now, the rest in batches (see module doc)."""
        self.text += delta
        self._pending.append(delta)
        if not self._shown_first:
            self._shown_first = True
            await self._flush()
        elif self._flush_timer is None:
            # ui/one_shot: Textual's own one-shot timer can skip its only tick on a busy machine,
            # and the reply then showed nothing more until its end
            self._flush_timer = set_timer(self, STREAM_INTERVAL, self._flush)

    async def _flush(self) -> None:
        self._flush_timer = None
        now = time.monotonic()
        focused = self.app.focused
        if isinstance(focused, PromptInput) and now - focused.typed_at < TYPING_GAP:
            wait = self._flushed_at + TYPING_INTERVAL - now
            if wait > 0:
                self._flush_timer = set_timer(self, min(wait, TYPING_GAP), self._flush)
                return
        self._flushed_at = now
        async with self._writing:
            await self._append_pending()

    async def _append_pending(self) -> None:
        if self._pending:
            chunk = "".join(self._pending)
            self._pending.clear()
            await self._append(self._inert.feed(chunk))

    async def _append(self, text: str) -> None:
        markdown = self._drawn()
        if not text or markdown is None:  # the conversation may have been left mid-reply
            return
        self._shown += text
        if self._whole:
            await markdown.update(self._shown)
            return
        try:
            await markdown.append(text)
        except Exception:  # Textual's incremental path (its table update); a whole render is right
            _log.warning("Markdown.append failed; the reply is rendered whole from now on", exc_info=True)
            self._whole = True
            await markdown.update(self._shown)

    async def _shown_as_parsed(self) -> bool:
        """Whether the blocks on screen are those of a parse of the whole reply (module doc)."""
        env: dict[str, Any] = {}
        tokens = await asyncio.to_thread(reply_parser().parse, self._shown, env)
        if env.get("references"):  # a definition may turn text above it into a link
            return False
        drawn = [(str(block.name), block.source_range) for block in self.markdown.children
                 if isinstance(block, MarkdownBlock)]
        return drawn == _top_blocks(tokens)

    async def finish(self) -> None:
        if self._flush_timer is not None:
            self._flush_timer.stop()
            self._flush_timer = None
        async with self._writing:  # after a flush the timer started, never beside it
            await self._append_pending()
            await self._append(self._inert.flush())  # a CR held back at the last chunk's end
            if self._drawn() is None or self._whole or not self._shown:
                self._whole = True
                return
            self._whole = True  # nothing appends after the end (show_saved renders whole)
            if not await self._shown_as_parsed():
                await self.markdown.update(self._shown)

    async def show_saved(self, saved: str) -> None:
        """Show the reply as history keeps it: a secret the stream showed
        becomes ``[REDACTED:<kind>]`` here too, so what is copied now is what a reopened
        conversation shows. Call after :meth:`finish`."""
        if saved == self.text:
            return
        self.text = saved
        async with self._writing:
            markdown = self._drawn()
            if markdown is not None:
                await markdown.update(inert(saved))

    async def show_used(self, usage: RecallUsage | None) -> None:
        """Add the "used: …" line under the reply (none when nothing was used)."""
        self._used = usage
        if usage is None or count_usage(usage).empty or self.query(UsedLine):
            return
        await self.mount(UsedLine(usage))

    @property
    def used_line(self) -> UsedLine | None:
        lines = self.query(UsedLine)
        return lines.first() if lines else None

    def mark_incomplete(self, reason: str) -> None:
        self.add_class("-incomplete")
        for status in self.query(".status").results(Static):  # none once the view is going (_drawn)
            status.update(Content(f"⚠ incomplete: {inert(reason)}"))

    def mark_complete(self) -> None:
        """History kept the reply whole (Esc came after its last word): no marker says otherwise."""
        self.remove_class("-incomplete")
        for status in self.query(".status").results(Static):
            status.update("")
