"""Control sequences from the model or tools never reach the terminal."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agenttui.ui.app import make_app
from agenttui.ui.inert import InertStream, inert
from agenttui.ui.widgets.message_view import AssistantMessage
from tests.ui.helpers import chat, replies, send, wait_until

HOSTILE = "a\x1b[31mred\x1b[0m b\x1b]52;c;cm0gLXJmIH4=\x07 c\x1b]0;pwned\x1b\\ d\x9b2J e\x00\x07f[bold]g[/bold]"


def test_sequences_and_controls_are_shown_as_escapes_never_stripped():
    out = inert(HOSTILE)
    assert not any(c in out for c in "\x1b\x9b\x07\x00")
    assert out == ("a\\x1b[31mred\\x1b[0m b\\x1b]52;c;cm0gLXJmIH4=\\x07 c\\x1b]0;pwned\\x1b\\ "
                   "d\\x9b2J e\\x00\\x07f[bold]g[/bold]")
    assert "[bold]g[/bold]" in out  # markup stays literal text
    assert inert("line1\n\tline2\r\n") == "line1\n\tline2\n"
    assert inert("over\rwrite") == "over\\x0dwrite"  # a lone CR would hide what came before


@given(st.lists(st.text(alphabet="ab[];\x1b\x07\x9b\x9d\\0123mJ\n\r\u202e", max_size=20), max_size=8))
def test_stream_never_lets_an_escape_through_and_matches_the_whole(chunks):
    stream = InertStream()
    out = "".join(stream.feed(chunk) for chunk in chunks) + stream.flush()
    assert not any(c in out for c in "\x1b\x07\x9b\x9d\r\u202e")
    assert out == inert("".join(chunks))


def test_crlf_split_across_chunks_is_one_newline():
    stream = InertStream()
    out = "".join(stream.feed(c) for c in ["x\r", "\ny\r", "z"]) + stream.flush()
    assert out == "x\ny\\x0dz"


@pytest.mark.slow
async def test_hostile_reply_is_shown_inert(chat_services, fake_openai):
    fake_openai.reply(HOSTILE)
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        await send(pilot, "say something odd")
        await wait_until(pilot, lambda: replies(app) and not chat(app).streaming)
        source = app.screen.query_one(AssistantMessage).markdown.source
        assert "\x1b" not in source and "\x07" not in source
        assert "red" in source and "\\x1b]0;pwned" in source  # the hidden title is shown, inert
