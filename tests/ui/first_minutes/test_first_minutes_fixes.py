"""What a new user trips on in the first minutes: one Pilot test (or more) per fix.

Type-ahead has its own file, prompt/test_type_ahead.py.
"""

from __future__ import annotations

import pytest
from textual.widgets.option_list import OptionDoesNotExist

from agenttui.ui import messages
from agenttui.ui.app import make_app
from agenttui.ui.screens.confirm import ConfirmScreen
from agenttui.ui.widgets.chat_log import Notice
from agenttui.ui.widgets.conversation_list import ConversationList
from agenttui.ui.widgets.message_view import UserMessage
from tests.ui.helpers import chat, replies, send, send_and_wait, wait_until, workers_done

SIZE = (120, 36)


def notices(app) -> list[str]:
    return [str(n.render()) for n in app.screen.query(Notice)]


def sent(app) -> list[str]:
    return [m.text for m in app.screen.query(UserMessage)]


# -- deleting the conversation open in Chat -------------------------------------
def _listed(listing: ConversationList, conversation_id: str) -> bool:
    try:  # get_option_index raises (not None) for a row not listed yet
        return listing.get_option_index(conversation_id) is not None
    except OptionDoesNotExist:
        return False


@pytest.mark.slow
async def test_deleting_the_open_conversation_moves_the_chat_to_a_new_one(chat_services, fake_openai):
    fake_openai.reply("first answer").reply("second answer")
    history = chat_services.history
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await send(pilot, "first question")
        await wait_until(pilot, lambda: not pane.streaming and replies(app) == ["first answer"])
        doomed = pane.conversation_id
        assert doomed is not None
        listing = app.screen.query_one(ConversationList)
        await wait_until(pilot, lambda: _listed(listing, doomed))  # the list reloads in a thread
        listing.focus()
        listing.highlighted = listing.get_option_index(doomed)
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#confirm")
        await wait_until(pilot, lambda: history.get_conversation(doomed) is None)
        await wait_until(pilot, lambda: pane.conversation_id is None and not sent(app))
        await wait_until(pilot, lambda: any("deleted" in text for text in notices(app)))
        await send(pilot, "second question")
        await wait_until(pilot, lambda: not pane.streaming and replies(app) == ["second answer"])
        assert pane.conversation_id not in (None, doomed)
        assert not any("Error" in text or "no conversation with id" in text for text in notices(app))
        assert not pane.can_retry
    assert [m.content for m in history.messages(pane.conversation_id)] == ["second question", "second answer"]


@pytest.mark.slow
async def test_clearing_history_moves_the_chat_to_a_new_conversation(chat_services, fake_openai):
    fake_openai.reply("an answer")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await send(pilot, "a question")
        await wait_until(pilot, lambda: not pane.streaming and replies(app) == ["an answer"])
        history_pane = app.screen.query_one("#history-pane")
        history_pane._act("clear", None, lambda history, _cid: history.clear(), backup=True)
        await wait_until(pilot, lambda: pane.conversation_id is None and not sent(app))
        await wait_until(pilot, lambda: any("deleted" in text for text in notices(app)))


@pytest.mark.slow
async def test_a_conversation_deleted_elsewhere_gets_a_clear_message_and_a_new_one(chat_services, fake_openai):
    """Deleted by another process (``agenttui history delete``): the pane was not told."""
    fake_openai.reply("first answer").reply("second answer")
    history = chat_services.history
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await send(pilot, "first question")
        await wait_until(pilot, lambda: not pane.streaming and replies(app) == ["first answer"])
        doomed = pane.conversation_id
        history.delete(doomed)
        await send(pilot, "second question")
        await wait_until(pilot, lambda: not pane.streaming and pane.conversation_id not in (None, doomed))
        shown = "\n".join(notices(app))
        assert "UnknownConversationError" not in shown and "Error:" not in shown
        assert "deleted" in shown
        assert not pane.can_retry
        await wait_until(pilot, lambda: replies(app)[-1:] == ["second answer"])
    assert [m.content for m in history.messages(pane.conversation_id)] == ["second question", "second answer"]


@pytest.mark.slow
async def test_deleting_the_conversation_while_its_reply_streams(chat_services, fake_openai):
    fake_openai.reply(" ".join(["word"] * 200), words_per_second=40).reply("fresh answer")
    history = chat_services.history
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await send(pilot, "tell me a long story")
        await wait_until(pilot, lambda: pane.streaming and replies(app) and "word" in replies(app)[0])
        doomed = pane.conversation_id
        history.delete(doomed)
        app.main.post_message(messages.ConversationDeleted(doomed))  # as the History pane does
        await wait_until(pilot, lambda: pane.conversation_id is None and not pane.streaming)
        await send(pilot, "a new question")
        await wait_until(pilot, lambda: not pane.streaming and replies(app) == ["fresh answer"])
        await workers_done(pilot)
        shown = "\n".join(notices(app)) + "\n".join(n[2] for n in app.notices)
        assert "Cancelled" not in shown and "not saved" not in shown.lower() and "no conversation" not in shown
    assert [m.content for m in history.messages(pane.conversation_id)] == ["a new question", "fresh answer"]
    assert history.get_conversation(doomed) is None


# -- /memory keeps the focus in the prompt ----------------------------------------
@pytest.mark.slow
async def test_memory_command_shows_the_pane_and_keeps_typing_in_the_prompt(services):
    services.memory.add_note("likes green tea", "user", "explicit")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(80, 24)) as pilot:  # narrow: the Memory pane starts hidden
        main = app.main
        assert not main.pane("memory").display
        await send(pilot, "/memory")
        await wait_until(pilot, lambda: any("likes green tea" in text for text in notices(app)))
        await wait_until(pilot, lambda: main.pane("memory").display)
        await pilot.press("e", "d")
        await pilot.pause()
        assert app.focused is chat(app).prompt
        assert chat(app).prompt.text == "ed"
        assert [i.text for i in services.memory.items("all", False)] == ["likes green tea"]
        assert not isinstance(app.screen, ConfirmScreen)


# -- ctrl+r after a cancelled or a finished reply ---------------------------------
@pytest.mark.slow
async def test_ctrl_r_after_escape_asks_again_without_the_cut_reply(chat_services, fake_openai):
    fake_openai.reply(" ".join(f"word{i}" for i in range(400)), words_per_second=40)
    fake_openai.reply("the whole answer")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await send(pilot, "tell me a long story")
        await wait_until(pilot, lambda: replies(app) and "word3" in replies(app)[0])
        await pilot.press("escape")
        await wait_until(pilot, lambda: not pane.streaming)
        retry_key = app.active_bindings.get("ctrl+r")
        assert retry_key is not None and retry_key.enabled  # offered in the footer and usable
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: not pane.streaming and "the whole answer" in replies(app))
        assert sent(app) == ["tell me a long story"]  # asked again, not sent twice
        cid = pane.conversation_id
    assert [m["role"] for m in fake_openai.chat_requests[1]["messages"] if m["role"] != "system"] == ["user"]
    users = [m.content for m in chat_services.history.messages(cid) if m.role == "user"]
    assert users == ["tell me a long story"]


@pytest.mark.slow
async def test_ctrl_r_after_a_finished_reply_says_what_it_can_do(chat_services, fake_openai):
    fake_openai.reply("done and dusted")
    fake_openai.reply("done again")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pane = chat(app)
        await pilot.press("ctrl+r")  # nothing sent yet
        await wait_until(pilot, lambda: any("Nothing to retry" in n[2] for n in app.notices))
        await send(pilot, "a question")
        await wait_until(pilot, lambda: not pane.streaming and replies(app) == ["done and dusted"])
        await pilot.press("ctrl+r")  # after a finished reply it regenerates it
        await wait_until(pilot, lambda: not pane.streaming and replies(app) == ["done again"])
        assert len(fake_openai.chat_requests) == 2 and sent(app) == ["a question"]


# -- the typed-confirmation dialog starts in its field ----------------------------
@pytest.mark.slow
async def test_reset_memory_dialog_takes_the_typed_word_at_once(services):
    memory = services.memory
    memory.add_note("one note")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        await app.run_action("reset_memory")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and app.screen.query("#confirm-word"))
        dialog = app.screen
        await pilot.pause()
        assert app.focused is dialog.query_one("#confirm-word")
        await pilot.press("enter")  # empty: the dialog stays and says what to type
        await pilot.pause()
        assert app.screen is dialog
        assert "type 'delete'" in str(dialog.query_one("#confirm-hint").render())
        await pilot.press(*"delte", "enter")  # a typo: still open, nothing reset
        await pilot.pause()
        assert app.screen is dialog and "'delte' is not 'delete'" in str(dialog.query_one("#confirm-hint").render())
        assert len(memory.items()) == 1
        await pilot.press(*["backspace"] * 5, *"delete", "enter")
        await wait_until(pilot, lambda: memory.items() == [])


# -- Enter while a reply streams queues the message ---------------------------------
@pytest.mark.slow
async def test_a_message_sent_while_a_reply_streams_is_queued_and_sent_after_it(chat_services, fake_openai):
    # 5 s of reply: typing the follow-up (a key at a time) ends well before it, on a busy machine too
    fake_openai.reply(" ".join(f"word{i}" for i in range(200)), words_per_second=40)
    fake_openai.reply("answer to the follow-up")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await send(pilot, "first question")
        await wait_until(pilot, lambda: replies(app) and "word3" in replies(app)[0])
        await send(pilot, "follow-up question")
        await pilot.pause()
        queued = app.screen.query_one("#chat-queued")
        assert queued.display and "follow-up question" in str(queued.render())
        assert pane.streaming and sent(app) == ["first question"]
        assert pane.prompt.text == ""  # not lost: it is in the queue line above the prompt
        await wait_until(pilot, lambda: sent(app) == ["first question", "follow-up question"], timeout=20)
        await wait_until(pilot, lambda: not pane.streaming and replies(app)[-1:] == ["answer to the follow-up"])
        assert not queued.display
        assert "word199" in replies(app)[0]  # the first reply was not cut by it
    assert [m["content"] for m in fake_openai.chat_requests[1]["messages"] if m["role"] == "user"] == [
        "first question", "follow-up question"]


@pytest.mark.slow
async def test_a_queued_message_goes_back_to_the_prompt_when_another_conversation_opens(chat_services,
                                                                                          fake_openai):
    fake_openai.reply(" ".join(f"word{i}" for i in range(400)), words_per_second=40)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await send(pilot, "first question")
        await wait_until(pilot, lambda: replies(app) and "word3" in replies(app)[0])
        await send(pilot, "never mind this")
        await pilot.pause()
        await pane.new_conversation()
        await wait_until(pilot, lambda: not pane.streaming)
        await workers_done(pilot)
        assert pane.prompt.text == "never mind this" and not app.screen.query_one("#chat-queued").display
        assert sent(app) == []


# -- /reset-memory lets the user choose the scope (and says so when memory is empty) -----
def _two_scopes(memory) -> None:
    memory.add_note("user note one")
    memory.add_note("user note two")
    memory.add_note("profile note", scope="profile")


def _texts(memory, scope: str) -> list[str]:
    return sorted(item.text for item in memory.items(scope))


async def _reset_dialog(pilot, app) -> ConfirmScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and app.screen.query("#confirm-word"))
    await pilot.pause()
    return app.screen


@pytest.mark.slow
async def test_reset_memory_dialog_offers_the_scopes_and_resets_the_chosen_one(services):
    from textual.widgets import RadioButton

    memory = services.memory
    _two_scopes(memory)
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        await app.run_action("reset_memory")
        dialog = await _reset_dialog(pilot, app)
        assert "of the user scope and" in dialog.statement  # both, as before, until another is chosen
        await pilot.click("#choice-profile")
        await pilot.pause()
        assert dialog.query_one("#choice-profile", RadioButton).value
        assert "user" not in dialog.statement and "1 note(s)" in dialog.statement
        dialog.query_one("#confirm-word").focus()
        await pilot.press(*"delete", "enter")
        await wait_until(pilot, lambda: not memory.items("profile"))
        assert _texts(memory, "user") == ["user note one", "user note two"]


@pytest.mark.slow
async def test_reset_memory_command_takes_a_scope(chat_services, fake_openai):
    memory = chat_services.memory
    _two_scopes(memory)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await send(pilot, "/reset-memory everything")
        await wait_until(pilot, lambda: any("user, profile or all" in n[2] for n in app.notices))
        assert not isinstance(app.screen, ConfirmScreen)
        await send(pilot, "/reset-memory user")
        dialog = await _reset_dialog(pilot, app)
        assert not dialog.query("#confirm-choices")  # chosen already
        assert "2 note(s)" in dialog.statement and "of profile" not in dialog.statement
        await pilot.press(*"delete", "enter")
        await wait_until(pilot, lambda: not memory.items("user"))
        assert _texts(memory, "profile") == ["profile note"]
        backups_before = sorted(services_backups(chat_services))
        await send(pilot, "/reset-memory user")  # nothing left there: said, not done
        await wait_until(pilot, lambda: any("already empty" in n[2] for n in app.notices))
        assert not isinstance(app.screen, ConfirmScreen)
        assert sorted(services_backups(chat_services)) == backups_before


def services_backups(services) -> list[str]:
    folder = services.paths.memory_backups_dir
    return [str(p) for p in folder.rglob("*")] if folder.exists() else []


# -- /export without a path, /reset on an empty conversation -------------------------
@pytest.mark.slow
async def test_export_without_a_path_goes_to_the_exports_folder_not_the_current_one(
        chat_services, fake_openai, tmp_path, monkeypatch):
    fake_openai.reply("an answer")
    cwd = tmp_path / "somewhere"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        assert await send_and_wait(pilot, "a question") == ["an answer"]
        for _ in range(2):  # the second does not overwrite the first
            await send(pilot, "/export")
        exports = chat_services.paths.data_dir / "exports"
        await wait_until(pilot, lambda: len(list(exports.glob("*.md"))) == 2)
        assert list(cwd.iterdir()) == []
        assert all("a question" in p.read_text() for p in exports.glob("*.md"))
        assert any(str(exports) in n[2] for n in app.notices if n[1] == "Exported")


@pytest.mark.slow
async def test_export_with_an_unknown_format_says_so_and_writes_nothing(
        chat_services, fake_openai, tmp_path, monkeypatch):
    """"/export pdf" wrote Markdown to a file named "pdf" in the current folder."""
    fake_openai.reply("an answer")
    monkeypatch.chdir(tmp_path)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        assert await send_and_wait(pilot, "a question") == ["an answer"]
        await send(pilot, "/export pdf")
        await wait_until(pilot, lambda: any("Unknown export format 'pdf'" in n[2] for n in app.notices))
        await send(pilot, "/export notes.md")  # a path is still a path
        await wait_until(pilot, lambda: (tmp_path / "notes.md").exists())
    assert not (tmp_path / "pdf").exists()
    assert not (chat_services.paths.data_dir / "exports").exists()


@pytest.mark.slow
async def test_reset_on_an_empty_conversation_does_nothing_and_says_so(chat_services, fake_openai):
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        await send(pilot, "/reset")
        await wait_until(pilot, lambda: any("Nothing to archive" in n[2] for n in app.notices))
        assert not any("Archived" in text for text in notices(app))
        assert chat_services.history.count_conversations(True) == 0


# -- Esc gives one marker, at once ---------------------------------------------------
def _cancel_markers(app) -> list[str]:
    from agenttui.ui.widgets.message_view import AssistantMessage

    marks = [str(view.query_one(".status").render()) for view in app.screen.query(AssistantMessage)
             if view.has_class("-incomplete")]
    return marks + [text for text in notices(app) if "Cancelled" in text]


@pytest.mark.slow
async def test_escape_shows_one_cancel_marker_at_once_and_drops_esc_from_the_footer(chat_services, fake_openai):
    fake_openai.reply(" ".join(f"word{i}" for i in range(400)), words_per_second=40)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await send(pilot, "tell me a long story")
        await wait_until(pilot, lambda: replies(app) and "word3" in replies(app)[0])
        assert app.active_bindings["escape"].enabled
        await pilot.press("escape")
        await pilot.pause()
        assert len(_cancel_markers(app)) == 1, _cancel_markers(app)  # before the loop has wound down
        escape = app.active_bindings.get("escape")
        assert escape is None or not escape.enabled
        await wait_until(pilot, lambda: not pane.streaming)
        await workers_done(pilot)  # the turn has wound down: a second marker would be here
        markers = _cancel_markers(app)
        assert len(markers) == 1 and "ctrl+r" in markers[0], markers


@pytest.mark.slow
async def test_ctrl_r_right_after_escape_asks_again_once_the_reply_has_stopped(chat_services, fake_openai):
    fake_openai.reply(" ".join(f"word{i}" for i in range(400)), words_per_second=40)
    fake_openai.reply("asked again")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await send(pilot, "tell me a long story")
        await wait_until(pilot, lambda: replies(app) and "word3" in replies(app)[0])
        await pilot.press("escape", "ctrl+r")  # no waiting for the loop to wind down
        await wait_until(pilot, lambda: not pane.streaming and replies(app)[-1:] == ["asked again"])
        assert sent(app) == ["tell me a long story"] and len(fake_openai.chat_requests) == 2
