"""A table wider than the chat stays inside the chat: it scrolls sideways there, and the
History pane beside it is drawn whole.

Textual shrinks a table's columns to fit however many there are; 40 columns in a
63-column chat left each 0-2 cells wide, and a cell narrower than its padding drew
its row past the chat's border, blanking the History pane's lines beside it.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import AssistantMessage
from tests.ui.helpers import chat, send, wait_until

SIZE = (120, 40)


def table(columns: int, rows: int = 4) -> str:
    return "\n".join(["| " + " | ".join(f"head{c}" for c in range(columns)) + " |",
                      "|" + "|".join("---" for _ in range(columns)) + "|",
                      *("| " + " | ".join(f"v{r}.{c}" for c in range(columns)) + " |" for r in range(rows))])


def screen_lines(app) -> list[str]:
    """The screen as the terminal would show it, one string per line."""
    console = Console(width=SIZE[0], record=True, file=io.StringIO(), color_system=None)
    console.print(app.screen._compositor.render_update(full=True))  # what the driver would write
    return console.export_text().splitlines()


async def _reply_with(pilot, text: str) -> AssistantMessage:
    app = pilot.app
    await wait_until(pilot, lambda: app.main.panes_ready)
    await send(pilot, "show me a table")
    await wait_until(pilot, lambda: app.screen.query(AssistantMessage) and not chat(app).streaming)
    await pilot.pause()
    return app.screen.query(AssistantMessage).last()


@pytest.mark.slow
async def test_a_table_wider_than_the_chat_scrolls_inside_it_and_leaves_the_history_pane_whole(
        chat_services, fake_openai):
    fake_openai.default.text = "A wide one:\n\n" + table(40) + "\n\nAfter the table."
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        reply = await _reply_with(pilot, fake_openai.default.text)
        chat_box, history = chat(app).region, app.screen.query_one("#history-pane").region
        lines = screen_lines(app)
        for y in range(history.y, history.bottom):  # each line of both panes keeps its borders
            line = lines[y]
            assert line[chat_box.right - 1] in "│╮╯" and line[history.x] in "│╭╰", f"line {y}: {line!r}"
            assert line[history.right - 1] in "│╮╯", f"line {y}: {line!r}"
        shown = "\n".join(lines)
        assert "head0" in shown and "v3.0" in shown  # columns wide enough to read
        table_block = reply.markdown.query_one("MarkdownTable")
        assert table_block.max_scroll_x > 0  # the rest is a sideways scroll away, inside the reply
        assert table_block.region.right <= chat_box.right


@pytest.mark.slow
async def test_a_table_that_fits_looks_as_before(chat_services, fake_openai):
    fake_openai.default.text = table(3)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        reply = await _reply_with(pilot, fake_openai.default.text)
        table_block = reply.markdown.query_one("MarkdownTable")
        grid = table_block.query_one("MarkdownTableContent")
        assert table_block.max_scroll_x == 0 and not table_block.scrollbars_enabled[1]
        assert grid.region.width == table_block.region.width  # spread over the reply's width
