"""Esc typed together with what follows cancels a rename and renames nothing.

Textual reads ESC followed at once by a letter as alt+<letter>: Esc and "hello" typed
quickly in the rename box replaced the title (selected on focus) with "hello", and an Enter
in the same burst saved it. After Esc the focus is on the list, whose letters are commands
(d deletes, a archives): the rest of the burst is not handed on there either.
"""

from __future__ import annotations

import pytest

from agenttui.core.models import Message
from agenttui.ui.app import make_app
from tests.ui.helpers import history_list_focused, typed_in_terminal, wait_until, workers_done

SIZE = (120, 40)


@pytest.mark.slow
@pytest.mark.parametrize("burst", ["\x1bhello\r", "\x1bdelete\r", "\x1b\x1bad\r", "\x1b2 cats?\r"])
async def test_esc_with_typing_cancels_the_rename(services, burst):
    conversation = services.history.create_conversation("Deploy notes")
    services.history.append(conversation.id, Message(role="user", content="how do we deploy?"))
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = await history_list_focused(pilot, app, 1)
        await pilot.press("r")
        rename = pane.query_one("#history-rename")
        await wait_until(pilot, lambda: rename.has_focus)

        typed_in_terminal(app, burst)  # the app's parser in a terminal: Esc + "2 …" is Esc, then "2 …"
        await wait_until(pilot, lambda: not rename.display)
        await workers_done(pilot)
        assert app.screen is app.main  # no delete confirmation asked for
    kept = services.history.get_conversation(conversation.id)
    assert kept is not None and kept.title == "Deploy notes" and not kept.archived
