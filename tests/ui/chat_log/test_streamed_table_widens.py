"""A streamed table whose later rows hold longer words is as wide as they need.

A reply's table is at least as wide as its columns' longest words (it scrolls sideways in
the chat when wider). A streamed table is composed with its first rows and grows by the
rows after them: its width was set from those first rows only, so a table of 30 columns
whose first rows were short showed every later cell as "…", and its first column's
header not at all.
"""

from __future__ import annotations

import threading

import pytest
from textual.containers import VerticalScroll
from textual.widgets._markdown import MarkdownTableContent  # not exported

from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import AssistantMessage
from tests.ui.chat_log.test_stream_render_matches import _Log, _on_screen
from tests.ui.chat_log.test_wide_table_stays_in_chat import SIZE, screen_lines
from tests.ui.helpers import chat, send, wait_until

COLUMNS = 30
HEAD = "| " + " | ".join("h" for _ in range(COLUMNS)) + " |\n|" + "---|" * COLUMNS + "\n"
SHORT = "".join("| " + " | ".join("x" for _ in range(COLUMNS)) + " |\n" for _ in range(2))
LONG = "".join("| " + " | ".join(f"longwordvalue{c}" for c in range(COLUMNS)) + " |\n" for _ in range(3))
REPLY = "Table:\n\n" + HEAD + SHORT + LONG + "\nAfter the table."


def _min_width(view: AssistantMessage) -> object:
    return view.markdown.query_one(MarkdownTableContent).styles.min_width


async def test_a_table_grown_by_longer_rows_is_as_wide_as_the_same_table_rendered_whole():
    app = _Log()
    async with app.run_test():
        log = app.query_one(VerticalScroll)
        first = "Table:\n\n" + HEAD + SHORT
        view = AssistantMessage.streaming(first)
        await log.mount(view)
        await _on_screen(view, first)
        narrow = _min_width(view)
        await view.write(LONG + "\nAfter the table.")
        await _on_screen(view, REPLY)
        await view.finish()
        whole = AssistantMessage(REPLY)
        await log.mount(whole)
        await whole.rendered.wait()
        assert _min_width(view) == _min_width(whole) != narrow


@pytest.mark.slow
async def test_the_longer_rows_of_a_streamed_table_are_readable_in_the_chat(chat_services, fake_openai):
    short_shown = threading.Event()
    words_before_long = len(("Table:\n\n" + HEAD + SHORT).split(" "))
    fake_openai.reply(REPLY, words_per_second=400, gate=short_shown, gate_at=words_before_long)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        await send(pilot, "a wide table please")
        # the table is composed from its short rows first, as a model's stream makes it
        await wait_until(pilot, lambda: app.screen.query(MarkdownTableContent))
        short_shown.set()
        await wait_until(pilot, lambda: app.screen.query(AssistantMessage) and not chat(app).streaming)

        def shown() -> str:
            return "\n".join(screen_lines(app))

        await wait_until(pilot, lambda: "After the table." in shown(), explain=shown)
        assert "longwordvalue0" in shown(), shown()
