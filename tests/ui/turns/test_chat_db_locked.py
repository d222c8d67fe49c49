"""A turn's storage work runs off the UI's event loop.

Another process holds the history database's write lock while a turn is
saved: the app keeps handling keys (switching panes) during the wait, and the
messages are written once the lock is released, with nothing lost. Before the
fix the append ran on the event loop, so the app (and this test, which shares
the loop) froze for the whole busy timeout and the write then failed.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from agenttui.agent.loop import pending_count
from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message
from agenttui.ui.app import make_app
from tests.ui.helpers import chat, foreground_complete, replies, send, wait_until

# A second process takes the write lock and keeps it until told to let go.
LOCKER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
conn.rollback()
conn.close()
"""
BUSY_TIMEOUT = 30.0  # the store waits this long for the lock: far longer than the test holds it


def _history_pane_focused(app) -> bool:
    return app.screen.query_one("#history-pane").has_focus_within


def _warned(app) -> list[str]:
    return [message for _, title, message in app.notices if title == "History not saved yet"]


@pytest.mark.slow
async def test_keys_work_while_another_process_holds_the_history_lock(chat_services, fake_openai):
    db = chat_services.paths.history_db(chat_services.profile_name)
    chat_services.history.close()
    chat_services.history = HistoryStore(db, busy_timeout=BUSY_TIMEOUT)
    earlier = chat_services.history.create_conversation("earlier")  # the chat continues it:
    chat_services.history.append(earlier.id, Message(role="user", content="an earlier message"))
    fake_openai.reply("Saved once the lock was gone.")
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:  # the turn's first storage work is the append
        await wait_until(pilot, lambda: app.main.panes_ready and chat(app).conversation_id == earlier.id)
        await foreground_complete(app)
        locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(db)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert locker.stdout.readline().strip() == "locked"
            await send(pilot, "a question while the database is locked")
            await wait_until(pilot, lambda: chat(app).streaming)
            await pilot.press("alt+3")
            await wait_until(pilot, lambda: _history_pane_focused(app))
            await pilot.press("alt+2")
            await wait_until(pilot, lambda: chat(app).prompt.has_focus)
            # the keys were handled while the turn was still waiting for the lock
            assert chat(app).streaming and not replies(app) and not _warned(app)
            assert fake_openai.chat_requests == []  # the message is stored before the model is asked
        finally:
            locker.communicate("\n", timeout=30)  # the other process lets go
        await wait_until(pilot, lambda: not chat(app).streaming, timeout=60)
        assert replies(app) == ["Saved once the lock was gone."]
        assert not _warned(app) and pending_count(chat_services) == 0
        cid = chat(app).conversation_id
    assert cid == earlier.id
    stored = [(m.role, m.content) for m in chat_services.history.messages(cid)]
    assert stored == [("user", "an earlier message"), ("user", "a question while the database is locked"),
                      ("assistant", "Saved once the lock was gone.")]
