"""An incognito chat leaves nothing in the sync target: it is never saved, so no sync sends
it, and the other machine receives nothing of it. Through the app (Pilot), the real openai
client against the fake server, and a folder target shared with a second data home."""

from __future__ import annotations

import pytest

from agenttui.core.config.paths import Paths
from agenttui.core.history.store import HistoryStore
from agenttui.sync import engine
from agenttui.ui.app import make_app
from agenttui.ui.screens.confirm import ConfirmScreen
from tests.data_dir import tree
from tests.ui.helpers import chat, replies, send, wait_until

pytestmark = pytest.mark.slow

SIZE = (120, 36)
PASSPHRASE = "correct horse battery staple"
WORD = "zebrafinchquay"


async def test_an_incognito_chat_sends_nothing_to_the_target(chat_services, fake_openai, paths, tmp_path,
                                                             monkeypatch):
    monkeypatch.setenv("AGENTTUI_SYNC_PASSPHRASE", PASSPHRASE)
    folder = tmp_path / "Sync" / "agenttui"
    other = Paths(config_dir=tmp_path / "home-b" / "config", data_dir=tmp_path / "home-b" / "data")
    engine.init(paths, "folder", str(folder), "a", PASSPHRASE)
    engine.init(other, "folder", str(folder), "b", PASSPHRASE)
    with HistoryStore(paths.history_db("default")) as store:
        store.create_conversation(title="Saved before")
    assert engine.sync_now(paths).sent >= 1
    engine.sync_now(other)
    target_before = tree(folder)

    chat_services.settings.recall.semantic = False  # the indexer writes vectors of saved messages only
    fake_openai.reply(f"The {WORD} walk starts at nine.")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready and chat(app).prompt is not None, timeout=60)
        await pilot.press("alt+i")
        pane = chat(app)
        await wait_until(pilot, lambda: pane.incognito)
        await send(pilot, f"plan the {WORD} walk on Saturday")
        await wait_until(pilot, lambda: not pane.streaming and replies(app), timeout=60)
        await pilot.press("alt+i")  # leaving offers to save: declined
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not pane.incognito)
    chat_services.close()

    after = engine.sync_now(paths)
    assert after.sent == 0, after
    assert tree(folder) == target_before  # not one byte more in the target
    received = engine.sync_now(other)
    assert received.received == 0, received
    with HistoryStore(other.history_db("default")) as store:
        titles = [c.title for c in store.list_conversations(limit=20)]
        assert titles == ["Saved before"]
        assert not store.search(WORD)
