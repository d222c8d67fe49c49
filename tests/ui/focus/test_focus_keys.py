"""Where the focus keys land: F2 on Memory's add box, shift+tab on the newest message, marked."""

from __future__ import annotations

from textual.widgets import Input

from agenttui.core.models import Message
from agenttui.ui.app import make_app
from agenttui.ui.widgets.chat_log import ChatLog
from agenttui.ui.widgets.message_view import AssistantMessage, UserMessage
from agenttui.ui.widgets.used_line import UsedLine
from tests.ui.helpers import chat, send, wait_until
from tests.ui.terminal_frames import TerminalFrames

SIZE = (120, 36)
QUESTION = "what was the name of our hotel in Lisbon?"


async def test_f2_lands_where_typing_adds_a_note_and_deletes_nothing(services):
    services.memory.add_note("alpha likes tea")
    services.memory.add_note("bravo likes coffee")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None and chat(app).prompt.has_focus)
        await pilot.press("f2")
        adding = app.screen.query_one("#memory-add", Input)
        await wait_until(pilot, lambda: adding.has_focus)
        await pilot.press(*"dad uses a kettle", "enter")
        await wait_until(pilot, lambda: len(services.memory.items()) == 3)
        assert {"alpha likes tea", "bravo likes coffee"} <= {item.text for item in services.memory.items()}


async def test_shift_tab_selects_the_newest_message_past_the_used_line_and_marks_it(chat_services, fake_openai):
    chat_services.memory.add_note("I prefer window seats on flights")
    lisbon = chat_services.history.create_conversation("Lisbon trip")
    chat_services.history.append(lisbon.id, Message(role="user", content="Which hotel did we book in Lisbon?"))
    chat_services.history.append(lisbon.id, Message(role="assistant", content="The Alfama Garden hotel."))
    chat_services.history.create_conversation("Today")
    fake_openai.reply("It was the Alfama Garden.")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        frames = TerminalFrames(app, SIZE)
        await wait_until(pilot, lambda: chat(app).conversation_id is not None)
        await send(pilot, QUESTION)
        reply = None

        def used_shown() -> bool:
            nonlocal reply
            views = app.screen.query(AssistantMessage)
            reply = views.last() if views else None
            return (not chat(app).streaming and reply is not None and reply.used_line is not None
                    and reply.message_id is not None)

        await wait_until(pilot, used_shown, timeout=60)
        log = app.screen.query_one(ChatLog)
        chat(app).prompt.focus()
        await pilot.press("shift+tab")
        await wait_until(pilot, lambda: log.has_focus)
        assert not isinstance(app.focused, UsedLine)
        assert log.cursor.selected is reply  # the newest message, so ↑/↓, r, e act at once

        def marked(widget) -> bool:  # a glyph, not a colour, on every row of the widget on screen
            rows = frames.rows(widget)
            return bool(rows) and all(row.startswith("┃") for row in rows if row.strip())

        await wait_until(pilot, lambda: marked(reply))
        await pilot.press("up")  # its question (the widget, not a copy the log may page in later)
        cursor = log.cursor
        await wait_until(pilot, lambda: isinstance(cursor.selected, UserMessage) and cursor.selected.text == QUESTION)

        def marked_question() -> bool:  # the copy marked (a question sent as a page was read shows twice)
            return any(m.text == QUESTION and m.has_class("-selected") and marked(m)
                       for m in app.screen.query(UserMessage))

        await wait_until(pilot, lambda: marked_question()
                         and not any(row.startswith("┃") for row in frames.rows(reply)))
