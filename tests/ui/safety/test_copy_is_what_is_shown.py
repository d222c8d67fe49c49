"""ctrl+o ("copy last reply") copies what the screen shows: control sequences inert.

A reply may carry ESC sequences, an OSC 52 (which would set the clipboard of
the terminal it is pasted into), an OSC 0 (the window title), C0 and C1
controls. The screen shows them as ``\\x1b``-style escapes; the clipboard must
hold the same text, or a later paste into a shell would carry the raw bytes.
"""

from __future__ import annotations

import pytest

from agenttui.core.visible_text import inert_text
from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import AssistantMessage
from tests.ui.helpers import chat, send_and_wait, wait_until

HOSTILE = ("plain \x1b[31mred\x1b[0m osc52 \x1b]52;c;cm0gLXJmIH4K\x07 title \x1b]0;pwned\x1b\\ "
           "c0 \x00\x07\x08\x7f over\rwrite c1 \x9b2J \x9d0;t\x9c nel\x85 bidi \u202eevil\n"
           "second line\ttab")
C0_C1 = {chr(c) for c in range(0x20) if chr(c) not in "\n\t"} | {chr(c) for c in range(0x7F, 0xA0)}


def assert_inert_copy(app) -> None:
    copied = app.clipboard
    shown = app.screen.query(AssistantMessage).last().markdown.source
    assert copied == shown == inert_text(HOSTILE)
    assert not C0_C1 & set(copied) and "\u202e" not in copied
    # nothing was dropped either: every sequence is there, as visible text
    for visible in ("\\x1b[31m", "\\x1b]52;c;cm0gLXJmIH4K\\x07", "\\x1b]0;pwned\\x1b\\",
                    "\\x00\\x07\\x08\\x7f", "over\\x0dwrite", "\\x9b2J", "\\x9d0;t\\x9c",
                    "\\x85", "\\u202e", "second line\ttab"):
        assert visible in copied, visible


@pytest.mark.slow
async def test_ctrl_o_copies_the_reply_inert_as_shown(chat_services, fake_openai):
    fake_openai.reply(HOSTILE)
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        await send_and_wait(pilot, "say something odd")
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: app.clipboard)
        assert_inert_copy(app)
        cid = chat(app).conversation_id

    # the same reply read back from history (no streamed text kept): the same copy
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: chat(app).is_mounted)
        await chat(app).open_conversation(cid)
        await wait_until(pilot, lambda: app.screen.query(AssistantMessage))
        assert not chat(app).turn_view.last_reply_text
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: app.clipboard)
        assert_inert_copy(app)
