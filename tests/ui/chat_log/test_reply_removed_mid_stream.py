"""A reply whose widgets are being removed takes its last words without failing.

Textual removes a widget's children before the widget itself, so a streaming reply
being removed (the conversation left mid-reply: ctrl+n, another one opened) is still
attached for a moment with no Markdown under it. A batch of words flushed then looked
its Markdown up and raised ``NoMatches`` (found by a random key storm in tmux: two
crash logs and a notice, the app carrying on).
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Markdown

from agenttui.ui.widgets.message_view import AssistantMessage
from tests.ui.helpers import wait_until


class _Log(App[None]):
    def compose(self) -> ComposeResult:
        yield VerticalScroll()


async def test_words_flushed_while_the_markdown_is_removed_are_dropped_quietly():
    app = _Log()
    async with app.run_test() as pilot:
        view = AssistantMessage.streaming("The first words")
        await app.query_one(VerticalScroll).mount(view)
        await wait_until(pilot, lambda: view.query(Markdown) and view.markdown.source == "The first words")
        await view.query_one(Markdown).remove()  # the first half of the view's own removal
        assert view.is_attached
        await view.write(" and more")  # batched: shown by the flush, or by finish
        await view.finish()
        view.mark_incomplete("cancelled")  # what the turn's end does next
        await view.show_saved("The first words and more, redacted")
        assert view.text == "The first words and more, redacted"  # kept for copy, as before
