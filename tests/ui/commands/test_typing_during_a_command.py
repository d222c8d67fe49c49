"""What is typed while a slash command still runs is queued where it shows, and sent after it.

``/remember`` waits up to 30 s when another agenttui process holds the memory file's
lock. Awaited inside the Enter handler, it held every later Enter in the chat pane's
message queue: the text left the prompt, showed nowhere, and was gone if the app quit.
Here another process really holds the lock (a child python with ``filelock``).
"""

from __future__ import annotations

import pytest

from agenttui.core import files
from agenttui.ui.app import make_app
from agenttui.ui.screens.quit_confirm import QuitConfirm
from agenttui.ui.widgets.queued_line import QueuedLine
from tests.ui.commands.memory_lock import lock_held_elsewhere, release
from tests.ui.helpers import chat, notifications, replies, send, wait_until

SIZE = (100, 30)


def queued_line(app) -> str:
    line = app.screen.query_one(QueuedLine)
    return str(line.render()) if line.has_class("-shown") else ""


@pytest.mark.slow
async def test_a_message_typed_while_remember_waits_is_queued_shown_and_sent_after_the_note(
        chat_services, fake_openai, monkeypatch):
    monkeypatch.setattr(files, "LOCK_TIMEOUT_S", 600.0)  # a busy machine: /remember waits for us, not 30 s
    chat_services.settings.recall.semantic = False
    fake_openai.reply("You drink jasmine tea.")
    app = make_app(chat_services)
    with lock_held_elsewhere(chat_services.paths.user_memory_file) as holder:
        async with app.run_test(size=SIZE) as pilot:
            pane = chat(app)
            await send(pilot, "/remember I drink jasmine tea every morning")
            await wait_until(pilot, lambda: pane.prompt.text == "")  # taken: it waits on the lock now
            await send(pilot, "what do I drink?")
            await send(pilot, "/remember I live in Bandung")  # a command behind it waits its turn too
            typed = ["what do I drink?", "/remember I live in Bandung"]
            await wait_until(pilot, lambda: getattr(pane.turns, "unsent", None) == typed,  # before the lock goes
                             timeout=10, explain=lambda: pane.turns.queued)
            assert "/remember ends" in queued_line(app) and "what do I drink?" in queued_line(app)
            assert pane.prompt.text == ""

            await pilot.press("ctrl+q")  # quitting now would drop them: it asks, Esc keeps them
            await wait_until(pilot, lambda: isinstance(app.screen, QuitConfirm))
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is app.main)
            assert pane.turns.unsent == typed

            release(holder)
            await wait_until(pilot, lambda: "You drink jasmine tea." in replies(app), timeout=60,
                             explain=lambda: (pane.turns.command, pane.turns.queued, notifications(app)))
            await wait_until(pilot, lambda: [t for _, t, _ in notifications(app)].count("Remembered") == 2,
                             explain=lambda: notifications(app))
            await wait_until(pilot, lambda: getattr(pane.turns, "command", None) is None and not pane.turns.unsent)
            assert queued_line(app) == ""

    assert "I drink jasmine tea every morning" in fake_openai.last_system_prompt()  # the note came first
    texts = [item.text for item in chat_services.memory.items()]
    assert sorted(texts) == ["I drink jasmine tea every morning", "I live in Bandung"], texts
