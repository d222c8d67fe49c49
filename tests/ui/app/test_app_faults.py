"""The app under faults: notices for what it can live with, one line for a bug.

Real app (make_app), real SQLite; the history database is damaged the way a
newer agenttui or a crash leaves it.
"""

from __future__ import annotations

import sqlite3

import pytest

from agenttui.core.history.store import HistoryStore
from agenttui.ui.app import make_app
from tests.ui.helpers import notifications, send, wait_until, workers_done


def _db(services):
    return services.paths.history_db(services.profile_name)


async def test_a_corrupt_history_moved_aside_is_a_notice(services):
    db = _db(services)
    db.parent.mkdir(parents=True, exist_ok=True)
    db.write_bytes(b"not a database at all" * 50)
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: any(title == "History" for _, title, _ in notifications(app)))
        severity, _, text = next(n for n in notifications(app) if n[1] == "History")
        assert severity == "warning"
        assert "could not be read" in text and "moved aside to" in text and str(db) in text
        assert app.is_running  # carries on with a fresh database
    moved = [p for p in db.parent.iterdir() if ".corrupt-" in p.name and p.suffix != ".lock"]
    assert any(p.read_bytes() == b"not a database at all" * 50 for p in moved)


@pytest.mark.slow
async def test_a_history_from_a_newer_version_is_a_notice_not_a_crash(services):
    db = _db(services)
    with HistoryStore(db) as store:
        store.create_conversation(title="kept")
    conn = sqlite3.connect(str(db))
    conn.execute("PRAGMA user_version = 999")
    conn.commit()
    conn.close()
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: any("newer agenttui" in m for _, _, m in notifications(app)))
        # other loads (the chat, the first turn's preparation) meet the same database ...
        await wait_until(pilot, lambda: app._turn_ready is not None and app._turn_ready.is_set())
        await workers_done(pilot)
        said = [n for n in notifications(app) if "newer agenttui" in n[2]]
        assert len(said) == 1  # ... and it is said once
        severity, _, text = said[0]
        assert severity == "error" and "upgrade agenttui" in text and str(db) in text
        await pilot.press("f1")  # the app still answers keys
        assert app.is_running
    assert app.return_code in (None, 0)


async def test_a_bug_in_a_worker_is_a_notice_with_a_crash_log_and_the_app_carries_on(services, monkeypatch,
                                                                                    isolated_home):
    secret = "sk-proj-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0"

    def broken(self, *args, **kwargs):  # a bug in the history pane's worker
        raise RuntimeError(f"unexpected state while holding {secret}")

    monkeypatch.setattr(HistoryStore, "list_conversations", broken)
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: list((isolated_home / "log").glob("crash-*.log")))
        log_path = next((isolated_home / "log").glob("crash-*.log"))
        await wait_until(pilot, lambda: any(str(log_path) in text for _, _, text in notifications(app)))
        await pilot.press("f1")  # the app still answers keys
        assert app.is_running and app.failure is None
        assert app.screen.query("#history-pane")  # the pane whose worker failed is still there
    assert app.return_code in (None, 0)
    log = log_path.read_text()
    assert "RuntimeError" in log and secret not in log and "[REDACTED" in log
    assert log_path.stat().st_mode & 0o777 == 0o600


async def test_a_bug_in_a_handler_keeps_the_screen_and_its_panes(services, monkeypatch, isolated_home):
    from agenttui.ui import messages
    from agenttui.ui.widgets.history_pane import HistoryPane

    def broken(self) -> None:
        raise RuntimeError("unexpected state in a handler")

    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await workers_done(pilot)
        monkeypatch.setattr(HistoryPane, "reload", broken)
        app.screen.post_message(messages.ConversationsChanged(None))  # the screen's handler calls reload
        await wait_until(pilot, lambda: any(t == "Internal error" for _, t, _ in notifications(app)))
        app.screen.post_message(messages.ConversationsChanged(None))  # and still handles the next one
        await workers_done(pilot)
        assert app.is_running and app.failure is None
        assert app.screen.query("#chat-pane") and app.screen.query("#history-pane")
        assert sum(t == "Internal error" for _, t, _ in notifications(app)) == 1  # one notice per kind
        assert len(app.survived_errors) == 2
    assert len(list((isolated_home / "log").glob("crash-*.log"))) == 1


async def test_a_cancelled_error_leaking_from_a_handler_keeps_the_pane(services, monkeypatch):
    """What took the Chat pane off the screen: a CancelledError from awaiting a task that
    was cancelled, escaping a handler. Textual took it for the end of the pane's loop."""
    import asyncio

    from agenttui.ui.widgets.chat_pane import ChatPane

    async def leaks(self, *args, **kwargs) -> None:
        task = asyncio.ensure_future(asyncio.sleep(10))
        task.cancel()
        await task  # raises CancelledError here, though this task was never cancelled

    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await workers_done(pilot)
        monkeypatch.setattr(ChatPane, "conversation_deleted", leaks)
        from agenttui.ui import messages

        app.screen.post_message(messages.ConversationDeleted("gone"))
        await wait_until(pilot, lambda: any(t == "Internal error" for _, t, _ in notifications(app)))
        await pilot.press("f1")
        assert app.screen.query("#chat-pane") and app.is_running


async def test_a_bug_in_the_app_itself_ends_it_with_one_line_and_a_crash_log(services, monkeypatch,
                                                                          isolated_home):
    from agenttui.ui.app import AgentTUI

    def broken(self) -> None:  # a key binding runs on the app's own queue
        raise RuntimeError("unexpected state in the app")

    monkeypatch.setattr(AgentTUI, "action_help", broken)
    app = make_app(services, check_api_key=False)
    with pytest.raises(RuntimeError, match="unexpected state in the app"):  # Pilot re-raises it
        async with app.run_test(size=(120, 36)) as pilot:
            await workers_done(pilot)
            await pilot.press("f1")
            await wait_until(pilot, lambda: not app.is_running or app.failure)
    assert app.return_code == 1
    logs = list((isolated_home / "log").glob("crash-*.log"))
    assert len(logs) == 1 and "RuntimeError" in logs[0].read_text()
    assert app.failure == (f"agenttui: internal error (RuntimeError); details are in {logs[0]} "
                           "(secrets redacted). Please report it with that file.")


@pytest.mark.slow
async def test_messages_the_history_refused_show_as_unsaved_until_saved(chat_services, fake_openai):
    """A database that cannot grow (real SQLite FULL: ``max_page_count``): the chat says
    what is unsaved, keeps retrying, and clears the mark once the messages are in."""
    from tests.ui.helpers import chat, replies, send

    history = chat_services.history
    cid = history.create_conversation(title="tea").id
    fake_openai.reply("Noted.")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        pane = chat(app)
        await wait_until(pilot, lambda: pane.conversation_id == cid)
        with history._lock:  # the disk is full: the database cannot grow by a page
            history._db().execute("PRAGMA max_page_count = 1")
        await send(pilot, "I drink tea. " + "more words " * 3_000)
        await wait_until(pilot, lambda: replies(app) == ["Noted."] and not pane.streaming)
        await wait_until(pilot, lambda: "not saved to history yet" in str(pane.border_subtitle))
        assert "2 message(s)" in str(pane.border_subtitle)
        assert history.count_messages(cid) == 0
        with history._lock:  # room again
            history._db().execute("PRAGMA max_page_count = 1073741823")
        pane.unsaved.retry()  # what the timer does every UNSAVED_RETRY_S
        await wait_until(pilot, lambda: not pane.border_subtitle)
    assert [m.content for m in history.messages(cid)][-1] == "Noted."


@pytest.mark.slow
async def test_remember_on_a_full_disk_is_a_notice_and_the_app_carries_on(services, isolated_home,
                                                                           monkeypatch):
    import errno

    from tests.ui.helpers import chat, send
    from tests.unit.faults.conftest import fail_os

    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        with monkeypatch.context() as patch:
            fail_os(patch, errno.ENOSPC, isolated_home)
            await send(pilot, "/remember I drink tea")
            await wait_until(pilot, lambda: any(t == "/remember failed" for _, t, _ in notifications(app)))
        severity, _, text = next(n for n in notifications(app) if n[1] == "/remember failed")
        assert severity == "error" and "the disk is full" in text
        assert str(services.paths.user_memory_file) in text
        assert app.is_running and chat(app).prompt is not None
        await send(pilot, "/remember I drink tea")  # room again: it works
        await wait_until(pilot, lambda: any(t == "Remembered" for _, t, _ in notifications(app)))
    assert [i.display for i in services.memory.items("all")] == ["I drink tea"]


@pytest.mark.slow
async def test_a_bug_in_a_turn_leaves_its_crash_log_in_the_sessions_own_home(fake_openai, make_services,
                                                                            monkeypatch, tmp_path, isolated_home):
    """The chat's bug guard writes where the session's environment says, like the app's own policy."""
    import os

    from agenttui.agent import loop
    from agenttui.ui.widgets.message_view import Notice

    home = tmp_path / "session-home"
    services = make_services(environ={**os.environ, "AGENTTUI_HOME": str(home)})

    async def broken(*args, **kwargs):  # a bug inside the loop, not a provider fault
        raise RuntimeError("unexpected state in the loop")
        yield  # an async generator, as run_turn is

    monkeypatch.setattr(loop, "run_turn", broken)
    app = make_app(services)
    async with app.run_test(size=(120, 36)) as pilot:
        await send(pilot, "hello")
        await wait_until(pilot, lambda: list((home / "log").glob("crash-*.log")))
        log = next((home / "log").glob("crash-*.log"))
        await wait_until(pilot, lambda: any(str(log) in str(n.render()) for n in app.screen.query(Notice)))
    assert "unexpected state in the loop" in log.read_text()
    assert not list((isolated_home / "log").glob("crash-*.log"))
