"""Esc and the next message typed at once, from the Memory pane's add box or the History search.

Esc there goes back to the chat; typed together with the message, the terminal's
bytes became alt+<first letter> and the rest, which Textual's Input typed into the
box -- and Enter kept the message as a memory note (escape_aware_input.py). The
events are the ones Textual's own parser makes from the bytes, posted at once.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from tests.ui.helpers import chat, focused_field, type_at_once, wait_until

SIZE = (120, 36)
MESSAGE = "hello there, this is for the chat"


@pytest.mark.slow
@pytest.mark.parametrize("box", ["#memory-add", "#history-search"])
async def test_esc_and_a_message_at_once_leave_the_box_and_send_the_message(chat_services, fake_openai, box):
    chat_services.memory.add_note("Prefers tea over coffee.")
    notes = [i.text for i in chat_services.memory.items()]
    fake_openai.reply("Noted.")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        field = await focused_field(pilot, app, box)
        type_at_once(app, "\x1b" + MESSAGE + "\r")
        await wait_until(pilot, lambda: bool(fake_openai.chat_requests),
                         explain=lambda: (repr(field.value), repr(chat(app).prompt.text), app.focused))
        assert fake_openai.last_messages()[-1]["content"] == MESSAGE
        assert field.value == "" and chat(app).prompt.has_focus
    assert [i.text for i in chat_services.memory.items()] == notes  # not kept as a note


@pytest.mark.slow
async def test_the_add_box_still_types_and_adds_a_note(chat_services):
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await focused_field(pilot, app, "#memory-add")
        type_at_once(app, "likes green tea\r")
        await wait_until(pilot, lambda: any("green tea" in i.text for i in chat_services.memory.items()))


@pytest.mark.slow
async def test_a_search_holding_text_types_the_burst_and_runs_no_list_key(chat_services):
    """With text, the search's Esc clears it and moves to the conversation list, whose keys are
    commands ("d" deletes): a merged Esc there is typed into the box, as a plain Input does."""
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        field = await focused_field(pilot, app, "#history-search")
        type_at_once(app, "kyoto")
        await wait_until(pilot, lambda: field.value == "kyoto")
        type_at_once(app, "\x1bdelete")  # alt+d, then "elete"
        await wait_until(pilot, lambda: field.value == "kyotodelete", explain=lambda: repr(field.value))
        assert field.has_focus


@pytest.mark.slow
async def test_a_bound_alt_key_in_the_add_box_runs_its_binding_and_types_nothing(chat_services):
    """alt+i from a terminal is ESC i, the key alt+i with the character "i": Input typed the "i"
    and incognito never started."""
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        field = await focused_field(pilot, app, "#memory-add")
        type_at_once(app, "\x1bi")
        await wait_until(pilot, lambda: chat(app).incognito, explain=lambda: repr(field.value))
        assert field.value == ""
