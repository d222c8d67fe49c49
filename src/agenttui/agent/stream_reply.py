"""One streamed completion, folded chunk by chunk, and whether the provider finished it.

The agent loop feeds every ``ChatCompletionChunk`` of a call to
:meth:`StreamedReply.absorb` and asks :meth:`StreamedReply.verdict` at the end.

**A reply is complete only when the provider said so**: a finish reason of
``stop`` or ``tool_calls`` (or a synonym some servers use: ``eos_token``,
``stop_sequence``, ``end_turn``, ``function_call``). Anything else -- ``length``,
``content_filter``, ``error``, an unknown reason, no finish reason at all (the
stream just ended), a reply with neither text nor tool calls -- gets a reason in
words from :meth:`verdict`; the loop keeps what arrived, marks it incomplete,
never runs its tool calls and ends the turn with that reason.

Provider quirks handled here (see tests/unit/providers/ for each format and its source):

* Tool-call deltas without ``index`` (Gemini's OpenAI-compatible API) or with the
  same ``index`` for parallel calls: a delta carrying a *different* ``id`` starts a
  new call; one without ``id`` continues the latest call (arguments split over
  several deltas, or a metadata-only delta with ``extra_content``).
* Extra fields on a tool-call delta (Gemini 3's ``extra_content.google.thought_signature``)
  are kept on the call and sent back unchanged.
* Reasoning arrives as ``reasoning_content`` (DeepSeek, vLLM, llama.cpp, LiteLLM),
  ``reasoning`` (OpenRouter, Ollama, Groq, LM Studio, newer vLLM) or as
  ``thinking`` parts of a content *list* (Mistral's Magistral; its text parts
  are the reply). DeepSeek's
  thinking mode requires ``reasoning_content`` back on assistant tool-call
  messages, so it is kept as a provider field exactly there.
* OpenRouter's ``reasoning_details`` (encrypted or signed reasoning of Gemini 3,
  Claude, o-series models) are merged per ``index`` and sent back unchanged on
  assistant tool-call messages, as OpenRouter asks ("preserving reasoning blocks").
* A chunk ``{"object": "error", "message": ...}`` (vLLM's mid-stream error; the
  ``openai`` client only raises for ``{"error": ...}``) raises :class:`StreamProblem`.
* Azure's ``content_filter_results`` name the filtered categories in the reason.
* Usage from ``usage`` or Groq's ``x_groq.usage``; the last one of a stream counts (a
  server sending running totals on every chunk, as vLLM's ``continuous_usage_stats``,
  is not added up). Cached prompt tokens from ``prompt_tokens_details.cached_tokens``
  (DeepSeek: ``prompt_cache_hit_tokens``), thinking from
  ``completion_tokens_details.reasoning_tokens``; the answering model from ``model``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agenttui.core.well_formed import has_surrogates, well_formed

COMPLETE = frozenset({"stop", "tool_calls", "function_call", "eos", "eos_token",
                      "stop_sequence", "end_turn"})
LIMIT = frozenset({"length", "max_tokens", "model_length"})
FILTERED = frozenset({"content_filter", "safety", "recitation", "blocklist",
                      "prohibited_content", "spii", "refusal"})
REASONING_FIELDS = ("reasoning_content", "reasoning")
_CALL_KEYS = frozenset({"index", "id", "type", "function"})


class StreamProblem(Exception):
    """The endpoint's answer is not a usable stream; the message says why, in words."""


@dataclass
class CallSlot:
    id: str = ""
    name: str = ""
    arguments: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "name": self.name, "arguments": self.arguments}
        if self.extra:
            data["extra"] = self.extra
        return data


@dataclass
class StreamedReply:
    """What one streamed completion produced so far."""

    text: str = ""
    reasoning: str = ""
    reasoning_field: str | None = None  # which delta field carried it
    calls: list[CallSlot] = field(default_factory=list)
    finish_reason: str | None = None
    chunks: int = 0
    emitted: bool = False  # output reached the caller: no transparent retry any more
    filtered: list[str] = field(default_factory=list)  # Azure content-filter categories
    details: dict[int, dict[str, Any]] = field(default_factory=dict)  # OpenRouter reasoning_details
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    reasoning_tokens: int = 0
    usage_seen: bool = False  # the provider sent counts (else the message's are estimated)
    model: str = ""  # the model the provider says answered (may differ from the one asked)
    _by_index: dict[int, CallSlot] = field(default_factory=dict)
    _held: dict[str, str] = field(default_factory=dict)  # a pair's first half, per field (_joined)

    # ------------------------------------------------------------ folding
    def absorb(self, chunk: Any) -> tuple[str, str]:
        """Fold one chunk in; return its (text, reasoning) for the caller to show."""
        self.chunks += 1
        extra = getattr(chunk, "model_extra", None) or {}
        if getattr(chunk, "object", None) == "error" or (
                getattr(chunk, "choices", None) is None and isinstance(extra.get("message"), str)):
            raise StreamProblem(f"The endpoint reported an error mid-stream: {_error_text(chunk, extra)}")
        self._count_usage(chunk, extra)
        model = getattr(chunk, "model", None)
        if isinstance(model, str) and model:
            self.model = model
        text = reasoning = ""
        for choice in getattr(chunk, "choices", None) or ():
            delta = getattr(choice, "delta", None)
            if delta is not None:
                content = getattr(delta, "content", None)
                if isinstance(content, list):  # Mistral's Magistral: typed chunks
                    more, thought = _content_parts(content)
                    text += more
                    reasoning += thought
                    self.reasoning_field = self.reasoning_field or ("thinking" if thought else None)
                else:
                    text += content or ""
                # OpenAI streams a refusal in its own field: it is the reply the user must see
                text += getattr(delta, "refusal", None) or ""
                reasoning += self._reasoning(delta)
                for part in getattr(delta, "tool_calls", None) or ():
                    self._fold_call(part)
            choice_extra = getattr(choice, "model_extra", None) or {}
            self._note_filter(choice_extra.get("content_filter_results"))
            if getattr(choice, "finish_reason", None):
                self.finish_reason = choice.finish_reason
        text, reasoning = self._joined("text", text), self._joined("reasoning", reasoning)
        self.text += text
        self.reasoning += reasoning
        return text, reasoning

    def _joined(self, name: str, piece: str) -> str:
        """``piece`` well-formed: a provider that cuts text by UTF-16 units sends an emoji's
        ``\\ud83d`` in one chunk and its ``\\ude00`` in the next. A first half at the end waits
        for the next chunk (one the stream ends on is dropped); a half without its partner is
        U+FFFD. Kept as they came, the halves were shown as escapes and failed the save."""
        held = self._held.pop(name, "")
        if not held and not has_surrogates(piece):
            return piece
        piece = held + piece
        if piece and "\ud800" <= piece[-1] <= "\udbff":
            piece, self._held[name] = piece[:-1], piece[-1]
        return well_formed(piece)

    def _reasoning(self, delta: Any) -> str:
        extra = getattr(delta, "model_extra", None) or {}
        shown = self._fold_details(extra.get("reasoning_details"))
        for name in REASONING_FIELDS:
            value = extra.get(name)
            if isinstance(value, str) and value:
                self.reasoning_field = self.reasoning_field or name
                return value
        return shown  # OpenRouter without a plain ``reasoning`` field: the details' text

    def _fold_details(self, items: Any) -> str:
        """OpenRouter's ``reasoning_details`` deltas, merged per ``index``: text pieces
        concatenated, other fields (``data``, ``signature``, ``id``) as they arrive."""
        text = ""
        for item in items if isinstance(items, list) else ():
            if not isinstance(item, dict):
                continue
            slot = self.details.setdefault(int(item.get("index") or 0), {})
            for key, value in item.items():
                if key in ("text", "summary") and isinstance(value, str):
                    slot[key] = slot.get(key, "") + value
                    text += value
                elif value is not None or key not in slot:  # keys kept as sent, nulls too
                    slot[key] = value
        return text

    def _fold_call(self, part: Any) -> None:
        index = getattr(part, "index", None)
        call_id = getattr(part, "id", None) or ""
        slot = self._by_index.get(index) if index is not None else (self.calls[-1] if self.calls else None)
        if slot is None or (call_id and slot.id and call_id != slot.id):
            slot = CallSlot()  # a new call: first delta of an index, or another id (parallel calls)
            self.calls.append(slot)
        if index is not None:
            self._by_index[index] = slot
        if call_id:
            slot.id = call_id
        function = getattr(part, "function", None)
        if function is not None:
            if getattr(function, "name", None):
                slot.name += function.name
            if getattr(function, "arguments", None):
                slot.arguments += function.arguments
        for key, value in (getattr(part, "model_extra", None) or {}).items():
            if key not in _CALL_KEYS and value is not None:
                slot.extra[key] = value

    def _note_filter(self, results: Any) -> None:
        if isinstance(results, dict):
            for category, verdict in results.items():
                if isinstance(verdict, dict) and verdict.get("filtered") and category not in self.filtered:
                    self.filtered.append(category)

    def _count_usage(self, chunk: Any, extra: dict[str, Any]) -> None:
        usage = getattr(chunk, "usage", None)
        if usage is None and isinstance(extra.get("x_groq"), dict):
            usage = extra["x_groq"].get("usage")
        if usage is None:
            return
        self.usage_seen = True
        self.prompt_tokens = _count(usage, "prompt_tokens")
        self.completion_tokens = _count(usage, "completion_tokens")
        self.cached_tokens = (_count(_field(usage, "prompt_tokens_details"), "cached_tokens")
                              or _count(usage, "prompt_cache_hit_tokens"))
        self.reasoning_tokens = _count(_field(usage, "completion_tokens_details"), "reasoning_tokens")

    # ------------------------------------------------------------ outcome
    @property
    def complete(self) -> bool:
        return self.verdict() is None

    def verdict(self) -> str | None:
        """None when the provider finished the reply; otherwise why not, in words."""
        reason = self.finish_reason
        named = [c.name or "?" for c in self.calls]
        if reason in COMPLETE:
            if not self.text.strip() and not self.calls:
                return (f"The model finished without writing anything (finish_reason \"{reason}\")"
                        + (" after only thinking." if self.reasoning else "."))
            return None
        if reason is None:
            if not self.chunks:
                return "The endpoint ended the stream without sending anything."
            return ("The stream ended before the model finished (no finish reason was sent): "
                    "the reply may be cut short.")
        if reason in LIMIT:
            if self.calls:
                return (f"The reply hit the output token limit (finish_reason \"{reason}\") while "
                        f"writing a call to {', '.join(f'`{n}`' for n in named)}; it was not run.")
            if not self.text.strip() and self.reasoning:
                return (f"The model spent its whole output budget thinking (finish_reason \"{reason}\") "
                        "and wrote no answer: raise the model's max_tokens or ask for less.")
            return f"The reply was cut off at the output token limit (finish_reason \"{reason}\")."
        if reason in FILTERED:
            what = f": {', '.join(self.filtered)}" if self.filtered else ""
            return f"The provider's content filter stopped the reply (finish_reason \"{reason}\"{what})."
        if reason == "error":
            return "The provider reported an error mid-reply (finish_reason \"error\")."
        return f"The reply ended with an unexpected finish reason \"{reason}\"."

    def complete_calls(self) -> list[dict[str, Any]]:
        """The tool calls as ``{id, name, arguments, extra}`` (named ones only)."""
        return [slot.as_dict() for slot in self.calls if slot.name]

    def provider_fields(self) -> dict[str, Any]:
        """Assistant-message fields the provider needs back (see module doc)."""
        fields: dict[str, Any] = {}
        if self.calls and self.reasoning_field == "reasoning_content" and self.reasoning:
            fields["reasoning_content"] = self.reasoning  # DeepSeek thinking mode
        if self.calls and self.details:  # OpenRouter: "preserving reasoning blocks"
            fields["reasoning_details"] = [self.details[i] for i in sorted(self.details)]
        return fields


def _content_parts(parts: list[Any]) -> tuple[str, str]:
    """(text, thinking) of a content list: ``{"type": "text", "text"}`` and
    ``{"type": "thinking", "thinking": [{"type": "text", "text"}]}`` (Mistral reasoning models)."""
    text = thinking = ""
    for part in parts:
        part = part if isinstance(part, dict) else getattr(part, "model_dump", lambda: {})()
        if part.get("type") == "text" and isinstance(part.get("text"), str):
            text += part["text"]
        elif part.get("type") == "thinking":
            inner = part.get("thinking")
            if isinstance(inner, str):
                thinking += inner
            for piece in inner if isinstance(inner, list) else ():
                if isinstance(piece, dict) and isinstance(piece.get("text"), str):
                    thinking += piece["text"]
    return text, thinking


def _error_text(chunk: Any, extra: dict[str, Any]) -> str:
    message = extra.get("message") or getattr(chunk, "message", None) or "unknown error"
    kind = extra.get("type")
    code = extra.get("code")
    detail = ", ".join(str(x) for x in (kind, code) if x)
    return f"{message} ({detail})" if detail else str(message)


def completion_as_chunk(payload: dict[str, Any]) -> dict[str, Any]:
    """A non-streamed ``chat.completion`` rewritten as one chunk (servers that ignore ``stream``)."""
    choices = []
    for choice in payload.get("choices") or ():
        message = choice.get("message") or {}
        delta: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
        for name in REASONING_FIELDS:
            if message.get(name):
                delta[name] = message[name]
        calls = message.get("tool_calls") or []
        if calls:
            delta["tool_calls"] = [{**call, "index": i} for i, call in enumerate(calls)]
        choices.append({"index": choice.get("index", 0), "delta": delta,
                        "finish_reason": choice.get("finish_reason")})
    return {"id": payload.get("id", ""), "object": "chat.completion.chunk",
            "created": payload.get("created", 0), "model": payload.get("model", ""),
            "choices": choices, "usage": payload.get("usage")}


def not_a_stream(content_type: str, body: bytes) -> dict[str, Any]:
    """A 200 answer that is not SSE: a whole completion as one chunk, or StreamProblem saying what it is."""
    text = body.decode("utf-8", "replace").strip()
    if "html" in content_type or text[:15].lower().startswith(("<!doctype", "<html")):
        import re

        title = re.search(r"<title[^>]*>(.*?)</title>", text, re.I | re.S)
        name = f" ({' '.join(title.group(1).split())[:80]!r})" if title else ""
        raise StreamProblem(
            f"The endpoint answered with an HTML page{name} instead of an event stream: check "
            "base_url (OpenAI-compatible endpoints usually end in /v1).")
    try:
        payload = json.loads(text)
    except ValueError:
        raise StreamProblem(f"The endpoint answered {content_type or 'without a content type'} "
                            f"instead of an event stream: {text[:200]!r}") from None
    if isinstance(payload, dict) and payload.get("error"):
        error = payload["error"]
        message = error.get("message") if isinstance(error, dict) else error
        raise StreamProblem(f"The endpoint answered with an error instead of a stream: {message}")
    if isinstance(payload, dict) and isinstance(payload.get("choices"), list) and payload["choices"] \
            and isinstance(payload["choices"][0], dict) and "message" in payload["choices"][0]:
        return completion_as_chunk(payload)
    raise StreamProblem(f"The endpoint answered with JSON that is not a chat completion instead of "
                        f"an event stream: {text[:200]!r}")


def _field(obj: Any, key: str) -> Any:
    """``obj[key]`` or ``obj.key`` (usage arrives as a model or, from extras, a dict)."""
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(key)
    value = getattr(obj, key, None)
    if value is None:  # a field the openai types do not declare lands in model_extra
        value = (getattr(obj, "model_extra", None) or {}).get(key)
    return value


def _count(obj: Any, key: str) -> int:
    try:
        return max(0, int(_field(obj, key) or 0))
    except (TypeError, ValueError):
        return 0
