"""A reply with a list nested deeper than the Markdown parser goes is shown whole.

markdown-it stops ten list levels down and skips the rest of the enclosing block, which
for a nested list item is the rest of the reply: a file tree written as nested bullets
showed nine levels, and the paragraph and table under it were missing from the chat.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import AssistantMessage, reply_parser
from tests.ui.chat_log.test_wide_table_stays_in_chat import SIZE, screen_lines
from tests.ui.helpers import chat, send, wait_until

TREE = "\n".join("  " * depth + f"- dir{depth}/" for depth in range(12))
REPLY = f"The layout:\n\n{TREE}\n\nThe end of the reply.\n\n| file | lines |\n|---|---|\n| app.py | 630 |\n"


def _texts(tokens) -> str:
    return " ".join(token.content for token in tokens)


@pytest.mark.parametrize(
    "text, deepest",
    [
        (REPLY, "dir11/"),
        (
            "> " * 30 + "deep quote\n\nThe end of the reply.\n\n| file | lines |\n|---|---|\n| app.py | 630 |\n",
            "deep quote",
        ),
    ],
)
def test_blocks_past_the_nesting_limit_are_parsed_as_written_and_what_follows_them_too(text, deepest):
    tokens = reply_parser().parse(text)
    assert deepest in _texts(tokens)
    assert "The end of the reply." in _texts(tokens)
    assert "table_open" in [token.type for token in tokens]


def test_nesting_within_the_limit_parses_as_before():
    from markdown_it import MarkdownIt

    shallow = "\n".join("  " * depth + f"- dir{depth}/" for depth in range(9)) + "\n\nAfter.\n\n> > quoted\n"
    plain = MarkdownIt("gfm-like", {"html": False})
    assert [(t.type, t.content) for t in reply_parser().parse(shallow)] == [
        (t.type, t.content) for t in plain.parse(shallow)
    ]


@pytest.mark.slow
async def test_a_reply_with_a_twelve_level_list_shows_its_deepest_items_and_the_text_after_it(
    chat_services, fake_openai
):
    fake_openai.reply(REPLY, words_per_second=200)  # streamed in several batches (appends)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        await send(pilot, "show me the tree")
        await wait_until(pilot, lambda: app.screen.query(AssistantMessage) and not chat(app).streaming)

        def shown() -> str:
            return "\n".join(screen_lines(app))

        await wait_until(pilot, lambda: "The end of the reply." in shown() and "app.py" in shown(), explain=shown)
        assert "dir11/" in shown()
