"""Semantic recall in the chat: a draft is embedded while the user pauses typing.

Real services and app, the real ``openai`` client against the fake server;
keys are typed one by one through Pilot, as a user would.
"""

from __future__ import annotations

import pytest

from agenttui.core.models import Message
from agenttui.core.recall.semantic import backfill
from agenttui.ui import app as app_module
from agenttui.ui.app import make_app
from tests.ui.helpers import chat, wait_until, workers_done

REX = "I adopted a small dog named Rex"
PUPPY = "what is my puppy called?"  # no word in common with REX
SIZE = (100, 30)
KEYS = {" ": "space", "?": "question_mark", "/": "slash"}


@pytest.fixture(autouse=True)
def no_backfill_worker(monkeypatch):
    # the app's own backfill would also send texts; here only the draft's requests count
    monkeypatch.setattr(app_module, "EMBED_AFTER_S", 600.0)


def _seed(services, fake) -> None:
    cid = services.history.create_conversation("pets").id
    services.history.append_many(cid, [Message("user", REX), Message("assistant", "Rex is a lovely name"),
                                       Message("user", "the invoice for march is overdue")])
    fake.embed_as(PUPPY, like=REX)
    assert backfill(services).complete
    services.history.create_conversation("today")  # the chat opens this one: REX is only recalled


async def _type(pilot, text: str) -> None:
    chat(pilot.app).prompt.focus()
    await pilot.press(*(KEYS.get(c, c) for c in text))


def _queries(fake, text: str) -> int:
    return sum(1 for body in fake.embedding_requests if body["input"] == [text])


def _draft_workers(app) -> list:
    return [w for w in app.workers if w.group == "semantic-draft"]


@pytest.mark.slow
async def test_a_paused_draft_is_embedded_before_enter_and_the_turn_uses_it(chat_services, fake_openai):
    _seed(chat_services, fake_openai)
    chat_services.settings.recall.semantic = True
    fake_openai.embedding_delay = 0.5  # a remote endpoint: the turn alone would not wait for it
    fake_openai.reply("It is Rex.")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await _type(pilot, PUPPY)
        await wait_until(pilot, lambda: _queries(fake_openai, PUPPY) == 1)  # before Enter
        await wait_until(pilot, lambda: all(w.is_finished for w in _draft_workers(app)))
        assert len(fake_openai.chat_requests) == 0
        await pilot.press("enter")
        await wait_until(pilot, lambda: fake_openai.chat_requests and not chat(app).streaming)
    first_step = fake_openai.chat_requests[0]["messages"]
    assert any(REX in (m.get("content") or "") for m in first_step if m["role"] == "system")
    assert _queries(fake_openai, PUPPY) == 1  # the turn asked nothing again


@pytest.mark.slow
async def test_short_drafts_and_slash_commands_are_not_embedded(chat_services, fake_openai):
    _seed(chat_services, fake_openai)
    chat_services.settings.recall.semantic = True
    sent = len(fake_openai.embedding_requests)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await _type(pilot, "/remember my puppy is called Rex")
        await pilot.pause()  # the edits are handled: a debounce would be running now
        assert not chat(app).draft_recall.waiting  # nothing waits for a pause in typing
        chat(app).prompt.clear()
        await _type(pilot, "ok thanks")
        await pilot.pause()
        assert not chat(app).draft_recall.waiting
        await workers_done(pilot)
        assert chat(app).draft_recall.prepared == "" and len(fake_openai.embedding_requests) == sent


@pytest.mark.slow
async def test_nothing_is_sent_while_semantic_is_off(chat_services, fake_openai):
    _seed(chat_services, fake_openai)
    chat_services.settings.recall.semantic = False  # ("auto", the default, would embed the draft)
    sent = len(fake_openai.embedding_requests)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await _type(pilot, PUPPY)
        await wait_until(pilot, lambda: chat(app).draft_recall.prepared == PUPPY)  # the pause ran out
        await workers_done(pilot)  # and its recall was worked out, by words only
        assert _draft_workers(app) == [] and len(fake_openai.embedding_requests) == sent
