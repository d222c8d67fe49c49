"""The app prepares the first turn once its UI is up (agent/prepare.py).

Against the fake server over HTTP with the real openai client: the turn must find
the client the preparation built (not build its own), the connection warm-up is
one small GET that never shows anything, and nothing is sent when it is off.
"""

from __future__ import annotations

import socket

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.screens.main import MainScreen
from tests.ui.helpers import chat, replies, send, wait_until, workers_done

SIZE = (120, 36)


def ready(app) -> bool:
    return app._turn_ready is not None and app._turn_ready.is_set()


def warm_ups(fake) -> list[str]:
    return [r.path for r in fake.requests if r.method == "GET" and "/models/" in r.path]


def errors(app) -> list:
    return [n for n in app.notices if n[0] == "error"]


@pytest.mark.slow
async def test_the_first_turn_uses_the_prepared_client_and_connection(chat_services, fake_openai):
    fake_openai.reply("prepared answer")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: ready(app) and warm_ups(fake_openai), timeout=30)
        prepared = app._prepared_client
        assert prepared is not None and chat_services.session.client[1] is prepared
        assert warm_ups(fake_openai) == [f"/v1/models/{chat_services.model}"]
        assert fake_openai.chat_requests == []  # preparing sends no chat request
        await send(pilot, "first message")
        await wait_until(pilot, lambda: not chat(app).streaming and replies(app))
        assert replies(app) == ["prepared answer"]
        assert chat_services.session.client[1] is prepared  # the turn built no client of its own
        assert len(fake_openai.chat_requests) == 1 and errors(app) == []


@pytest.mark.slow
async def test_warm_up_off_prepares_but_sends_nothing(chat_services, fake_openai):
    chat_services.settings.agent.warm_up = False
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: ready(app), timeout=30)
        assert app._prepared_client is not None
        await workers_done(pilot)  # a warm-up, had one started, has been sent
        assert fake_openai.requests == []


@pytest.mark.slow
async def test_typing_after_an_idle_spell_opens_the_connection_again(chat_services, fake_openai):
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: ready(app) and warm_ups(fake_openai), timeout=30)
        chat(app).prompt.focus()
        await pilot.press("h")
        await workers_done(pilot)  # a second warm-up, had one started, has been sent
        assert len(warm_ups(fake_openai)) == 1  # warmed a moment ago: nothing more
        app._warmed_at -= 60  # as if the user had been reading for a minute (httpx dropped it)
        await pilot.press("i")
        await wait_until(pilot, lambda: len(warm_ups(fake_openai)) == 2)


async def test_sending_after_an_idle_spell_leaves_the_connection_to_the_turn(chat_services, fake_openai):
    fake_openai.reply("answered")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: ready(app) and warm_ups(fake_openai), timeout=30)
        chat(app).prompt.load_text("a question typed a while ago")
        await workers_done(pilot)  # a warm-up the typing started, if any, is over
        app._warmed_at -= 60  # the user read it over for a minute before pressing Enter
        await pilot.press("enter")  # the prompt empties: no warm-up racing the turn's own request
        await wait_until(pilot, lambda: not chat(app).streaming and replies(app) == ["answered"])
        await workers_done(pilot)  # a warm-up racing the turn would have been sent by now
        assert len(warm_ups(fake_openai)) == 1


@pytest.mark.slow
async def test_no_key_prepares_without_a_client_or_a_word(services):
    app = make_app(services, check_api_key=False)  # no key anywhere
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: ready(app), timeout=30)
        assert app._prepared_client is None and errors(app) == []
        await app.first_turn_ready()  # over: returns at once


@pytest.mark.slow
async def test_an_unreachable_endpoint_stays_silent(make_services):
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    services = make_services(environ={"OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1",
                                      "OPENAI_API_KEY": "sk-test"})
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: ready(app), timeout=30)
        await workers_done(pilot)  # the failed warm-up has come and gone
        assert app._prepared_client is not None
        assert errors(app) == [] and isinstance(app.screen, MainScreen)


@pytest.mark.slow
async def test_saved_settings_prepare_the_turn_again(chat_services, fake_openai):
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: ready(app) and warm_ups(fake_openai), timeout=30)
        first = app._turn_ready
        app._after_settings(True)  # as the Settings dialog does after a save (endpoint or key may differ)
        await wait_until(pilot, lambda: app._turn_ready is not first and ready(app)
                         and len(warm_ups(fake_openai)) == 2, timeout=30)
        assert app._prepared_client is not None
