"""Stress: the app and two CLI processes at once, nothing of anyone's lost.

The app (Pilot, real services, the fake OpenAI server) chats, goes incognito
and back, switches profile and back and moves between conversations, while two
threads each run ``agenttui history import``, ``agenttui memory add`` and
``agenttui history export`` as real processes in a loop. Afterwards every write
of every process is there, both databases pass ``PRAGMA integrity_check``, and
at no point did the app hold a deleted ``-wal``/``-shm`` (a WAL nobody else sees).

Bounded in count, not time: each CLI loop runs ``ROUNDS`` rounds; the app keeps
cycling until both loops are done, at least ``MIN_CYCLES`` and at most
``MAX_CYCLES`` times (then it only waits for them).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.screens.confirm import ConfirmScreen
from tests.other_processes import contents, deleted_sidecars, export_document, run_cli
from tests.ui.helpers import chat, replies, send, wait_until, workers_done

ROUNDS = 3
MIN_CYCLES, MAX_CYCLES = 2, 12
SIZE = (120, 36)
WAIT_S = 120.0  # per step, generous: the CLI processes keep both cores busy


class CliLoop(threading.Thread):
    """One "other process" at a time, ``ROUNDS`` times: import, memory add, export."""

    def __init__(self, name: str, work: Path) -> None:
        super().__init__(name=f"cli-{name}", daemon=True)
        self.tag, self.work = name, work
        self.imported: dict[str, list[str]] = {}
        self.notes: list[str] = []
        self.failures: list[str] = []

    def run(self) -> None:
        for n in range(ROUNDS):
            cid = f"{self.tag}{n}".encode().hex().ljust(32, "0")
            texts = [f"{self.tag} import {n} question", f"{self.tag} import {n} answer"]
            source = self.work / f"{self.tag}-{n}.json"
            source.write_text(json.dumps(export_document(cid, f"{self.tag} {n}", texts)))
            note = f"loop {self.tag} remembers fact number {n}"
            exported = self.work / f"{self.tag}-{n}-out.json"
            for argv in (("history", "import", str(source)), ("memory", "add", note),
                         ("history", "export", cid, "--format", "json", "-o", str(exported))):
                done = run_cli(*argv, cwd=self.work)
                if done.returncode != 0:
                    self.failures.append(f"{argv}: {done.stderr}")
            self.imported[cid] = texts
            self.notes.append(note)
            if exported.is_file():
                messages = json.loads(exported.read_text())["messages"]
                if [m["content"] for m in messages] != texts:
                    self.failures.append(f"export of {cid}: {messages}")
            else:
                self.failures.append(f"export of {cid}: no file")


@pytest.mark.slow
async def test_app_and_two_cli_processes_lose_nothing(chat_services, fake_openai, paths, tmp_path):
    services = chat_services
    services.profiles.create("work")
    db = paths.history_db("default")
    work = tmp_path / "cli"
    work.mkdir()
    loops = [CliLoop("a", work), CliLoop("b", work)]
    sent: dict[str, list[str]] = {"default": [], "work": []}
    held_deleted: list[str] = []

    async def say(text: str, profile: str) -> None:
        """Send ``text`` and wait for its own reply (unique) to have finished streaming."""
        reply = f"reply to {text}"
        fake_openai.reply(reply)
        await send(pilot, text)
        await wait_until(pilot, lambda: not pane.streaming and replies(app)[-1:] == [reply],
                         timeout=WAIT_S)
        sent[profile] += [text, reply]

    app = make_app(services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready, timeout=WAIT_S)
        pane = chat(app)
        await say("app starts", "default")
        first = pane.conversation_id
        for loop in loops:
            loop.start()
        cycle = 0
        while cycle < MIN_CYCLES or (cycle < MAX_CYCLES and any(loop.is_alive() for loop in loops)):
            await pilot.press("alt+i")  # incognito, a message, and back without saving
            await wait_until(pilot, lambda: pane.incognito, timeout=WAIT_S)
            unsaved = f"an incognito reply {cycle}"
            fake_openai.reply(unsaved)
            await send(pilot, f"incognito {cycle}")
            await wait_until(pilot, lambda unsaved=unsaved: not pane.streaming
                             and replies(app)[-1:] == [unsaved], timeout=WAIT_S)
            await pilot.press("alt+i")
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), timeout=WAIT_S)
            await pilot.press("escape")
            await wait_until(pilot, lambda: not pane.incognito, timeout=WAIT_S)
            await say(f"app cycle {cycle} new chat", "default")
            app._switch_profile("work")  # another profile's database, and back
            await workers_done(pilot, timeout=WAIT_S)
            await say(f"work cycle {cycle}", "work")
            app._switch_profile("default")
            await workers_done(pilot, timeout=WAIT_S)
            await pane.open_conversation(first)  # an older conversation, written to again
            await say(f"app cycle {cycle} first chat", "default")
            held_deleted += deleted_sidecars(db) + deleted_sidecars(paths.history_db("work"))
            cycle += 1
        for loop in loops:
            await wait_until(pilot, lambda loop=loop: not loop.is_alive(), timeout=600)
        await say("app ends", "default")  # a write after the other processes have exited
        held_deleted += deleted_sidecars(db)
        await workers_done(pilot, timeout=WAIT_S)
    services.close()

    assert held_deleted == []
    for loop in loops:
        assert loop.failures == []
    for profile, texts in sent.items():
        found, verdict = contents(paths.history_db(profile))
        assert verdict == "ok", profile
        written = [text for messages in found.values() for text in messages]
        assert sorted(t for t in written if t in texts) == sorted(texts), profile  # each once
        assert not [t for t in written if t.startswith(("incognito ", "an incognito"))]
    found, _ = contents(db)
    for loop in loops:
        for cid, texts in loop.imported.items():
            assert found.get(cid) == texts
    from agenttui.bootstrap import build_services

    fresh = build_services(paths=paths, cwd=tmp_path)
    remembered = {item.display for item in fresh.memory.items("all")}
    fresh.close()
    assert {note for loop in loops for note in loop.notes} <= remembered
