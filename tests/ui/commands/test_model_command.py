"""/model: this conversation's model, against the fake OpenAI server and real SQLite.

``/model NAME`` sends this conversation's turns to NAME, records it on the conversation
and on each reply, shows it in the header; a new conversation goes back to the default.
``/model`` alone opens a picker fed by the endpoint's ``/models`` (configured ones first).
"""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from agenttui.ui.app import make_app
from agenttui.ui.screens.model_picker import ModelPickerScreen
from agenttui.ui.slash.table import BY_NAME, help_text
from tests.ui.helpers import chat, replies, send, send_and_wait, wait_until

SIZE = (160, 36)


def _reply_models(services, cid: str) -> list[str]:
    replies_ = [m for m in services.history.messages(cid) if m.role == "assistant"]
    usage = services.history.usage_for([m.id for m in replies_])
    return [usage[m.id].model for m in replies_]


@pytest.mark.slow
async def test_model_name_is_used_recorded_and_dropped_by_a_new_conversation(chat_services, fake_openai):
    default = chat_services.model
    assert default != "other"
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await send_and_wait(pilot, "first, on the default")
        cid = chat(app).conversation_id
        assert fake_openai.chat_requests[-1]["model"] == default

        await send(pilot, "/model other")
        await wait_until(pilot, lambda: "model: other" in app.sub_title)
        await send_and_wait(pilot, "second, on the other one")
        assert fake_openai.chat_requests[-1]["model"] == "other"
        assert chat(app).conversation_id == cid
        assert _reply_models(chat_services, cid) == [default, "other"]
        assert chat_services.history.get_conversation(cid).model == "other"

        await send(pilot, "/new")
        await wait_until(pilot, lambda: chat(app).conversation_id is None)
        assert "model: other" not in app.sub_title and f"model: {default}" in app.sub_title
        await send_and_wait(pilot, "a new conversation")
        new_cid = chat(app).conversation_id
        assert new_cid != cid
        assert fake_openai.chat_requests[-1]["model"] == default
        assert chat_services.history.get_conversation(new_cid).model == default
        assert _reply_models(chat_services, new_cid) == [default]


@pytest.mark.slow
async def test_model_before_the_first_message_creates_the_conversation_with_it(chat_services, fake_openai):
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        await send(pilot, "/model early-pick")
        await wait_until(pilot, lambda: "model: early-pick" in app.sub_title)
        await send_and_wait(pilot, "hello")
        cid = chat(app).conversation_id
        assert fake_openai.chat_requests[-1]["model"] == "early-pick"
        assert chat_services.history.get_conversation(cid).model == "early-pick"


@pytest.mark.slow
async def test_the_picker_lists_configured_models_first_and_picks_one(chat_services, fake_openai):
    fake_openai.more_models = ["zeta-large", "alpha-small"]
    default = chat_services.model
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        await send(pilot, "/model")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPickerScreen))
        picker = app.screen
        listed = sorted([fake_openai.model, "zeta-large", "alpha-small"])
        await wait_until(pilot, lambda: len(picker.models) == len({default, *listed}))
        assert picker.models[0] == default  # configured first, then the endpoint's, sorted
        assert picker.models[1:] == [name for name in listed if name != default]
        assert any(r.method == "GET" and r.path.rstrip("/").endswith("/models") for r in fake_openai.requests)

        options = picker.query_one(OptionList)
        options.highlighted = picker.models.index("zeta-large")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "model: zeta-large" in app.sub_title)
        await send_and_wait(pilot, "hi")
        assert fake_openai.chat_requests[-1]["model"] == "zeta-large"

        # opened again: the list comes from the cache (no second GET /models), Escape keeps the model
        gets = sum(r.method == "GET" and r.path.rstrip("/").endswith("/models") for r in fake_openai.requests)
        await send(pilot, "/model")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPickerScreen))
        await wait_until(pilot, lambda: "listed by" in str(app.screen.query_one("#model-list-status").render()))
        assert sum(r.method == "GET" and r.path.rstrip("/").endswith("/models")
                   for r in fake_openai.requests) == gets
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ModelPickerScreen))
        assert "model: zeta-large" in app.sub_title
        assert len(replies(app)) == 1


def test_model_is_in_the_slash_table_and_help():
    assert "model" in BY_NAME and not BY_NAME["model"].required
    assert "/model [NAME]" in help_text((BY_NAME["model"],), ())


@pytest.mark.slow
async def test_picker_without_the_endpoint_list_and_a_bad_name(chat_services, fake_openai):
    fake_openai.no_models(404)
    default = chat_services.model
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        await send(pilot, "/model")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPickerScreen))
        picker = app.screen
        await wait_until(pilot, lambda: "Could not list models" in str(picker.query_one("#model-list-status").render()))
        assert picker.models[0] == default and "fake-model" not in picker.models  # the configured ones only
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ModelPickerScreen))

        await send(pilot, "/model two words")
        await wait_until(pilot, lambda: any("not a model name" in message for _, _, message in app.notices))
        assert chat(app).conversation_model.name is None and f"model: {default}" in app.sub_title
