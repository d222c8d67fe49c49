"""Error text a newcomer reads -- short, plain, naming what to check.

Real parts: the real ``openai`` client against the loopback fake server (or a port nothing
listens on), the real loop and history.
"""

from __future__ import annotations

import socket

from agenttui.agent.events import TurnFailed
from agenttui.agent.loop import run_turn

from .conftest import FAST_RETRIES, collect, final


def _closed_port() -> int:
    with socket.socket() as sock:  # bound then closed: nothing listens there afterwards
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_no_key_is_two_plain_sentences(services, monkeypatch):
    # conftest's isolated home has no keyring backend and no OPENAI_API_KEY
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    conversation = services.history.create_conversation()
    failed = final(await collect(run_turn(services, conversation.id, "hi")))
    assert isinstance(failed, TurnFailed)
    assert "OPENAI_API_KEY" in failed.error
    assert "`" not in failed.error  # chat notices are plain text: backticks showed raw
    assert "\n" not in failed.error and len(failed.error) <= 240
    assert "keyring" in failed.error  # says why agenttui key set cannot work here


async def test_refused_connection_names_the_url(services, monkeypatch):
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-fake")
    conversation = services.history.create_conversation()
    failed = final(await collect(run_turn(services, conversation.id, "hi", retry_policy=FAST_RETRIES)))
    assert isinstance(failed, TurnFailed)
    assert url in failed.error and "Could not connect" in failed.error


async def test_a_dropped_stream_names_the_url(services, conversation, fake_openai):
    fake_openai.drop(after="Half")
    failed = final(await collect(run_turn(services, conversation.id, "hi", retry_policy=FAST_RETRIES)))
    assert isinstance(failed, TurnFailed)
    assert "Lost the connection to " + fake_openai.base_url.rstrip("/") in failed.error


async def test_the_url_never_carries_a_password(services, monkeypatch):
    port = _closed_port()
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://alice:s3cr3t-pw@127.0.0.1:{port}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-fake")
    conversation = services.history.create_conversation()
    failed = final(await collect(run_turn(services, conversation.id, "hi", retry_policy=FAST_RETRIES)))
    assert f"127.0.0.1:{port}" in failed.error and "s3cr3t" not in failed.error
