"""Incognito in the app: alt+i / /incognito, the badge, nothing written, save on leave.

Real services over the test's AGENTTUI_HOME, real SQLite and memory files, the
real openai client against the fake server, Textual Pilot.
"""

from __future__ import annotations

import pytest

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message
from agenttui.ui.app import make_app
from agenttui.ui.screens.confirm import ConfirmScreen
from agenttui.ui.widgets.message_view import UserMessage
from tests.data_dir import tree
from tests.ui.helpers import chat, replies, send, wait_until

SIZE = (120, 36)


def _without_indexing(services) -> None:
    """The history indexer (semantic recall, "auto") writes vectors of *saved* messages; the app
    pauses it while incognito (tests/unit/history/test_embeddings.py), but on a busy machine its
    first pass can run before the test enters incognito, and the data dir would differ by that."""
    services.settings.recall.semantic = False


@pytest.fixture
def seeded(paths, make_services):
    """A saved conversation and a memory note, written by the real stores."""
    services = make_services()
    services.memory.add_note("I prefer short answers")
    store = HistoryStore(paths.history_db("default"))
    kept = store.create_conversation("Kraken deploy")
    store.append(kept.id, Message(role="user", content="how do we deploy the kraken service?"))
    store.append(kept.id, Message(role="assistant", content="Run make ship-kraken from the ops repo."))
    store.close()
    services.close()
    return kept


async def _enter(pilot, app) -> None:
    await wait_until(pilot, lambda: app.main.panes_ready and chat(app).conversation_id is not None)
    await pilot.press("alt+i")
    await wait_until(pilot, lambda: chat(app).incognito)


@pytest.mark.slow
async def test_an_incognito_session_leaves_the_data_dir_byte_identical(
        chat_services, fake_openai, seeded, isolated_home):
    fake_openai.reply("Use make ship-kraken.")
    before = tree(isolated_home)
    _without_indexing(chat_services)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await _enter(pilot, app)
        pane = chat(app)
        assert "INCOGNITO" in app.sub_title and pane.has_class("-incognito")
        assert "incognito" in str(pane.border_title)
        assert not pane.query(UserMessage)  # a fresh conversation, not the latest one
        await send(pilot, "remind me how the kraken service gets deployed")
        await wait_until(pilot, lambda: not pane.streaming and replies(app))
        assert replies(app) == ["Use make ship-kraken."]
        sent = fake_openai.chat_requests[-1]["messages"]
        assert "I prefer short answers" in sent[0]["content"]  # memory is read
        assert [m["role"] for m in sent if m["role"] != "system"] == ["user"]
        await pilot.press("alt+i")  # leave: it offers to save
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("escape")  # no: leave nothing behind
        await wait_until(pilot, lambda: not pane.incognito)
        assert "INCOGNITO" not in app.sub_title and not pane.has_class("-incognito")
        assert pane.conversation_id is None
    chat_services.close()
    assert tree(isolated_home) == before


@pytest.mark.slow
async def test_saving_on_leave_puts_the_conversation_in_history(chat_services, fake_openai, seeded):
    fake_openai.reply("Take the train to Bandung.")
    _without_indexing(chat_services)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await _enter(pilot, app)
        pane = chat(app)
        cid = pane.conversation_id
        await send(pilot, "plan a trip")
        await wait_until(pilot, lambda: not pane.streaming and replies(app))
        cid = pane.conversation_id
        assert chat_services.history.get_conversation(cid) is None  # not saved while incognito
        await pilot.press("alt+i")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#confirm")
        await wait_until(pilot, lambda: not pane.incognito and pane.conversation_id == cid)
    stored = [(m.role, m.content) for m in chat_services.history.messages(cid)]
    assert stored == [("user", "plan a trip"), ("assistant", "Take the train to Bandung.")]


@pytest.mark.slow
async def test_opening_a_saved_conversation_leaves_incognito_and_remember_is_refused(
        chat_services, fake_openai, seeded):
    from agenttui.ui import messages

    _without_indexing(chat_services)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await _enter(pilot, app)
        await send(pilot, "/remember I like tea")
        await wait_until(pilot, lambda: any("memory is read, not changed" in n[2] for n in app.notices))
        assert [i.text for i in chat_services.memory.items("all")] == ["I prefer short answers"]
        app.main.post_message(messages.ConversationRequested(seeded.id))  # as the History pane does
        await wait_until(pilot, lambda: not chat(app).incognito and chat(app).conversation_id == seeded.id)


@pytest.mark.slow
@pytest.mark.parametrize("save", [False, True])
async def test_quitting_while_incognito_offers_to_save(chat_services, fake_openai, seeded, isolated_home,
                                                       save):
    fake_openai.reply("Noted.")
    before = tree(isolated_home)
    _without_indexing(chat_services)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await _enter(pilot, app)
        pane = chat(app)
        await send(pilot, "a secret plan")
        await wait_until(pilot, lambda: not pane.streaming and replies(app))
        cid = pane.conversation_id
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        if save:
            await pilot.click("#confirm")
        else:
            await pilot.press("escape")
        await wait_until(pilot, lambda: not app.is_running)
    chat_services.close()
    if save:
        assert [m.content for m in chat_services.history.messages(cid)] == ["a secret plan", "Noted."]
    else:
        assert tree(isolated_home) == before
