"""The chat's keys are declared once, in ``bindings.APP_ACTIONS`` with a target: the app holds
no ``action_*`` that only calls the chat pane, and each key still runs the pane's method.

Real services, the real openai client against the fake server, Textual Pilot.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import AgentTUI, make_app
from agenttui.ui.bindings import APP_ACTIONS
from agenttui.ui.widgets.chat_pane import ChatPane
from agenttui.ui.widgets.message_view import AssistantMessage
from tests.ui.helpers import chat, replies, send, send_and_wait, wait_until

SIZE = (120, 36)


def test_every_action_is_run_by_the_target_its_table_row_names() -> None:
    targets = {"chat": ChatPane}
    for spec in APP_ACTIONS:
        own = getattr(AgentTUI, f"action_{spec.action.partition('(')[0]}", None)
        if spec.target == "app":
            assert callable(own), spec.id
        else:  # the pane's work: no forwarding action on the app
            assert own is None, f"AgentTUI.action_{spec.action} forwards {spec.id}"
            assert callable(getattr(targets[spec.target], spec.method, None)), spec.id


@pytest.mark.slow
async def test_each_chat_key_runs_the_chat_panes_method(chat_services, fake_openai):
    fake_openai.reply("first answer")
    fake_openai.reply("second answer")
    fake_openai.reply("word " * 400, words_per_second=40)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await send_and_wait(pilot, "a question")
        pane = chat(app)
        await pilot.press("ctrl+o")  # copy_last_reply
        await wait_until(pilot, lambda: "first answer" in app.clipboard)
        await pilot.press("ctrl+r")  # retry: the reply asked again
        await wait_until(pilot, lambda: "second answer" in replies(app) and not pane.streaming)
        await send(pilot, "a long one")  # escape: stop_turn
        await wait_until(pilot, lambda: pane.streaming and replies(app) and "word" in replies(app)[-1])
        await pilot.press("escape")
        await wait_until(pilot, lambda: not pane.streaming)
        assert app.screen.query(AssistantMessage).last().has_class("-incomplete")
        before = pane.conversation_id
        await pilot.press("ctrl+n")  # new_conversation
        await wait_until(pilot, lambda: pane.conversation_id != before and not app.screen.query(AssistantMessage))
        await pilot.press("alt+i")  # toggle_incognito
        await wait_until(pilot, lambda: pane.incognito and app.incognito)
