"""A reply's code blocks: a line cut at the chat's edge is marked; one block is copied by key."""

from __future__ import annotations

from agenttui.ui.app import make_app
from agenttui.ui.inert import inert
from agenttui.ui.widgets.chat_log import ChatLog
from agenttui.ui.widgets.message_view import AssistantMessage, ReplyFence
from tests.ui.helpers import chat, send, wait_until
from tests.ui.terminal_frames import TerminalFrames

SIZE = (100, 40)
LONG = "x = '" + "wide " * 60 + "END'"  # far wider than the chat
FIRST = "print('first')\n"
HOSTILE = "echo ok \x1b]52;c;cm0gLXJmIH4K\x07 done\n"  # an OSC 52 would set the clipboard
REPLY = f"Two blocks:\n\n```python\n{FIRST}{LONG}\n```\n\nand\n\n```sh\n{HOSTILE}```\n"


async def test_a_clipped_code_line_is_marked_and_c_or_a_number_copies_one_block(chat_services, fake_openai):
    fake_openai.reply(REPLY)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        frames = TerminalFrames(app, SIZE)
        await send(pilot, "show me code")
        await wait_until(pilot, lambda: not chat(app).streaming and app.screen.query(AssistantMessage)
                         and app.screen.query_one(AssistantMessage).message_id is not None, timeout=60)
        def marked() -> bool:  # queried afresh: the saved reply may be rendered again at the end
            fences = [fence for fence in app.screen.query(ReplyFence) if fence.region.height][-2:]
            if len(fences) != 2 or not fences[0].has_class("-clipped") or fences[1].has_class("-clipped"):
                return False
            rows = [row.rstrip() for row in frames.rows(fences[0])]
            # the marker, a glyph (no colour needed), and the end of the line off screen indeed
            return any(row.endswith("▐") for row in rows) and not any("END" in row for row in rows)

        await wait_until(pilot, marked, timeout=60)

        chat(app).prompt.focus()
        await pilot.press("shift+tab")  # the reply is the newest message
        log = app.screen.query_one(ChatLog)
        await wait_until(pilot, lambda: log.has_focus and isinstance(log.cursor.selected, AssistantMessage))
        await pilot.press("c")  # the last block, made inert like ctrl+o's copy
        await wait_until(pilot, lambda: app.clipboard)
        assert app.clipboard == inert(HOSTILE)
        assert "\x1b" not in app.clipboard and "\x07" not in app.clipboard
        await pilot.press("1")
        await wait_until(pilot, lambda: app.clipboard.startswith("print"))
        assert app.clipboard == FIRST + LONG + "\n"
