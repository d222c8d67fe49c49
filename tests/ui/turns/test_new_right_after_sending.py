"""A message, then /new and another message typed at once: the second starts the new conversation.

The first message's turn creates its conversation in a thread; /new, run meanwhile, left it
(cancelled the turn, showed a new empty chat), and then the turn took the conversation it had
just made as the one shown, so the next message went into the first message's conversation.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from tests.ui.helpers import chat, type_at_once, wait_until, workers_done

SIZE = (120, 36)


@pytest.mark.slow
async def test_a_message_after_new_goes_to_a_new_conversation(chat_services, fake_openai):
    chat_services.settings.recall.semantic = False
    fake_openai.reply(" ".join(f"word{i}" for i in range(200)), words_per_second=40)
    fake_openai.reply("Sunny in Madrid.")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await wait_until(pilot, lambda: pane.prompt is not None and pane.prompt.has_focus)
        type_at_once(app, "what shall we do today\r/new\nhow is the weather in Madrid\r".replace("\n", "\r"))
        await wait_until(pilot, lambda: len(chat_services.history.list_conversations(limit=100)) >= 1
                         and any(m.content == "how is the weather in Madrid"
                                 for c in chat_services.history.list_conversations(limit=100)
                                 for m in chat_services.history.messages(c.id)), timeout=60)
        await wait_until(pilot, lambda: not pane.streaming)
        await workers_done(pilot)
        shown = pane.conversation_id
    history = chat_services.history
    where = {m.content: c.id for c in history.list_conversations(limit=100) for m in history.messages(c.id)
             if m.role == "user"}
    assert where["how is the weather in Madrid"] == shown
    assert where["what shall we do today"] != shown, where  # kept, in the conversation it was sent to
