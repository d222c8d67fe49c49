"""Doctor's endpoint verdict comes from a one-token chat probe; a missing
``/models`` is a warning that explains itself. Against the real fake server over HTTP."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from agenttui.core.doctor import checks as doctor
from agenttui.core.doctor.checks import DoctorContext
from agenttui.core.endpoint_state import memory_for


@pytest.fixture
def ctx(paths, fake_openai):
    return DoctorContext(paths=paths, endpoint_timeout=2.0, probe_timeout=5.0,
                         environ={"OPENAI_BASE_URL": fake_openai.base_url, "OPENAI_API_KEY": "sk-test",
                                  "AGENTTUI_MODEL": fake_openai.model})


def probes(fake) -> list[dict]:
    return fake.chat_requests


def test_listed_model_and_a_passing_probe(ctx, fake_openai):
    assert doctor.check_models(ctx).status == "ok"
    result = doctor.check_endpoint(ctx)
    assert result.status == "ok" and "1-token chat probe" in result.detail
    (probe,) = probes(fake_openai)
    assert probe["max_tokens"] == 1 and probe["model"] == fake_openai.model
    assert not probe.get("stream") and "tools" not in probe  # the smallest request that proves chat works
    auth = next(r for r in fake_openai.requests if r.path.endswith("/chat/completions")).headers
    assert auth.get("Authorization") == "Bearer sk-test"


def test_missing_models_is_a_warning_that_explains_itself(ctx, fake_openai):
    fake_openai.no_models(404)
    models = doctor.check_models(ctx)
    assert models.status == "warn"
    assert "not offered (HTTP 404)" in models.detail and "does not need the list" in models.detail
    assert doctor.check_endpoint(ctx).status == "ok"  # chat works: that is the verdict


def test_unlisted_model_that_answers_is_an_alias_not_a_problem(ctx, fake_openai):
    ctx.environ["AGENTTUI_MODEL"] = "my-deployment"
    models = doctor.check_models(ctx)
    assert models.status == "ok" and "alias or a deployment" in models.detail
    assert doctor.check_endpoint(ctx).status == "ok"


def test_refused_key_fails_with_the_fix(ctx, fake_openai):
    fake_openai.status(401, message="Incorrect API key provided: sk-test.")
    result = doctor.check_endpoint(ctx)
    assert result.status == "fail" and "Incorrect API key" in result.detail
    assert "agenttui key set" in result.fix


def test_unknown_model_fails_and_names_the_models_on_offer(ctx, fake_openai):
    ctx.environ["AGENTTUI_MODEL"] = "no-such-model"
    # OpenAI's wording for an unknown model (model_not_found, HTTP 404)
    fake_openai.status(404, message="The model `no-such-model` does not exist or you do not have access to it.")
    result = doctor.check_endpoint(ctx)
    assert result.status == "fail" and "does not exist" in result.detail
    assert fake_openai.model in result.fix
    assert doctor.check_models(ctx).status == "warn"  # not listed, and chat did not work


def test_max_tokens_refused_is_probed_with_max_completion_tokens(ctx, fake_openai):
    # OpenAI's reasoning models (o1, gpt-5): this body is quoted in microsoft/vscode-copilot-release#8065
    # and griptape-ai/ComfyUI-Griptape#312.
    fake_openai.reject("max_tokens", (400, {"error": {
        "message": "Unsupported parameter: 'max_tokens' is not supported with this model. "
                   "Use 'max_completion_tokens' instead.",
        "type": "invalid_request_error", "param": "max_tokens", "code": "unsupported_parameter"}}))
    assert doctor.check_endpoint(ctx).status == "ok"
    first, second = probes(fake_openai)
    assert first["max_tokens"] == 1 and second["max_completion_tokens"] == 1 and "max_tokens" not in second


@pytest.mark.slow
def test_a_silent_server_times_out_with_advice(ctx, fake_openai):
    ctx.probe_timeout = 0.5
    fake_openai.stall(3)
    result = doctor.check_endpoint(ctx)
    assert result.status == "fail" and "no answer within 0.5 s" in result.detail
    assert "loading the model" in result.fix


def test_server_error_fails_with_its_words(ctx, fake_openai):
    fake_openai.status(503, message="model is overloaded")
    result = doctor.check_endpoint(ctx)
    assert result.status == "fail" and "503" in result.detail and "overloaded" in result.detail


def test_unreachable_fails_once(ctx):
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    ctx.environ["OPENAI_BASE_URL"] = f"http://127.0.0.1:{port}/v1"
    assert doctor.check_models(ctx).status == "skip"
    result = doctor.check_endpoint(ctx)
    assert result.status == "fail" and "not reachable" in result.detail


def test_offline_contacts_nothing(ctx, fake_openai):
    ctx.offline = True
    assert doctor.check_models(ctx).status == "skip"
    assert doctor.check_endpoint(ctx).status == "skip"
    assert fake_openai.requests == []


def test_remembered_fallbacks_are_listed(ctx, fake_openai, paths):
    assert doctor.check_request_options(ctx).status == "ok"
    memory = memory_for(paths.data_dir)
    memory.remember(fake_openai.base_url, fake_openai.model, "tools", "gemma2:2b does not support tools")
    result = doctor.check_request_options(ctx)
    assert result.status == "warn" and "without tools" in result.detail
    assert "endpoints.json" in result.fix
    memory.remember(fake_openai.base_url, "other-model", "stream_options", "Unknown parameter")
    assert "stream_options" not in doctor.check_request_options(ctx).detail  # another model's


def test_cli_all_good_without_models_and_json(isolated_home, fake_openai):
    fake_openai.no_models(404)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(AGENTTUI_HOME=str(isolated_home), PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
               OPENAI_API_KEY="sk-test", OPENAI_BASE_URL=fake_openai.base_url, AGENTTUI_MODEL=fake_openai.model)
    run = subprocess.run([sys.executable, "-m", "agenttui", "doctor", "--probe-timeout", "10"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "verdict: all good" in run.stdout and "[WARN] models" in run.stdout
    fake_openai.status(500, message="boom")
    run = subprocess.run([sys.executable, "-m", "agenttui", "doctor", "--json"],
                         capture_output=True, text=True, env=env, timeout=60)
    report = json.loads(run.stdout)
    assert run.returncode == 1 and not report["ok"]
    endpoint = next(c for c in report["checks"] if c["name"] == "endpoint")
    assert endpoint["status"] == "fail" and "boom" in endpoint["detail"]
