"""Esc and the next message typed at once, in the dialogs whose keys are letters.

The audit ("e" edits, "d" deletes, "m" merges), the MCP list ("e" enables, "r" lists)
and the profiles list ("d" deletes, "n" creates) read Esc merged with the next key
(one alt+<key> from the terminal: escape_then_key.py) as Esc, and hand the message
to the prompt. Before, the dialog stayed open and the message's letters ran its
commands. The events are the ones Textual's own parser makes from the bytes.
"""

from __future__ import annotations

import pytest

from tests.ui.helpers import chat, type_at_once, wait_until

SIZE = (120, 36)
MESSAGE = "edit nothing and delete nothing, merge nothing"


@pytest.mark.slow
@pytest.mark.parametrize("opener", ["action_open_audit", "action_open_mcp", "action_open_profiles"])
async def test_esc_and_a_message_at_once_close_the_dialog_and_send_the_message(chat_services, fake_openai,
                                                                             opener):
    from agenttui.ui.app import make_app

    chat_services.memory.add_note("Prefers tea over coffee.")
    notes = [i.text for i in chat_services.memory.items()]
    fake_openai.reply("Noted.")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready and chat(app).prompt is not None)
        main = app.screen
        getattr(app, opener)()
        await wait_until(pilot, lambda: app.screen is not main and app.screen.is_mounted)
        dialog = app.screen
        type_at_once(app, "\x1b" + MESSAGE + "\r")
        await wait_until(pilot, lambda: bool(fake_openai.chat_requests),
                         explain=lambda: (type(app.screen).__name__, chat(app).prompt.text))
        assert app.screen is main and not dialog.is_attached
        assert fake_openai.last_messages()[-1]["content"] == MESSAGE
    assert [i.text for i in chat_services.memory.items()] == notes  # nothing edited or deleted
