"""Once a reply is saved, the live view shows it as history keeps it -- a key
the stream showed is marked [REDACTED:…] -- so a copy now matches the reopened conversation."""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import AssistantMessage
from tests.ui.helpers import chat, replies, send, wait_until

# GitHub classic personal access token shape: "ghp_" + 36 base62 characters
# (github.blog, 2021-04-05, "Behind GitHub's new authentication token formats").
TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


@pytest.mark.slow
async def test_a_streamed_key_is_marked_once_the_reply_is_saved(chat_services, fake_openai):
    fake_openai.reply(f"Set it with: export GITHUB_TOKEN={TOKEN} and run the deploy again.",
                      words_per_second=200)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await send(pilot, "how do I set the token?")
        await wait_until(pilot, lambda: not chat(app).streaming and replies(app))
        await wait_until(pilot, lambda: TOKEN not in replies(app)[0])
        view = app.screen.query_one(AssistantMessage)
        shown = view.markdown.source
        assert TOKEN not in shown and "[REDACTED:" in shown and "run the deploy again" in shown
        assert chat(app).turn_view.last_reply_text == view.text  # what ctrl+o copies
        cid = chat(app).conversation_id
    stored = chat_services.history.messages(cid)[-1]
    assert stored.role == "assistant" and stored.content == view.text  # the view is what history keeps


@pytest.mark.slow
async def test_a_reply_without_secrets_is_left_as_streamed(chat_services, fake_openai):
    text = "Use kubeadm certs renew all, then restart the control plane pods."
    fake_openai.reply(text, words_per_second=200)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await send(pilot, "renew certs?")
        await wait_until(pilot, lambda: not chat(app).streaming and replies(app))
        assert replies(app) == [text] and chat(app).turn_view.last_reply_text == text
