"""Stream formats of real OpenAI-compatible providers, byte for byte, for the fake server.

Each builder returns the frames (``bytes``) one provider sends for one kind of
answer; ``FakeOpenAI.raw(frames)`` replays them verbatim, and the real
``openai`` client parses them as it would in production. Every builder names
its source: the provider's docs, SDK or server code it was written from.
The request checks (``*_checks``) are the provider's own 400s that a wrong
request history triggers, so a follow-up turn proves the history is valid.

Values (ids, timestamps, signatures) are made up; field names, nesting,
order and framing are the providers'.
"""

from __future__ import annotations

import json
from typing import Any

Frames = list[bytes]
CREATED = 1_764_000_000


def data(payload: dict[str, Any] | str, *, space: bool = True, crlf: bool = False) -> bytes:
    """One SSE event: ``data: <json>`` and the blank line that ends it."""
    text = payload if isinstance(payload, str) else json.dumps(payload, separators=(",", ":"))
    nl = "\r\n" if crlf else "\n"
    return f"data:{' ' if space else ''}{text}{nl}{nl}".encode()


def comment(text: str) -> bytes:
    return f": {text}\n\n".encode()


DONE = data("[DONE]")


def _chunk(delta: dict[str, Any], finish: str | None = None, *, model: str = "gpt-4o-mini",
           cid: str = "chatcmpl-abc123", **extra: Any) -> dict[str, Any]:
    return {"id": cid, "object": "chat.completion.chunk", "created": CREATED, "model": model,
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}], **extra}


def _usage_chunk(model: str = "gpt-4o-mini", cid: str = "chatcmpl-abc123") -> dict[str, Any]:
    return {"id": cid, "object": "chat.completion.chunk", "created": CREATED, "model": model,
            "choices": [], "usage": {"prompt_tokens": 19, "completion_tokens": 10, "total_tokens": 29}}


# ---------------------------------------------------------------- OpenAI
# Source: https://platform.openai.com/docs/api-reference/chat-streaming (the chunk object,
# "choices ... can also be empty for the last chunk if you set stream_options: {include_usage: true}")
# and github.com/openai/openai-python src/openai/types/chat/chat_completion_chunk.py (finish_reason:
# "stop", "length", "tool_calls", "content_filter", "function_call").
def openai_text(words: list[str], finish: str = "stop") -> Frames:
    frames = [data(_chunk({"role": "assistant", "content": "", "refusal": None}))]
    frames += [data(_chunk({"content": w})) for w in words]
    frames += [data(_chunk({}, finish)), data(_usage_chunk()), DONE]
    return frames


def openai_refusal(words: list[str]) -> Frames:
    """A refusal streams in ``delta.refusal`` (ChoiceDelta.refusal), ``content`` stays null."""
    frames = [data(_chunk({"role": "assistant", "content": None, "refusal": ""}))]
    frames += [data(_chunk({"refusal": w})) for w in words]
    frames += [data(_chunk({}, "stop")), data(_usage_chunk()), DONE]
    return frames


def openai_tool_call_cut(name: str, args_prefix: str) -> Frames:
    """A tool call whose arguments stop mid-JSON at max_tokens (finish_reason "length")."""
    return [
        data(_chunk({"role": "assistant", "content": None, "refusal": None})),
        data(_chunk({"tool_calls": [{"index": 0, "id": "call_Hk2pYwV", "type": "function",
                                     "function": {"name": name, "arguments": ""}}]})),
        data(_chunk({"tool_calls": [{"index": 0, "function": {"arguments": args_prefix}}]})),
        data(_chunk({}, "length")), data(_usage_chunk()), DONE,
    ]


def openai_no_finish(words: list[str]) -> Frames:
    """The stream stops after some text: no finish chunk, no [DONE] (a proxy cut it cleanly)."""
    return [data(_chunk({"role": "assistant", "content": ""}))] + [data(_chunk({"content": w})) for w in words]


def openai_checks(body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
    """OpenAI's (and Azure's) 400 for an assistant message with neither content nor tool calls.

    Source: the error body as reported verbatim from OpenAI and Azure OpenAI in
    github.com/langchain-ai/langchainjs/issues/4153 ({"error": {"message": "Invalid value for
    'content': expected a string, got null.", "type": "invalid_request_error", "param":
    "messages.[0].content", "code": null}}) and github.com/docker/docker-agent/issues/63.
    """
    for n, message in enumerate(body.get("messages") or []):
        if message.get("role") == "assistant" and message.get("content") is None \
                and not message.get("tool_calls"):
            return 400, {"error": {"message": "Invalid value for 'content': expected a string, got null.",
                                   "type": "invalid_request_error", "param": f"messages.[{n}].content",
                                   "code": None}}
    return None


# ---------------------------------------------------------------- Azure OpenAI
# Source: https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter (streaming:
# the first chunk carries prompt_filter_results with an empty choices list, id "" and object "";
# each choice carries content_filter_results; a filtered completion ends with
# finish_reason "content_filter").
def _azure_filter(filtered: str | None = None) -> dict[str, Any]:
    return {cat: {"filtered": cat == filtered, "severity": "medium" if cat == filtered else "safe"}
            for cat in ("hate", "self_harm", "sexual", "violence")}


def azure_content_filtered(words: list[str], category: str = "violence") -> Frames:
    first = {"choices": [], "created": 0, "id": "", "model": "", "object": "",
             "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": _azure_filter()}]}
    frames = [data(first)]
    frames += [data({"choices": [{"content_filter_results": _azure_filter(), "delta": {"content": w},
                                  "finish_reason": None, "index": 0}],
                     "created": CREATED, "id": "chatcmpl-azure1", "model": "gpt-4o-2024-08-06",
                     "object": "chat.completion.chunk", "system_fingerprint": "fp_azure"})
               for w in words]
    frames.append(data({"choices": [{"content_filter_results": _azure_filter(category), "delta": {},
                                     "finish_reason": "content_filter", "index": 0}],
                        "created": CREATED, "id": "chatcmpl-azure1", "model": "gpt-4o-2024-08-06",
                        "object": "chat.completion.chunk", "system_fingerprint": "fp_azure"}))
    frames.append(DONE)
    return frames


# ---------------------------------------------------------------- Ollama
# Source: github.com/ollama/ollama openai/openai.go (Delta: role/content/reasoning/tool_calls with
# omitempty; ToStreamChunks sends thinking and content as separate chunks; ToolCall has index;
# FinishChunk: an empty delta with finish_reason, "stop" -> "tool_calls" when a call was sent,
# other done reasons such as "length" passed through) and middleware/openai.go (ChatWriter:
# "data: %s\n\n", a usage chunk with empty choices when include_usage, then "data: [DONE]\n\n").
def _ollama(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "chatcmpl-417", "object": "chat.completion.chunk", "created": CREATED,
            "model": "qwen3:8b", "system_fingerprint": "fp_ollama",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def ollama_thinking_then_cut(thinking: list[str]) -> Frames:
    """A thinking model that used up num_predict while still thinking (done_reason "length")."""
    frames = [data(_ollama({"role": "assistant", "reasoning": thinking[0]}))]
    frames += [data(_ollama({"reasoning": t})) for t in thinking[1:]]
    frames += [data(_ollama({}, "length")), DONE]
    return frames


def ollama_tool_call(name: str, arguments: dict[str, Any]) -> Frames:
    return [
        data(_ollama({"role": "assistant", "reasoning": "The user wants it saved."})),
        data(_ollama({"tool_calls": [{"id": "call_k3v9x2", "index": 0, "type": "function",
                                      "function": {"name": name, "arguments": json.dumps(arguments)}}]})),
        data(_ollama({}, "tool_calls")), DONE,
    ]


# ---------------------------------------------------------------- vLLM
# Source: github.com/vllm-project/vllm vllm/entrypoints/openai/serving_engine.py
# (create_streaming_error_response: json.dumps(ErrorResponse(object="error", message, type,
# param, code).model_dump()) -- the flat shape of vLLM 0.4-0.10, newer releases nest it under
# "error") and serving_chat.py (chat_completion_stream_generator: on an exception
# 'yield f"data: {data}\n\n"' then 'yield "data: [DONE]\n\n"'). Reasoning parsers stream
# ``reasoning_content`` (docs.vllm.ai/en/latest/features/reasoning_outputs.html).
def _vllm(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "chatcmpl-9f1c0e", "object": "chat.completion.chunk", "created": CREATED,
            "model": "Qwen/Qwen3-8B", "choices": [{"index": 0, "delta": delta, "logprobs": None,
                                                  "finish_reason": finish}]}


def vllm_error_mid_stream(words: list[str], message: str) -> Frames:
    frames = [data(_vllm({"role": "assistant", "content": ""}))]
    frames += [data(_vllm({"content": w})) for w in words]
    frames.append(data({"object": "error", "message": message, "type": "BadRequestError",
                        "param": None, "code": 400}))
    frames.append(DONE)
    return frames


def vllm_reasoning_reply(thinking: list[str], words: list[str]) -> Frames:
    frames = [data(_vllm({"role": "assistant", "content": ""}))]
    frames += [data(_vllm({"reasoning_content": t})) for t in thinking]
    frames += [data(_vllm({"content": w})) for w in words]
    frames += [data(_vllm({}, "stop")), DONE]
    return frames


# ---------------------------------------------------------------- llama.cpp server
# Source: github.com/ggml-org/llama.cpp tools/server/server-common.cpp (format_oai_sse:
# "data: " + json + "\n\n"; format_error_response: {code, message, type}); builds before the
# move to format_oai_sse wrote a mid-stream failure as an SSE line "error: {...}" (tools/server/
# server.cpp handle_completions_impl) -- a field the SSE spec says to ignore, so the stream just
# ends. First chunk: delta {"role":"assistant","content":null}; the last has "timings".
def _llamacpp(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"choices": [{"finish_reason": finish, "index": 0, "delta": delta}], "created": CREATED,
            "id": "chatcmpl-Xb4mQ", "model": "gpt-3.5-turbo", "system_fingerprint": "b6100-7f6aa4a",
            "object": "chat.completion.chunk", **extra}


def llamacpp_error_line(words: list[str]) -> Frames:
    frames = [data(_llamacpp({"role": "assistant", "content": None}))]
    frames += [data(_llamacpp({"content": w})) for w in words]
    error = {"code": 500, "message": "the request exceeds the available context size",
             "type": "exceed_context_size_error"}
    frames.append(f"error: {json.dumps(error)}\n\n".encode())
    return frames


def llamacpp_reasoning_reply(thinking: list[str], words: list[str]) -> Frames:
    frames = [data(_llamacpp({"role": "assistant", "content": None}))]
    frames += [data(_llamacpp({"reasoning_content": t})) for t in thinking]
    frames += [data(_llamacpp({"content": w})) for w in words]
    frames.append(data(_llamacpp({}, "stop", timings={"prompt_n": 12, "predicted_n": 9})))
    frames.append(DONE)
    return frames


# ---------------------------------------------------------------- LM Studio
# Source: https://lmstudio.ai/docs/developer/openai-compat/chat-completions and the LM Studio
# 0.3.23 release notes (reasoning is returned separately in ``delta.reasoning`` for the
# OpenAI-compatible endpoint); chunks carry "system_fingerprint" = the model key.
def _lmstudio(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "chatcmpl-lms8kq2", "object": "chat.completion.chunk", "created": CREATED,
            "model": "openai/gpt-oss-20b", "system_fingerprint": "openai/gpt-oss-20b",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}


def lmstudio_thinking_only(thinking: list[str]) -> Frames:
    """max_tokens reached inside the thinking: no answer text at all, finish "length"."""
    frames = [data(_lmstudio({"role": "assistant"}))]
    frames += [data(_lmstudio({"reasoning": t})) for t in thinking]
    frames += [data(_lmstudio({}, "length")), DONE]
    return frames


# ---------------------------------------------------------------- OpenRouter
# Source: https://openrouter.ai/docs/api-reference/streaming (": OPENROUTER PROCESSING" comments;
# "Handling Errors During Streaming": an error after tokens were sent arrives as a data event
# with a top-level "error" {code, message} and a choice with finish_reason "error") and
# https://openrouter.ai/docs/use-cases/reasoning-tokens (``delta.reasoning``).
def _openrouter(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"id": "gen-1764000000-abcdef", "provider": "Google", "model": "google/gemini-2.5-flash",
            "object": "chat.completion.chunk", "created": CREATED,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish,
                         "native_finish_reason": finish}], **extra}


def openrouter_error_mid_stream(words: list[str], message: str) -> Frames:
    frames = [comment("OPENROUTER PROCESSING"), comment("OPENROUTER PROCESSING")]
    frames.append(data(_openrouter({"role": "assistant", "content": "", "reasoning": "Planning."})))
    frames += [data(_openrouter({"role": "assistant", "content": w})) for w in words]
    frames.append(data(_openrouter({"content": ""}, "error",
                                   error={"code": "server_error", "message": message})))
    frames.append(DONE)
    return frames


# Source: https://openrouter.ai/docs/use-cases/reasoning-tokens ("reasoning_details array
# structure": items {type: reasoning.summary|reasoning.encrypted|reasoning.text, id, format, index,
# text|summary|data, signature}; streamed as ``delta.reasoning_details`` next to ``delta.reasoning``;
# "Preserving reasoning blocks": with tool calls, pass the assistant message's reasoning_details
# back unmodified, or models such as Gemini 3 and Claude reject the next request).
OPENROUTER_DETAILS = [
    {"type": "reasoning.text", "text": "Look it up first.", "signature": "sig-EqQBCkgIARABGAIiQ", "id": None,
     "format": "anthropic-claude-v1", "index": 0},
    {"type": "reasoning.encrypted", "data": "gAAAAABo3Yk8zq1", "id": "rs_0a1b2c", "format": "openai-responses-v1",
     "index": 1},
]


def openrouter_reasoning_tool_call(name: str, arguments: dict[str, Any]) -> Frames:
    text, encrypted = OPENROUTER_DETAILS
    return [
        comment("OPENROUTER PROCESSING"),
        data(_openrouter({"role": "assistant", "content": "", "reasoning": "Look it",
                          "reasoning_details": [{"type": "reasoning.text", "text": "Look it", "id": None,
                                                 "format": "anthropic-claude-v1", "index": 0}]})),
        data(_openrouter({"role": "assistant", "content": "", "reasoning": " up first.",
                          "reasoning_details": [{"type": "reasoning.text", "text": " up first.",
                                                 "signature": text["signature"], "id": None,
                                                 "format": "anthropic-claude-v1", "index": 0}]})),
        data(_openrouter({"role": "assistant", "content": "", "reasoning_details": [encrypted]})),
        data(_openrouter({"role": "assistant", "content": "", "tool_calls": [
            {"index": 0, "id": "toolu_01Aq", "type": "function",
             "function": {"name": name, "arguments": json.dumps(arguments)}}]})),
        data(_openrouter({"role": "assistant", "content": ""}, "tool_calls")), DONE,
    ]


def openrouter_checks(body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
    for message in body.get("messages") or []:
        if message.get("role") == "assistant" and message.get("tool_calls") \
                and message.get("reasoning_details") != OPENROUTER_DETAILS:
            return 400, {"error": {"code": 400, "message": "messages.1.content.0.type: Expected `thinking` or "
                                   "`redacted_thinking`, but found `tool_use`. When `thinking` is enabled, "
                                   "a final `assistant` message must start with a thinking block"}}
    return None


# ---------------------------------------------------------------- DeepSeek
# Source: https://api-docs.deepseek.com/guides/thinking_mode ("reasoning_content" at the level of
# "content"; for turns that made tool calls, reasoning_content "must be fully passed back to the
# API in all subsequent requests" or the API returns 400) and
# https://api-docs.deepseek.com/api/create-chat-completion (": keep-alive" comments while the
# request waits; usage on the last chunk).
def _deepseek(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"id": "3f4c1d2e-0b6a-4b8e-9c1d-2e3f4a5b6c7d", "object": "chat.completion.chunk",
            "created": CREATED, "model": "deepseek-chat", "system_fingerprint": "fp_ffc7281d48_prod0820",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}], **extra}


def deepseek_thinking_tool_call(thinking: list[str], name: str, arguments: dict[str, Any]) -> Frames:
    args = json.dumps(arguments)
    frames = [comment("keep-alive"),
              data(_deepseek({"role": "assistant", "content": None, "reasoning_content": ""}))]
    frames += [data(_deepseek({"content": None, "reasoning_content": t})) for t in thinking]
    frames.append(data(_deepseek({"content": None, "reasoning_content": None, "tool_calls": [
        {"index": 0, "id": "call_00_pLq9sYc", "type": "function", "function": {"name": name, "arguments": ""}}]})))
    frames += [data(_deepseek({"tool_calls": [{"index": 0, "function": {"arguments": args[i:i + 8]}}]}))
               for i in range(0, len(args), 8)]
    frames.append(data(_deepseek({"content": "", "reasoning_content": None}, "tool_calls",
                                 usage={"prompt_tokens": 120, "completion_tokens": 42, "total_tokens": 162})))
    frames.append(DONE)
    return frames


def deepseek_text(words: list[str]) -> Frames:
    frames = [data(_deepseek({"role": "assistant", "content": ""}))]
    frames += [data(_deepseek({"content": w})) for w in words]
    frames += [data(_deepseek({"content": ""}, "stop")), DONE]
    return frames


def deepseek_checks(body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
    for message in body.get("messages") or []:
        if message.get("role") == "assistant" and message.get("tool_calls") \
                and not message.get("reasoning_content"):
            return 400, {"error": {"message": "Missing `reasoning_content` field in the assistant message "
                                              "at message index 2. For more information, please refer to "
                                              "https://api-docs.deepseek.com/guides/thinking_mode#tool-calls",
                                   "type": "invalid_request_error", "param": None, "code": "invalid_request_error"}}
    return None


# ---------------------------------------------------------------- Gemini (OpenAI compatibility)
# Source: https://ai.google.dev/gemini-api/docs/openai (base_url .../v1beta/openai/) and
# https://ai.google.dev/gemini-api/docs/thought-signatures (OpenAI compatibility: the signature
# is in tool_calls[].extra_content.google.thought_signature and must be returned; the first
# function call of a step carries it; missing it is a 400). Observed stream shape -- tool-call
# deltas without "index", one whole call per chunk, finish_reason "stop" -- as captured in
# github.com/open-webui/computer/issues/224 and github.com/noho/dayu-agent/issues/45.
def _gemini(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"choices": [{"delta": delta, "finish_reason": finish, "index": 0}], "created": CREATED,
            "id": "Hx0kaPqBLYz9nvgPp5mG8Qo", "model": "gemini-3-pro-preview",
            "object": "chat.completion.chunk"}


GEMINI_SIGNATURE = "EjQKMgEMOdbHJChLX75QUCJjyYlm+/1tCznFUukUOu1W4lxyN6jrK+3EkP=="


def gemini_parallel_calls(calls: list[tuple[str, dict[str, Any]]]) -> Frames:
    frames = []
    for n, (name, arguments) in enumerate(calls):
        call: dict[str, Any] = {"function": {"arguments": json.dumps(arguments), "name": name},
                                "id": f"function-call-{1000 + n}", "type": "function"}
        if n == 0:
            call["extra_content"] = {"google": {"thought_signature": GEMINI_SIGNATURE}}
        frames.append(data(_gemini({"role": "assistant", "tool_calls": [call]})))
    frames += [data(_gemini({"role": "assistant"}, "stop")), DONE]
    return frames


def gemini_split_calls() -> Frames:
    """The other shapes reported for Gemini's compat stream: every call at ``index`` 0 with its own id
    (github.com/NousResearch/hermes-agent/issues/62937), arguments split over index-less deltas and
    the signature in a metadata-only delta after its call (github.com/open-webui/computer/issues/224)."""
    return [
        data(_gemini({"role": "assistant", "tool_calls": [
            {"index": 0, "id": "function-call-2000", "type": "function",
             "function": {"name": "recall", "arguments": '{"query"'}}]})),
        data(_gemini({"tool_calls": [{"function": {"arguments": ': "tea"}'}}]})),
        data(_gemini({"tool_calls": [{"extra_content": {"google": {"thought_signature": GEMINI_SIGNATURE}}}]})),
        data(_gemini({"tool_calls": [{"index": 0, "id": "function-call-2001", "type": "function",
                                      "function": {"name": "search_history",
                                                   "arguments": '{"query": "coffee"}'}}]})),
        data(_gemini({"role": "assistant"}, "stop")), DONE,
    ]


def gemini_text(words: list[str]) -> Frames:
    frames = [data(_gemini({"content": w, "role": "assistant"})) for w in words]
    frames += [data(_gemini({"role": "assistant"}, "stop")), DONE]
    return frames


def gemini_checks(body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
    for message in body.get("messages") or []:
        calls = message.get("tool_calls") or []
        if message.get("role") == "assistant" and calls:
            signature = ((calls[0].get("extra_content") or {}).get("google") or {}).get("thought_signature")
            if signature != GEMINI_SIGNATURE:
                return 400, [{"error": {"code": 400, "status": "INVALID_ARGUMENT",
                                        "message": "Function call is missing a thought_signature in "
                                                   "functionCall parts."}}]  # type: ignore[return-value]
    return None


# ---------------------------------------------------------------- Groq
# Source: https://console.groq.com/docs/reasoning (reasoning_format "parsed": the thinking is in
# ``reasoning``, separate from content) and https://console.groq.com/docs/api-reference
# (the last chunk carries "x_groq": {"id", "usage": {...}}).
def _groq(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"id": "chatcmpl-7c1d2e3f", "object": "chat.completion.chunk", "created": CREATED,
            "model": "qwen/qwen3-32b", "system_fingerprint": "fp_5b8fd3a7f1",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
            "x_groq": {"id": "req_01k0abc"}, **extra}


def groq_reasoning_reply(thinking: list[str], words: list[str]) -> Frames:
    frames = [data(_groq({"role": "assistant", "content": ""}))]
    frames += [data(_groq({"reasoning": t})) for t in thinking]
    frames += [data(_groq({"content": w})) for w in words]
    last = _groq({}, "stop")
    last["x_groq"] = {"id": "req_01k0abc", "usage": {"prompt_tokens": 40, "completion_tokens": 25,
                                                     "total_tokens": 65}}
    frames += [data(last), DONE]
    return frames


# ---------------------------------------------------------------- Mistral
# Source: https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post
# (streamed CompletionChunk; finish_reason "stop" | "length" | "model_length" | "error" |
# "tool_calls"; tool calls arrive whole, with index) and github.com/mistralai/client-python
# src/mistralai/models/completionresponsestreamchoice.py.
def _mistral(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"id": "cmpl-e5cc70bb28c444948073e77776eb30ef", "object": "chat.completion.chunk",
            "created": CREATED, "model": "mistral-small-latest",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **extra}


def mistral_model_length(words: list[str]) -> Frames:
    frames = [data(_mistral({"role": "assistant", "content": ""}))]
    frames += [data(_mistral({"content": w})) for w in words]
    frames += [data(_mistral({"content": ""}, "model_length",
                             usage={"prompt_tokens": 31990, "total_tokens": 32000, "completion_tokens": 10})),
               DONE]
    return frames


def mistral_tool_call(name: str, arguments: dict[str, Any]) -> Frames:
    return [data(_mistral({"role": "assistant", "content": ""})),
            data(_mistral({"tool_calls": [{"id": "D681PevKs", "function": {"name": name, "arguments":
                                                                          json.dumps(arguments)},
                                           "index": 0}]}, "tool_calls")),
            DONE]


# Source: https://docs.mistral.ai/capabilities/reasoning/ (Magistral: the message content is a list
# of chunks, {"type": "thinking", "thinking": [{"type": "text", "text": ...}]} then
# {"type": "text", "text": ...}; streamed the same way in ``delta.content``), as also handled in
# github.com/prism-php/prism/pull/862 and reported in braintrustdata/braintrust-sdk-javascript#1857.
def mistral_magistral(thinking: list[str], words: list[str]) -> Frames:
    frames = [data(_mistral({"role": "assistant", "content": ""}))]
    frames += [data(_mistral({"content": [{"type": "thinking", "thinking": [{"type": "text", "text": t}]}]}))
               for t in thinking]
    frames += [data(_mistral({"content": [{"type": "text", "text": w}]})) for w in words]
    frames += [data(_mistral({"content": ""}, "stop")), DONE]
    return frames


# ---------------------------------------------------------------- LiteLLM proxy
# Source: github.com/BerriAI/litellm litellm/proxy/proxy_server.py (async_data_generator: chunks
# as "data: {chunk.model_dump_json(exclude_none=True)}\n\n"; on an exception mid-stream it yields
# 'data: {json.dumps({"error": {message, type, param, code}})}\n\n'; chunks carry
# "provider_specific_fields" and reasoning as "reasoning_content").
def _litellm(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "chatcmpl-0d8a7e2b", "created": CREATED, "model": "claude-sonnet-4",
            "object": "chat.completion.chunk", "system_fingerprint": None,
            "choices": [{"index": 0, "delta": {**delta, "provider_specific_fields": None},
                         "finish_reason": finish}]}


def litellm_error_mid_stream(words: list[str], message: str) -> Frames:
    frames = [data(_litellm({"role": "assistant", "reasoning_content": "Let me look."}))]
    frames += [data(_litellm({"content": w})) for w in words]
    frames.append(data({"error": {"message": message, "type": "None", "param": "None", "code": "500"}}))
    return frames


def litellm_text(words: list[str]) -> Frames:
    frames = [data(_litellm({"role": "assistant", "content": w})) for w in words]
    frames += [data(_litellm({}, "stop")), DONE]
    return frames


# ---------------------------------------------------------------- not a stream / framing
# Source: https://html.spec.whatwg.org/multipage/server-sent-events.html (comments, CRLF,
# "data:" with or without a space) and openai-python src/openai/_streaming.py (an SSE decoder:
# a JSON or HTML body holds no "data:" line, so iteration ends with no chunk and no error).
HTML_PAGE = (b"<!DOCTYPE html><html><head><title>Open WebUI</title></head>"
             b"<body><div id=\"app\"></div></body></html>")
JSON_ERROR = json.dumps({"error": {"message": "model 'llama3' not found, try pulling it first",
                                   "type": "api_error", "param": None, "code": None}}).encode()
# a server that ignores "stream": true (some gateways) answers one chat.completion
JSON_COMPLETION = json.dumps({"id": "chatcmpl-whole", "object": "chat.completion", "created": CREATED,
                              "model": "gpt-4o-mini", "choices": [{"index": 0, "message": {
                                  "role": "assistant", "content": "A whole answer at once."},
                                  "finish_reason": "stop"}],
                              "usage": {"prompt_tokens": 9, "completion_tokens": 5, "total_tokens": 14}}).encode()


def framing_quirks(words: list[str]) -> Frames:
    """CRLF line ends, "data:" without a space, comments, an empty-choices usage chunk."""
    frames = [comment("ping"), data(_chunk({"role": "assistant", "content": ""}), crlf=True)]
    frames += [data(_chunk({"content": w}), space=False, crlf=i % 2 == 0) for i, w in enumerate(words)]
    frames += [data(_chunk({}, "stop"), crlf=True), data(_usage_chunk(), space=False), DONE]
    return frames
