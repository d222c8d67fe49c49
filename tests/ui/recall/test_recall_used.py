"""A reply's "used: …" line and the inspector it opens (issue "Recall", item 4).

Real stores, the real loop and ``openai`` client against the fake server:
a note in memory and a past message in another conversation that matches
the question are what the turn uses.
"""

from __future__ import annotations

from datetime import date

import pytest

from agenttui.core.models import Message
from agenttui.ui import messages as app_messages
from agenttui.ui.app import make_app
from agenttui.ui.screens.confirm import ConfirmScreen
from agenttui.ui.screens.prompt_inspector import PromptInspectorScreen
from agenttui.ui.widgets.chat_log import ChatLog
from agenttui.ui.widgets.memory_item_editor import MemoryItemEditor
from agenttui.ui.widgets.message_view import AssistantMessage, UserMessage
from agenttui.ui.widgets.used_line import UsedLine
from agenttui.ui.widgets.used_list import UsedList
from tests.ui.helpers import chat, send, wait_until

QUESTION = "what was the name of our hotel in Lisbon?"
NOTE = "I prefer window seats on flights"


def _today() -> str:
    today = date.today()
    return f"{today.day} {today:%b}"


def _seed(services) -> str:
    """A note, a past conversation about Lisbon, and a newer empty one the chat opens."""
    services.memory.add_note(NOTE)
    lisbon = services.history.create_conversation("Lisbon trip")
    services.history.append(lisbon.id, Message(role="user", content="Which hotel did we book in Lisbon?"))
    services.history.append(lisbon.id,
                            Message(role="assistant", content="You booked the Alfama Garden hotel in Lisbon."))
    services.history.create_conversation("Today")
    return lisbon.id


def _reply_line(app) -> UsedLine | None:
    replies = app.screen.query(AssistantMessage)
    return replies.last().used_line if replies else None


async def _turn(pilot, app, question: str = QUESTION) -> UsedLine:
    await wait_until(pilot, lambda: chat(app).conversation_id is not None)  # "Today" is open
    await send(pilot, question)
    await wait_until(pilot, lambda: not chat(app).streaming and _reply_line(app) is not None)
    return _reply_line(app)


@pytest.mark.slow
async def test_reply_shows_what_it_used_and_the_inspector_lists_it(chat_services, fake_openai):
    lisbon = _seed(chat_services)
    fake_openai.reply("It was the Alfama Garden.")
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        line = await _turn(pilot, app)
        assert line.text == f"used: 1 note · 2 past messages ({_today()})"
        assert "Alfama Garden hotel" in fake_openai.last_messages()[1]["content"]  # it really was sent
        await pilot.click(UsedLine)
        await wait_until(pilot, lambda: isinstance(app.screen, PromptInspectorScreen))
        used = app.screen.query_one(UsedList)
        rows = list(used.rows.values())
        assert [(r.kind, r.text) for r in rows] == [
            ("note", NOTE),
            ("message", "Which hotel did we book in Lisbon?"),
            ("message", "You booked the Alfama Garden hotel in Lisbon."),
        ]
        assert {r.conversation_id for r in rows[1:]} == {lisbon}
        label = str(used.get_option_at_index(1).prompt)
        assert "Lisbon trip" in label and _today() in label and "you:" in label
        assert app.focused is used  # the keys work at once
        # the request itself is below (this is the last turn's)
        assert QUESTION in str(app.screen.query_one("#inspector-body").render())


@pytest.mark.slow
async def test_edit_and_forget_a_note_from_the_inspector(chat_services, fake_openai):
    _seed(chat_services)
    fake_openai.reply("It was the Alfama Garden.")
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        await _turn(pilot, app)
        await pilot.press("f4")  # F4 opens at what the last reply used
        await wait_until(pilot, lambda: isinstance(app.screen, PromptInspectorScreen))
        inspector = app.screen
        await pilot.press("e")
        editor = inspector.query_one(MemoryItemEditor)
        await wait_until(pilot, lambda: app.focused is editor)
        assert editor.value == NOTE
        editor.value = "I prefer aisle seats on flights"
        await pilot.press("enter")
        await wait_until(pilot, lambda: [i.text for i in chat_services.memory.items()]
                         == ["I prefer aisle seats on flights"])
        used = inspector.query_one(UsedList)
        await wait_until(pilot, lambda: used.current.text == "I prefer aisle seats on flights")

        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("enter")  # Cancel has the focus: nothing is forgotten
        await wait_until(pilot, lambda: app.screen is inspector)
        assert len(chat_services.memory.items()) == 1
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#confirm")
        await wait_until(pilot, lambda: used.current.forgotten)
        assert chat_services.memory.items() == []
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is not inspector)
        memory_pane = app.screen.query_one("#memory-pane")
        await wait_until(pilot, lambda: memory_pane.items == {})  # the pane reloaded from disk


@pytest.mark.slow
async def test_enter_on_a_past_message_opens_its_conversation_there(chat_services, fake_openai):
    lisbon = _seed(chat_services)
    fake_openai.reply("It was the Alfama Garden.")
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        line = await _turn(pilot, app)
        today_id = chat(app).conversation_id
        line.focus()
        await pilot.press("enter")  # the line itself answers Enter when focused
        await wait_until(pilot, lambda: isinstance(app.screen, PromptInspectorScreen))
        used = app.screen.query_one(UsedList)
        answer = next(r for r in used.rows.values() if r.kind == "message" and r.text.startswith("You booked"))
        used.highlighted = used.get_option_index(answer.key)
        await pilot.press("enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, PromptInspectorScreen))
        await wait_until(pilot, lambda: chat(app).conversation_id == lisbon)
        log = app.screen.query_one(ChatLog)
        await wait_until(pilot, lambda: any(getattr(w, "message_id", None) == answer.message_id
                                            for w in log.query(AssistantMessage)))
        assert [m.text for m in log.query(UserMessage)] == ["Which hotel did we book in Lisbon?"]

        # Back in the first conversation, the reply still shows its line (kept for the session).
        chat(app).post_message(app_messages.ConversationRequested(today_id))
        await wait_until(pilot, lambda: chat(app).conversation_id == today_id and _reply_line(app) is not None)
        assert _reply_line(app).text.startswith("used: 1 note · 2 past messages")


@pytest.mark.slow
async def test_nothing_used_shows_no_line(chat_services, fake_openai):
    fake_openai.reply("Hello!")
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        await send(pilot, "hi")
        await wait_until(pilot, lambda: not chat(app).streaming and app.screen.query(AssistantMessage))
        await pilot.pause()
        assert not app.screen.query(UsedLine)


@pytest.mark.slow
async def test_the_line_stays_on_one_row_in_a_narrow_chat(chat_services, fake_openai):
    _seed(chat_services)
    chat_services.memory.set_fact("home_city", "Porto")
    fake_openai.reply("It was the Alfama Garden.")
    app = make_app(chat_services)
    async with app.run_test(size=(80, 24)) as pilot:
        line = await _turn(pilot, app)
        full = line.text
        assert full == f"used: 1 note · 1 fact · 2 past messages ({_today()})"
        app.action_toggle_memory()  # one sidebar: the chat's line has about 48 columns
        await wait_until(pilot, lambda: line.content_size.width < 60)
        shown = str(line.render())
        assert line.size.height == 1 and len(shown) <= line.content_size.width
        assert _today() in shown and "…" not in shown, shown
        app.action_toggle_history()  # both sidebars: about 20 columns
        await wait_until(pilot, lambda: line.content_size.width < 30)
        shown = str(line.render())
        assert line.size.height == 1 and len(shown) <= line.content_size.width
        assert shown == "used 2 mem · 2 msgs", shown


@pytest.mark.slow
async def test_an_earlier_reply_lists_its_own_items_not_the_last_request(chat_services, fake_openai):
    _seed(chat_services)
    fake_openai.reply("It was the Alfama Garden.")
    fake_openai.reply("Window seats, as you prefer.")
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        first = await _turn(pilot, app)
        await send(pilot, "which seats do I like on flights?")
        await wait_until(pilot, lambda: not chat(app).streaming and len(app.screen.query(UsedLine)) == 2)
        first.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, PromptInspectorScreen))
        assert any(r.text.startswith("You booked") for r in app.screen.query_one(UsedList).rows.values())
        body = str(app.screen.query_one("#inspector-body").render())
        assert "kept for the last turn" in body and "which seats" not in body


def test_rows_are_inert():
    from datetime import UTC, datetime

    from agenttui.core.recall.retrieval import Snippet, Turn
    from agenttui.core.recall.usage import RecallUsage
    from agenttui.ui.widgets.used_list import row_label, rows_for

    when = datetime(2026, 3, 12, 9, tzinfo=UTC)
    hostile = "click \x1b]52;c;cm0gLXJmIH4=\x07[bold]here[/bold]\x1b[2J"
    snippet = Snippet(source="message", score=1.0, date=when, text=hostile, conversation_id="c",
                      conversation_title="t\x1b[31mred", message_id=7,
                      turns=(Turn(7, "assistant", when, hostile, matched=True),))
    label = row_label(rows_for(RecallUsage.of([], [snippet]))[0])
    assert "\x1b" not in label.plain and "\x07" not in label.plain
    assert "[bold]here[/bold]" in label.plain  # shown literally, never parsed as markup
