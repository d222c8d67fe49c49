"""The context length comes from the endpoint when it reports one (OpenRouter's
``context_length``, vLLM's ``max_model_len``, Ollama's ``/api/show``); the table is the fallback.
Real openai client and HTTP against the fake server."""

from __future__ import annotations

import threading

import pytest

from agenttui.agent.context_probe import probe
from agenttui.agent.loop import run_turn
from agenttui.core.context import endpoint_context
from agenttui.core.context.model_limits import UNKNOWN_CONTEXT, context_length, prompt_budget

from .conftest import collect


@pytest.mark.parametrize("fields", [{"context_length": 9_000},  # OpenRouter
                                    {"top_provider": {"context_length": 9_000}},
                                    {"max_model_len": 9_000}])  # vLLM
def test_models_entry_fields(fake_openai, fields):
    fake_openai.model_fields = fields
    assert probe(fake_openai.base_url, "k", fake_openai.model) == 9_000
    assert probe(fake_openai.base_url, "k", "another-model") is None


def test_ollama_show_num_ctx_first_then_the_model_length(fake_openai):
    fake_openai.ollama_show = {"parameters": "stop \"<|eot|>\"\nnum_ctx 4096",
                               "model_info": {"llama.context_length": 131072}}
    assert probe(fake_openai.base_url, "k", "llama3.2") == 4096
    fake_openai.ollama_show = {"parameters": "", "model_info": {"llama.context_length": 131072}}
    assert probe(fake_openai.base_url, "k", "llama3.2") == 131072
    fake_openai.ollama_show = None
    assert probe(fake_openai.base_url, "k", "llama3.2") is None  # the table stays


async def test_a_turn_learns_the_length_and_the_budget_follows(services, fake_openai, tmp_path):
    model = "probe-model-unknown-to-the-table"
    services.settings.model = model
    fake_openai.model = model
    fake_openai.model_fields = {"max_model_len": 6_000}
    assert context_length(model, fake_openai.base_url, tmp_path) == UNKNOWN_CONTEXT  # table fallback
    conversation = services.history.create_conversation()
    await collect(run_turn(services, conversation.id, "hello"))
    data_dir = services.paths.data_dir
    for thread in threading.enumerate():  # the turn's probe runs beside it: wait for it to end
        if thread.name == "agenttui-context-probe":
            thread.join(timeout=60)
    assert endpoint_context.learned(fake_openai.base_url, model, data_dir) == 6_000
    assert prompt_budget(services.settings, model, base_url=fake_openai.base_url, data_dir=data_dir) == 3_000
    assert "6000" in endpoint_context._path(data_dir).read_text()  # the next command knows it too
