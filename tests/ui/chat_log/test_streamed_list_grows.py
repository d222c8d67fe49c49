"""A list in a streamed reply grows by its last items: the items above stay mounted.

Textual's ``Markdown.append`` removed a growing list and mounted it again whole at each
batch (five a second): a reply of a few hundred numbered items spent most of its CPU
mounting the same items again and showed its words far behind the model. What is shown
must still be what the whole reply rendered in one go shows (markers realigned when the
numbers get wider, nested lists in the last item, lazy "1. 1. 1." numbering).
"""

from __future__ import annotations

from unittest.mock import patch

from textual.containers import Horizontal, VerticalScroll
from textual.widgets._markdown import MarkdownOrderedList  # not exported

from agenttui.ui.widgets import message_view
from agenttui.ui.widgets.message_view import AssistantMessage
from tests.ui.chat_log.test_stream_render_matches import _Log, _on_screen, stream_and_render


def _items(count: int, marker: str = "{n}.") -> list[str]:
    return [f"{marker.format(n=n)} item {n} of the list\n" for n in range(1, count + 1)]


async def test_a_numbered_list_streamed_item_by_item_shows_what_a_whole_render_shows():
    chunks = ["Ideas:\n\n", *_items(12), "\nThat is all."]
    streamed, whole, _ = await stream_and_render(chunks)
    assert streamed == whole
    bullets = [text for kind, text in streamed if kind == "bullet"]
    assert bullets[0] == "  1. " and bullets[-1] == " 12. "  # realigned once the numbers got wider


async def test_lazy_numbering_and_a_nested_list_in_the_last_item_show_what_a_whole_render_shows():
    nested = ["   - sub a\n", "   - sub b\n", "     - deeper\n"]
    chunks = [
        "Steps:\n\n",
        *_items(10, marker="1."),
        *nested,
        "1. after the nested one\n",
        "- a bullet list\n",
        "- its second item\n",
        "\nDone.",
    ]
    streamed, whole, _ = await stream_and_render(chunks)
    assert streamed == whole


async def test_the_items_above_the_last_stay_mounted_as_the_list_grows():
    app = _Log()
    chunks = _items(30)
    with patch.object(message_view, "STREAM_INTERVAL", 0.001):
        async with app.run_test():
            view = AssistantMessage.streaming("".join(chunks[:3]))
            await app.query_one(VerticalScroll).mount(view)
            await _on_screen(view, "".join(chunks[:3]))
            first = view.markdown.query_one(MarkdownOrderedList).query_children(Horizontal).first()
            written = "".join(chunks[:3])
            for chunk in chunks[3:]:
                await view.write(chunk)
                written += chunk
                await _on_screen(view, written)
            await view.finish()
            rows = list(view.markdown.query_one(MarkdownOrderedList).query_children(Horizontal))
            assert len(rows) == 30
            assert rows[0] is first and first.is_attached
