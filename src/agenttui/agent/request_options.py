"""Request options some endpoints reject, and fallbacks remembered per endpoint and model.

Every chat request carries two options not all servers take:

* ``stream_options: {"include_usage": true}`` -- the token counts of a stream.
  Rejected by Azure OpenAI before api-version 2024-09-01-preview (400
  "Unrecognized request argument supplied: stream_options", seen in
  Pythagora-io/gpt-pilot#1022, songquanpeng/one-api#1423; 400 "Unknown
  parameter: 'stream_options'" with ``code: unknown_parameter``,
  Azure/azure-sdk-for-net#45557), by Mistral's API (422 ``extra_forbidden`` at
  ``["body", "stream_options", "include_usage"]``, avante-corp/avante.nvim#2347)
  and by gateways in front of either.
* ``tools`` -- agenttui's memory, file and shell tools. Rejected by:
  Ollama for a model whose template has no tool support (400 "<model> does not
  support tools": ollama/ollama server/images.go ``errCapabilities`` +
  ``errCapabilityTools``, mapped to 400 by server/routes.go
  ``handleScheduleError``, wrapped as an OpenAI error by openai/openai.go
  ``NewError``); vLLM started without ``--enable-auto-tool-choice`` (400
  '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser
  to be set': vllm/entrypoints/openai/serving_chat.py; ``tools`` without
  ``tool_choice`` counts as "auto" in protocol.py ``check_tool_usage``);
  llama.cpp's server without ``--jinja`` (500 "tools param requires --jinja
  flag": tools/server/utils.hpp); OpenRouter when no provider of the model
  takes tools (404 "No endpoints found that support tool use",
  FoundationAgents/OpenManus#55, pydantic/pydantic-ai#2896).

Only those exact rejections trigger a fallback: a bare 400 is just as often a
malformed request or an over-long prompt, and retrying without tools would
hide it. The fallback retries the same request at once without the option
(before any retry of :mod:`agenttui.agent.retry`: llama.cpp's 500 would
otherwise be retried three times), remembers it for that endpoint
(``base_url``) and model, and the loop tells the user once, in words
(:class:`~agenttui.agent.events.RequestFallback`).

Settings, ``[agent]``: ``stream_options`` and ``tool_calling``, each
``"auto"`` (send; fall back on a known rejection and remember it), ``"on"``
(always send; a rejection is an error) or ``"off"`` (never send).

The memory (``<data dir>/state/endpoints.json``) is
:mod:`agenttui.core.endpoint_state`. ``"on"`` ignores what is remembered;
``agenttui doctor`` lists it; deleting the file forgets it.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from agenttui.core.endpoint_state import EndpointMemory, Option, endpoint_key

# Lower-case phrases of the known "no tools here" errors (sources in the module doc).
TOOL_REJECTIONS = (
    "does not support tools",                  # Ollama
    "--enable-auto-tool-choice",               # vLLM
    "tools param requires --jinja",            # llama.cpp server
    "no endpoints found that support tool use",  # OpenRouter
)
_STREAM_OPTIONS_STATUSES = (400, 422)  # 422: Mistral's pydantic validation
_TOOLS_STATUSES = (400, 404, 422, 500)  # 404: OpenRouter; 500: llama.cpp


# ---------------------------------------------------------------- per request
def apply(params: dict[str, Any], agent_settings: Any, memory: EndpointMemory,
          base_url: str | None, model: str) -> None:
    """Drop from ``params`` what settings forbid or this endpoint and model refused before."""
    omitted = memory.omitted(base_url, model)
    for option, setting in (("stream_options", agent_settings.stream_options),
                            ("tools", agent_settings.tool_calling)):
        if setting == "off" or (setting == "auto" and option in omitted):
            params.pop(option, None)


def error_text(exc: BaseException) -> tuple[int | None, str]:
    """(HTTP status, lower-cased message and body) of an openai error; (None, "") otherwise."""
    status = getattr(exc, "status_code", None)
    if not isinstance(status, int):
        return None, ""
    body = getattr(exc, "body", None)
    with contextlib.suppress(TypeError, ValueError):
        body = json.dumps(body)
    return status, f"{getattr(exc, 'message', '') or exc} {body or ''}".lower()


def rejected_option(exc: BaseException, params: dict[str, Any], agent_settings: Any) -> Option | None:
    """The option the endpoint refused in ``exc``, if it is one we may drop (setting "auto")."""
    status, text = error_text(exc)
    if status is None:
        return None
    if ("stream_options" in params and agent_settings.stream_options == "auto"
            and status in _STREAM_OPTIONS_STATUSES and "stream_options" in text):
        return "stream_options"
    if ("tools" in params and agent_settings.tool_calling == "auto"
            and status in _TOOLS_STATUSES and any(phrase in text for phrase in TOOL_REJECTIONS)):
        return "tools"
    return None


def server_message(exc: BaseException) -> str:
    """The endpoint's own words, for the notice (via retry's detail extraction)."""
    from agenttui.agent.retry import _error_detail

    return " ".join(str(_error_detail(exc)).split())[:200]


def notice(option: Option, model: str, base_url: str | None, detail: str, saved_warning: str | None) -> str:
    """What the user is told, once per endpoint and model."""
    where = f"{model} at {endpoint_key(base_url)}"
    if option == "tools":
        text = (f"{where} does not take tool calls (the server said: {detail}). "
                "Continuing without tools: the model cannot remember, recall, read files or run "
                "commands by itself. Pick a model with tool support, or set "
                '`[agent] tool_calling = "on"` to always send them.')
    else:
        text = (f"{where} rejects `stream_options` (the server said: {detail}). "
                "Continuing without it: token counts are not reported for this endpoint. "
                'Set `[agent] stream_options = "on"` to always send it.')
    text += " Remembered for this endpoint and model"
    return text + (f", but {saved_warning}." if saved_warning else ".")
