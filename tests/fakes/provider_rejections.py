"""How real servers refuse ``stream_options`` and ``tools``: status and body, as they send them.

Used by :meth:`tests.fakes.openai_server.FakeOpenAI.reject`: the fake answers
every chat request that carries the option with the error below, like the
real server would (the refusal depends on the request, not on a script).

Each entry cites where its status and body come from; model names are examples.
"""

from __future__ import annotations

from typing import Any

Rejection = tuple[int, dict[str, Any]]

STREAM_OPTIONS: dict[str, Rejection] = {
    # Azure OpenAI before api-version 2024-09-01-preview: Pythagora-io/gpt-pilot#1022 and
    # songquanpeng/one-api#1423 quote this body (request id trimmed).
    "azure-unrecognized": (400, {"error": {
        "message": "Unrecognized request argument supplied: stream_options. Please contact us "
                   "through an Azure support request at: https://go.microsoft.com/fwlink/?linkid=2213926 "
                   "for further questions.",
        "type": "invalid_request_error", "param": "", "code": None}}),
    # OpenAI-style unknown parameter (Azure deployments, gateways): agno-agi/agno#1066,
    # Azure/azure-sdk-for-net#45557 ("HTTP 400 (invalid_request_error: unknown_parameter)").
    "unknown-parameter": (400, {"error": {
        "message": "Unknown parameter: 'stream_options'.", "type": "invalid_request_error",
        "param": "stream_options", "code": "unknown_parameter"}}),
    # Mistral's API: a 422 pydantic extra_forbidden error whose "message" is an object,
    # quoted in avante-corp/avante.nvim#2347 and dnakov/anon-kode#53.
    "mistral-extra-forbidden": (422, {
        "object": "error",
        "message": {"detail": [{"type": "extra_forbidden", "loc": ["body", "stream_options", "include_usage"],
                                "msg": "Extra inputs are not permitted", "input": True}]},
        "type": "invalid_request_error", "param": None, "code": None}),
}

TOOLS: dict[str, Rejection] = {
    # Ollama: server/images.go CheckCapabilities -> "<model name> does not support tools"
    # (errCapabilities + errCapabilityTools), 400 from server/routes.go handleScheduleError,
    # wrapped by middleware/openai.go with openai/openai.go NewError (type invalid_request_error).
    "ollama": (400, {"error": {
        "message": "registry.ollama.ai/library/gemma2:2b does not support tools",
        "type": "invalid_request_error", "param": None, "code": None}}),
    # vLLM without --enable-auto-tool-choice: vllm/entrypoints/openai/serving_chat.py
    # create_error_response (400, ErrorResponse object "error"); tools without tool_choice
    # count as "auto" (protocol.py check_tool_usage).
    "vllm": (400, {
        "object": "error",
        "message": "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set",
        "type": "BadRequestError", "param": None, "code": 400}),
    # llama.cpp's llama-server without --jinja: tools/server/utils.hpp throws
    # "tools param requires --jinja flag", answered as a 500 server_error.
    "llama.cpp": (500, {"error": {
        "code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}}),
    # OpenRouter when no provider of the model takes tools: FoundationAgents/OpenManus#55,
    # pydantic/pydantic-ai#2896.
    "openrouter": (404, {"error": {
        "message": "No endpoints found that support tool use. To learn more about provider routing, "
                   "visit: https://openrouter.ai/docs/provider-routing", "code": 404}}),
}

# Not a refusal of an option: a 400 that must stay an error (no fallback hides it). OpenAI's
# context_length_exceeded error, as openai/openai-python issues quote it.
CONTEXT_TOO_LONG: Rejection = (400, {"error": {
    "message": "This model's maximum context length is 128000 tokens. However, your messages "
               "resulted in 130000 tokens (including tools). Please reduce the length of the messages.",
    "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}})
