"""``agenttui doctor``'s endpoint checks.

Three checks, all decided by asking the endpoint itself:

* ``models`` -- ``GET {base_url}/models``. Informational: many servers and
  gateways do not serve it (404/405), Azure lists base models rather than
  deployments, OpenRouter accepts aliases. A missing list is a *warning* that
  says so; agenttui never needs the list.
* ``endpoint`` -- **the verdict**: a one-token chat probe, ``POST
  {base_url}/chat/completions`` with ``max_tokens: 1`` (``max_completion_tokens``
  when the model refuses ``max_tokens``, as OpenAI's reasoning models do), no
  stream, no tools. Any 200 carrying ``choices`` passes; anything else fails with
  the server's own words and a fix. Its timeout is ``[agent] request_timeout``
  (what a chat turn would wait; a local server may be loading the model).
* ``request options`` -- what :mod:`agenttui.agent.request_options` remembers
  this endpoint and model refused (sent without ``tools`` / ``stream_options``).

``--offline`` skips all three (nothing is contacted). The standard library
does the HTTP (see :mod:`agenttui.core.doctor.checks`: doctor works even when the
openai import is what is broken).
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agenttui.core.doctor.checks import Check, DoctorContext

MISSING_MODELS = (404, 405, 501)  # "no such route" as servers and gateways say it
PROBE_TEXT = "Reply with the single word: ok"


@dataclass
class Answer:
    """One HTTP exchange: ``status`` None = no answer (``error`` says why)."""

    status: int | None
    payload: Any = None
    text: str = ""
    error: str = ""
    seconds: float = 0.0


def _request(url: str, key: str | None, timeout: float, body: dict[str, Any] | None = None) -> Answer:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method="POST" if data else "GET")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw = response.status, response.read(2_000_000)
    except urllib.error.HTTPError as exc:
        status, raw = exc.code, exc.read(200_000) if exc.fp is not None else b""
    except TimeoutError:
        return Answer(None, error=f"no answer within {timeout:g} s", seconds=time.monotonic() - started)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        return Answer(None, error=str(getattr(exc, "reason", exc)), seconds=time.monotonic() - started)
    text = raw.decode("utf-8", "replace")
    try:
        payload = json.loads(text)
    except ValueError:
        payload = None
    return Answer(status, payload, text, seconds=time.monotonic() - started)


def server_words(answer: Answer) -> str:
    """The error message the server sent, else the start of its body."""
    payload = answer.payload
    if isinstance(payload, dict):
        inner = payload.get("error", payload)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if message:
            return " ".join(str(message).split())[:300]
    return " ".join(answer.text.split())[:160] or "(empty body)"


# ---------------------------------------------------------------- cached exchanges
def _key(ctx: DoctorContext) -> str | None:
    from agenttui.core.config.api_key import get_api_key

    return get_api_key(ctx.environ).value


def models_answer(ctx: DoctorContext) -> Answer:
    from agenttui.core.doctor.checks import _effective_endpoint

    if "models" not in ctx.cache:
        base, _ = _effective_endpoint(ctx)
        ctx.cache["models"] = _request(f"{base}/models", _key(ctx), ctx.endpoint_timeout)
    answer: Answer = ctx.cache["models"]
    return answer


def listed_models(ctx: DoctorContext) -> list[str] | None:
    answer = models_answer(ctx)
    if answer.status != 200 or not isinstance(answer.payload, dict):
        return None
    data = answer.payload.get("data")
    if not isinstance(data, list):
        return None
    return [str(entry.get("id")) for entry in data if isinstance(entry, dict)]


def probe_answer(ctx: DoctorContext) -> Answer:
    """The one-token chat probe (retried once with ``max_completion_tokens`` if refused)."""
    from agenttui.core.doctor.checks import _effective_endpoint

    if "probe" not in ctx.cache:
        base, model = _effective_endpoint(ctx)
        body: dict[str, Any] = {"model": model, "messages": [{"role": "user", "content": PROBE_TEXT}],
                                "max_tokens": 1, "stream": False}
        answer = _request(f"{base}/chat/completions", _key(ctx), ctx.probe_timeout, body)
        if answer.status == 400 and "max_tokens" in server_words(answer):
            body.pop("max_tokens")
            body["max_completion_tokens"] = 1
            answer = _request(f"{base}/chat/completions", _key(ctx), ctx.probe_timeout, body)
        ctx.cache["probe"] = answer
    cached: Answer = ctx.cache["probe"]
    return cached


def probe_passed(answer: Answer) -> bool:
    return (answer.status == 200 and isinstance(answer.payload, dict)
            and isinstance(answer.payload.get("choices"), list))


# ---------------------------------------------------------------- the checks
def check_models(ctx: DoctorContext) -> Check:
    from agenttui.core.doctor.checks import Check, _effective_endpoint

    base, model = _effective_endpoint(ctx)
    if ctx.offline:
        return Check("models", "skip", f"{base}/models not contacted (--offline)")
    answer = models_answer(ctx)
    if answer.status is None:
        return Check("models", "skip", f"{base} did not answer ({answer.error}); see endpoint")
    ids = listed_models(ctx)
    if answer.status in MISSING_MODELS:
        return Check("models", "warn",
                     f"{base}/models is not offered (HTTP {answer.status}); some servers and gateways "
                     "do not list models, and agenttui does not need the list: the chat probe "
                     "(endpoint) decides",
                     "nothing to do if endpoint is ok; otherwise check that base_url ends where the "
                     "API starts (often /v1)")
    if ids is None:
        return Check("models", "warn", f"{base}/models answered HTTP {answer.status}: {server_words(answer)}",
                     "agenttui does not need the list; the chat probe (endpoint) decides")
    if model in ids:
        return Check("models", "ok", f"{base}/models lists {len(ids)} model(s), including {model}")
    shown = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "") or "none"
    if not ctx.offline and probe_passed(probe_answer(ctx)):
        return Check("models", "ok", f"{model} is not in the list ({shown}) but answers the chat "
                     "probe (an alias or a deployment name)")
    return Check("models", "warn", f"{base}/models does not list {model} (lists: {shown})",
                 "set the model with AGENTTUI_MODEL or `model = \"…\"` in the config")


def check_endpoint(ctx: DoctorContext) -> Check:
    from agenttui.core.doctor.checks import Check, _effective_endpoint

    base, model = _effective_endpoint(ctx)
    if ctx.offline:
        return Check("endpoint", "skip", f"{base} not contacted (--offline)")
    answer = probe_answer(ctx)
    if probe_passed(answer):
        return Check("endpoint", "ok", f"{base} answered a 1-token chat probe with {model} "
                     f"in {answer.seconds:.1f} s")
    if answer.status is None:
        if answer.error.startswith("no answer within"):
            return Check("endpoint", "fail", f"{base}: the chat probe got {answer.error}",
                         "a local server may still be loading the model: run doctor again; "
                         "or raise [agent] request_timeout (doctor --probe-timeout)")
        return Check("endpoint", "fail", f"{base} is not reachable ({answer.error})",
                     "start your server or check OPENAI_BASE_URL / base_url and your network")
    words = server_words(answer)
    if answer.status == 200:
        return Check("endpoint", "fail", f"{base}/chat/completions answered 200 but not with a chat "
                     f"completion: {words}",
                     "base_url must point at the API (often ending in /v1), not a web page or a proxy login")
    if answer.status in (401, 403):
        return Check("endpoint", "fail", f"the chat probe was refused (HTTP {answer.status}): {words}",
                     "the API key was refused: set the right one with `agenttui key set` or OPENAI_API_KEY")
    if answer.status == 404:
        ids = listed_models(ctx)
        hint = (f"set a model it serves (it lists: {', '.join(ids[:5])})" if ids
                else "check the model name, and that base_url ends where the API starts (often /v1)")
        return Check("endpoint", "fail", f"the chat probe with {model} got HTTP 404: {words}", hint)
    if answer.status == 429:
        return Check("endpoint", "fail", f"the chat probe was rate-limited or over quota (429): {words}",
                     "check your plan or quota; if it is a rate limit, run doctor again in a minute")
    return Check("endpoint", "fail", f"the chat probe with {model} got HTTP {answer.status}: {words}",
                 "see the server's message above; check the model and base_url")


def check_request_options(ctx: DoctorContext) -> Check:
    """What the chat loop remembers this endpoint and model refused (read from the state file)."""
    from agenttui.core.doctor.checks import Check, Status, _effective_endpoint
    from agenttui.core.endpoint_state import EndpointMemory, endpoint_key, state_path

    base, model = _effective_endpoint(ctx)
    path = state_path(ctx.paths.data_dir)
    remembered = [r for r in EndpointMemory(path).entries()
                  if r.endpoint == endpoint_key(base) and r.model == model]
    if not remembered:
        return Check("request options", "ok", f"streams with usage and tools for {model}")
    what = "; ".join(f"sent without {r.option} since {r.since} ({r.reason})" for r in remembered)
    fix = (f"after switching or upgrading the model or server, delete {path} to try them again "
           "(or set [agent] tool_calling / stream_options = \"on\")")
    status: Status = "warn" if any(r.option == "tools" for r in remembered) else "ok"
    return Check("request options", status, f"{model} at {base}: {what}", fix)
