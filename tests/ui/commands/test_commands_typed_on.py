"""Slash commands typed quickly one after another, with messages between them.

What is typed while a command runs is held and handled after it (chat_pane.run_command).
A command that asks something in a dialog is not over until it is answered: what was
typed after it belongs to what the answer makes of the chat.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.screens.confirm import ConfirmScreen
from tests.ui.commands.memory_lock import remember_waiting
from tests.ui.helpers import chat, notifications, replies, send, send_and_wait, type_at_once, wait_until

SIZE = (120, 36)


def _saved_texts(services) -> list[str]:
    history = services.history
    return [m.content for c in history.list_conversations(limit=1000) for m in history.messages(c.id)]


@pytest.mark.slow
async def test_a_message_typed_after_leaving_incognito_goes_to_the_saved_chat_once_answered(chat_services, fake_openai):
    chat_services.settings.recall.semantic = False
    fake_openai.reply("Secret noted.")
    fake_openai.reply("Back in the saved chat.")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        type_at_once(app, "/incognito\r")
        await wait_until(pilot, lambda: pane.incognito)
        await send_and_wait(pilot, "a secret")
        type_at_once(app, "/incognito\rfor the saved chat\r")  # leave, then a message for the saved chat
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, ConfirmScreen),
            explain=lambda: (pane.turns.command, pane.turns.unsent, replies(app)),
        )
        assert pane.turns.unsent == ["for the saved chat"]  # shown as waiting, not sent incognito
        assert len(fake_openai.chat_requests) == 1
        await pilot.press("escape")  # Cancel: nothing of the incognito chat is kept
        await wait_until(
            pilot,
            lambda: "Back in the saved chat." in replies(app),
            explain=lambda: (pane.incognito, pane.turns.unsent, replies(app)),
        )
        assert not pane.incognito
    saved = _saved_texts(chat_services)
    assert "for the saved chat" in saved and "a secret" not in saved


@pytest.mark.slow
async def test_quitting_while_remember_waits_on_the_lock_shows_it_and_quits_once_the_note_is_kept(
    chat_services, fake_openai, monkeypatch
):
    """ctrl+q left the terminal blank (the app gone, the process waiting on the write's thread)."""
    async with remember_waiting(chat_services, monkeypatch, SIZE) as waiting:
        app, pilot = waiting.app, waiting.pilot
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: any("/remember ends" in text for _, _, text in notifications(app)))
        assert app.return_code is None and app.screen is app.main  # still there, saying why
        waiting.release()
        await wait_until(pilot, lambda: app.return_code is not None, timeout=60)
    assert [item.text for item in chat_services.memory.items()] == ["I drink jasmine tea"]


async def test_a_message_that_only_looks_like_a_command_goes_back_to_the_prompt(chat_services, fake_openai):
    """A path first ("/etc/hosts has…", often a paste) was refused as an unknown command, and gone."""
    chat_services.settings.recall.semantic = False
    text = "/etc/hosts has this line:\n127.0.0.1 localhost"
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await send(pilot, text)
        await wait_until(pilot, lambda: any("Unknown command" in body for _, _, body in notifications(app)))
        await wait_until(pilot, lambda: pane.prompt.text == text, explain=lambda: pane.prompt.text)
        assert not fake_openai.chat_requests


@pytest.mark.slow
async def test_a_message_held_behind_a_command_goes_back_to_the_prompt_when_another_conversation_opens(
    chat_services, fake_openai, monkeypatch
):
    """Typed for this conversation, then ctrl+n: not sent into the new one (as a queued message)."""
    async with remember_waiting(chat_services, monkeypatch, SIZE) as waiting:
        app, pilot, pane = waiting.app, waiting.pilot, waiting.pane
        type_at_once(app, "what do I drink?\r/remember I live in Bandung\r")
        typed = ["what do I drink?", "/remember I live in Bandung"]
        await wait_until(pilot, lambda: pane.turns.unsent == typed, explain=lambda: pane.turns.unsent)
        await pilot.press("ctrl+n")
        await wait_until(pilot, lambda: pane.prompt.text == "what do I drink?", explain=lambda: pane.prompt.text)
        assert pane.turns.unsent == ["/remember I live in Bandung"]  # a command is no conversation's
        waiting.release()
        await wait_until(pilot, lambda: len(chat_services.memory.items()) == 2, timeout=60)
        await wait_until(pilot, lambda: pane.turns.command is None and not pane.turns.unsent)
        assert pane.prompt.text == "what do I drink?"
    assert not fake_openai.chat_requests


@pytest.mark.slow
async def test_quitting_with_a_message_held_behind_a_command_says_what_it_waits_for(
    chat_services, fake_openai, monkeypatch
):
    """The question said 'typed during the reply' when no reply ran (held behind /remember)."""
    from agenttui.ui.screens.quit_confirm import QuitConfirm

    async with remember_waiting(chat_services, monkeypatch, SIZE) as waiting:
        app, pilot, pane = waiting.app, waiting.pilot, waiting.pane
        await send(pilot, "what do I drink?")
        await wait_until(pilot, lambda: pane.turns.unsent == ["what do I drink?"])
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: isinstance(app.screen, QuitConfirm))
        assert "typed during /remember is queued" in app.screen.statement, app.screen.statement
        await pilot.press("escape")
        waiting.release()
        await wait_until(pilot, lambda: pane.turns.command is None and not pane.turns.unsent, timeout=60)
