"""The agent loop (docs/agent.md, docs/security.md): one user turn as an async generator of events.

::

    async for event in run_turn(services, conversation_id, "hello"):
        ...   # TextDelta, ToolCallStarted, ApprovalRequested (resolve its future), ...

Signature::

    run_turn(services, conversation_id, text, *, image_path=None, model=None,
             approver_timeout=None, cancel=None, retry_of=None, edit_of=None,
             registry=None, client=None, retry_policy=None)

* ``image_path`` -- attach an image: stored on the user message, sent as
  an image content part.
* ``model`` -- overrides ``services.model`` for this turn (``ask --model``).
* ``approver_timeout`` -- seconds to wait for an approval answer; no answer
  counts as a denial. ``None`` waits for ever.
* ``cancel`` -- set it to stop the turn (Esc). Cancelling the consuming task
  (or closing the generator) also stops it; the partial reply is kept either
  way, but only the event path yields a final ``TurnFinished``.
* ``retry_of`` -- id of a user message already in history: answer it again
  instead of appending ``text`` (one key retries a failed turn, and regenerating
  a finished reply). The window then ends at that message; the new reply is
  stored as a *sibling* of the replies it had (a new branch, the old
  answers kept), and becomes the active branch once its first message is saved.
* ``edit_of`` -- id of a user message already in history: ``text`` is its
  edited version, stored as its sibling (a new branch from the same point; the
  old question and everything after it are kept), then answered.
* ``registry`` / ``client`` / ``retry_policy`` -- injection points (defaults:
  ``ToolRegistry(services)``, the cached ``openai.AsyncOpenAI``, settings).

Every turn ends with exactly one ``TurnFinished`` (stop reason ``success``,
``max_steps``, ``max_seconds`` or ``cancelled``) or ``TurnFailed``
(``llm_error``, ``tool_error``, ``incomplete``), both carrying the :class:`Trace`.

Decisions:

* **Persist first.** The user message is written (and redacted by the store)
  before the model is called. A failed write (disk full, locked database)
  yields ``PersistWarning``; the message stays queued in memory (per
  ``services``) and is written again before every later write, at turn end,
  at the next turn, or by :func:`flush_pending`.
* **Storage off the event loop.** Every write and read of a turn (SQLite
  appends that may wait ``busy_timeout`` on another process's lock, memory
  writes with fsync, context assembly) runs in a thread (``asyncio.to_thread``),
  so the UI keeps handling keys while the database is locked; the turn itself
  waits for its writes, in order. Only a turn torn down mid-way (its task
  cancelled, e.g. the app quitting) writes what it had synchronously.
* **The model sees what history holds.** The window is read back from the
  store, so it gets the redacted text, exactly as a later turn would.
* **History stays valid for the API.** Every persisted assistant tool-call
  message gets one tool result per call, whatever happens (denied, cancelled,
  step limit, crash): "orphaned" tool calls would make every later request
  fail.
* **Invalid tool-argument JSON** is not executed: the model gets an error tool
  result naming the tool (so it can correct itself on the next step) and the
  trace records a failed step. The raw arguments are kept as sent.
* **A reply is complete only when the provider said so** (the rules
  are :meth:`agenttui.agent.stream_reply.StreamedReply.verdict`): ``length``,
  ``content_filter``, no finish reason, an empty reply, ... end the turn with
  ``TurnFailed("incomplete", <why, in words>)``. Nothing it asked for runs.
* **Partial replies** (failure, cancel, deadline, unfinished) are persisted
  with ``incomplete=True`` and ``incomplete_reason``; text, thinking (with
  ``save_reasoning``) and half-streamed tool calls are kept, the calls as
  ``cut_tool_calls``: never sent back, never run. Nothing at all arrived:
  nothing is stored (no empty assistant message, ever).
* **The request never holds an empty assistant message**: histories written
  by earlier versions, which stored a reply even when nothing arrived, may;
  :mod:`agenttui.agent.wire_repair` fills them in.
* **Provider fields** the next request needs (Gemini's thought signature on a
  tool call, DeepSeek's ``reasoning_content`` and OpenRouter's
  ``reasoning_details`` on tool-call messages) are stored with the message
  and sent back unchanged; reasoning streams as ``ReasoningDelta`` and is
  otherwise neither stored (unless ``[history] save_reasoning``) nor sent.
* **Not a stream**: a 200 holding HTML or a JSON error fails the turn with
  what it is; a whole ``chat.completion`` (a server ignoring ``stream``) is
  taken as the reply.
* **Step limit**: a step is one LLM call. If the last allowed call still asks
  for tools, those calls are answered "not run: step limit reached" and the
  turn stops with ``max_steps``.
* **Retries** follow :mod:`agenttui.agent.retry` (429/5xx/connection errors,
  before any output of that call; Retry-After honoured) and are announced
  with :class:`~agenttui.agent.events.RetryScheduled`.
* **Tool crashes**: a tool that *reports* failure goes back to the model; an
  exception escaping the registry (a bug) is recorded as the call's result
  and stops the turn with ``tool_error``.

* **Memory use**: the items ``assemble`` injected get ``mark_used`` once
  per turn, in a thread (it rewrites and fsyncs the memory files). It starts
  once the first token has been handed out (or the first step ended without
  text), so it overlaps the rest of the stream instead of following it; the
  turn waits for it before its final event. The first token never waits.

Hooks: ``_after_user_message`` runs correction detection (offer, or save
with source ``correction``, per ``memory.corrections``); ``_after_reply`` is
the extraction point (calls ``agenttui.agent.extraction.extract_memory``
when ``memory.extraction`` is on).

The last request sent is kept for the prompt inspector:
:func:`agenttui.agent.prompt_capture.last_prompt(services)`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import sqlite3
import threading
import time
from collections import deque
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agenttui.agent import prompt_capture, request_options
from agenttui.agent.events import (
    AgentEvent,
    ApprovalRequested,
    MemoryChanged,
    PersistWarning,
    ReasoningDelta,
    RequestFallback,
    RetryScheduled,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    Trace,
    TraceStep,
    TurnFailed,
    TurnFinished,
    TurnStarted,
)
from agenttui.agent.retry import LLMFailure, RetryPolicy, classify, delay_for
from agenttui.agent.stream_reply import StreamedReply, not_a_stream
from agenttui.agent.wire_repair import repair_empty_replies
from agenttui.core.endpoint_state import EndpointMemory, Option, memory_for
from agenttui.core.models import Message, ToolCall, WriteResult, new_id
from agenttui.core.recall.usage import RecallUsage
from agenttui.core.usage.message_usage import MessageUsage

if TYPE_CHECKING:
    from agenttui.bootstrap import Services


class _Stop(Exception):
    """Internal: the turn must stop (cancel / deadline) -- carries the reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# ---------------------------------------------------------------- persistence
def _persist_errors() -> tuple[type[BaseException], ...]:
    from agenttui.core.history.store import HistoryWriteError  # here: core.history.store loads the redaction rules

    return (sqlite3.Error, OSError, HistoryWriteError)


def _pending(services: Services) -> deque[tuple[str, Message]]:
    return services.session.unsaved


_FLUSH_LOCK = threading.Lock()  # flushes run in worker threads: one at a time, in order


def flush_pending(services: Services) -> str | None:
    """Write queued messages in order; return a warning if some are still unsaved."""
    with _FLUSH_LOCK:
        return _flush(services)


def _flush(services: Services) -> str | None:
    from agenttui.core.history.store import UnknownConversationError

    queue = _pending(services)
    while queue:
        cid, message = queue[0]
        if message.usage is not None and message.id is None:
            from agenttui.core.usage.pricing import price_if_loaded

            message.usage.endpoint = message.usage.endpoint or services.base_url
            price_if_loaded(message.usage)  # else priced after the turn (price_pending)
        try:
            saved = services.history.append(cid, message)
        except _persist_errors() as exc:
            return (f"Could not save to history ({exc}); {len(queue)} message(s) are kept "
                    "in memory and will be saved on the next try.")
        except UnknownConversationError:  # deleted meanwhile: so is what belonged to it
            queue.popleft()  # (kept at the head, it would fail every later turn's writes)
            continue
        if saved is not None and getattr(saved, "id", None) is not None:
            message.id = saved.id
        queue.popleft()
    return None


def pending_count(services: Services) -> int:
    return len(_pending(services))


# ---------------------------------------------------------------- the client
def client_for(services: Services, api_key: str, loop: asyncio.AbstractEventLoop | None = None) -> Any:
    """One cached AsyncOpenAI per services (and event loop, endpoint, key, timeout).

    Callers that already looked the key up (``ask``) pass ``client=client_for(...)``
    to :func:`run_turn`, so the keyring is not asked twice before the first token.
    ``loop``: the loop the client will run on, for a caller in another thread
    (the TUI builds it in a worker thread before the first turn: agent/prepare.py).
    """
    from agenttui.agent.client import make_client

    timeout = float(services.settings.agent.request_timeout)
    signature = (services.base_url, api_key, timeout, id(loop or asyncio.get_running_loop()))
    cached = services.session.client
    if cached is not None and cached[0] == signature:
        return cached[1]
    client = make_client(services.base_url, api_key, timeout, max_retries=0)
    services.session.client = (signature, client)
    return client


async def aclose_client(services: Services) -> None:
    """Close the cached client (the CLI calls this before its event loop ends)."""
    cached = services.session.client
    if cached is not None:
        services.session.client = None
        with contextlib.suppress(Exception):
            await cached[1].close()


# ---------------------------------------------------------------- one LLM call
_Completion = StreamedReply  # what one streamed completion produced (agent/stream_reply.py)


def _tool_calls(completion: StreamedReply) -> list[ToolCall]:
    return [ToolCall(id=raw["id"] or f"call_{new_id()[:12]}", name=raw["name"],
                     arguments=raw["arguments"], extra=raw.get("extra") or {})
            for raw in completion.complete_calls()]


_END = object()
_STOP = object()


async def _produce(client: Any, params: dict[str, Any], queue: asyncio.Queue[Any]) -> None:
    """Background task: send the request, push chunks, then _END or the exception."""
    try:
        stream = await client.chat.completions.create(**params)
        response = getattr(stream, "response", None)
        kind = (response.headers.get("content-type") or "").lower() if response is not None else ""
        if response is not None and ("json" in kind or "html" in kind) and "event-stream" not in kind:
            # a 200 that is not SSE: the client would find no events in it and end quietly
            from openai.types.chat import ChatCompletionChunk

            whole = not_a_stream(kind, await response.aread())
            # model_construct(), as the client builds its chunks: nested models built, nothing validated
            # (a lenient server's extra or missing fields must not fail here)
            queue.put_nowait(ChatCompletionChunk.model_construct(**whole))
            queue.put_nowait(_END)
            return
        async for chunk in stream:
            queue.put_nowait(chunk)
        queue.put_nowait(_END)
    except asyncio.CancelledError:
        raise
    except BaseException as exc:  # noqa: BLE001 -- handed to the consumer
        queue.put_nowait(exc)


# ---------------------------------------------------------------- the turn
class _Turn:
    def __init__(self, services: Services, conversation_id: str, *, model: str | None,
                 cancel: asyncio.Event | None, approver_timeout: float | None,
                 registry: Any, client: Any, retry_policy: RetryPolicy | None) -> None:
        self.services = services
        self.settings = services.settings
        self.cid = conversation_id
        self.model = model or services.model
        self.cancel = cancel
        self.approver_timeout = approver_timeout
        self.registry = registry
        self.client = client
        agent = self.settings.agent
        self.policy = retry_policy or RetryPolicy(max_retries=int(agent.max_retries))
        self.trace = Trace(turn_id=new_id())
        self.started = time.monotonic()
        self.deadline = self.started + float(agent.max_seconds)
        self.open_calls: list[ToolCall] = []  # persisted tool calls still without a result
        self.running: ToolCall | None = None  # the open call executing now (a stop kills it mid-way)
        self.partial: Message | None = None
        self.reply: Message | None = None
        self.user: Message | None = None
        self.completion: _Completion | None = None  # the call in flight (not yet persisted)
        self.retry_of: int | None = None
        self.branch_from: int | None = None  # the first message this turn stores hangs here
        self.seen: int | None = None  # the last message the sender shows (run_turn's ``seen``)
        self.last_output = ""
        self._waited = 0.0
        self.usage: asyncio.Future[Any] | None = None  # the mark_used thread, once started
        self.sent: list[dict[str, Any]] = []  # the latest request's messages (for an estimate)
        self.now: datetime | None = None  # the prompt's "today" (a dry run's --now); None: the clock

    def record_memory_use(self) -> None:
        """Start ``mark_used`` for the injected items in a thread (once per turn)."""
        if self.usage is None and self.trace.memory_injected:
            self.usage = asyncio.ensure_future(asyncio.to_thread(
                self.services.memory.mark_used, list(self.trace.memory_injected)))

    # -------------------------------------------------------------- helpers
    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def queue(self, message: Message) -> None:
        """Queue ``message`` for writing (written by the next flush, in order)."""
        message.conversation_id = self.cid
        message.turn_id = self.trace.turn_id
        if self.branch_from is not None:  # a retry's reply / an edit: a sibling branch
            message.parent_id, self.branch_from = self.branch_from, None
        _pending(self.services).append((self.cid, message))

    async def persist(self, message: Message) -> PersistWarning | None:
        self.queue(message)
        # In a thread: the append may wait seconds on another process's lock.
        warning = await asyncio.to_thread(flush_pending, self.services)
        return PersistWarning(warning) if warning else None

    def finish_trace(self) -> Trace:
        self.trace.seconds = time.monotonic() - self.started
        return self.trace

    def close_open_calls(self, output: str, stopped: str = "") -> None:
        """Give every persisted tool call a result (keeps history valid for the API): ``output``
        for those never started, ``stopped`` for the one stopped while it ran (it may have done
        part of its work: "not run" would tell the model otherwise).

        Queued only: the turn ends next, and ``_end`` writes the queue (off the loop).
        """
        running = self.running.id if self.running is not None and stopped else None
        for call in self.open_calls:
            was_running = call.id == running
            self.queue(Message(role="tool", content=stopped if was_running else output, tool_call_id=call.id,
                               name=call.name, tool_status="stopped" if was_running else "not run"))
        self.open_calls = []
        self.running = None

    def keep_partial(self, completion: _Completion | None, reason: str) -> Message | None:
        """Persist what a reply the provider did not finish produced, marked incomplete with ``reason``.

        Text, thinking (with ``save_reasoning``) and half-written tool calls are kept;
        the calls only as ``cut_tool_calls``: never sent back, never run.
        """
        self.completion = None
        if completion is None or not (completion.text or completion.reasoning or completion.calls):
            return None
        message = Message(role="assistant", content=completion.text or None, incomplete=True,
                          incomplete_reason=reason, reasoning=self.saved_reasoning(completion),
                          cut_tool_calls=[slot.as_dict() for slot in completion.calls],
                          usage=self.usage_of(completion))
        self.queue(message)  # written by _end (or run_turn's finally), like close_open_calls
        self.partial = message
        return message

    def usage_of(self, completion: _Completion) -> MessageUsage:
        """The reply's model and tokens: the provider's counts, else our estimate (flagged)."""
        model = completion.model or self.model or ""
        if completion.usage_seen:
            return MessageUsage(model=model, prompt_tokens=completion.prompt_tokens,
                                completion_tokens=completion.completion_tokens,
                                cached_tokens=completion.cached_tokens,
                                reasoning_tokens=completion.reasoning_tokens)
        from agenttui.core.tokens import estimate_tokens, wire_tokens

        written = estimate_tokens(completion.text) + sum(
            estimate_tokens(slot.name) + estimate_tokens(slot.arguments) for slot in completion.calls)
        thought = estimate_tokens(completion.reasoning)
        return MessageUsage(model=model, prompt_tokens=wire_tokens(self.sent),
                            completion_tokens=written + thought, reasoning_tokens=thought, estimated=True)

    def saved_reasoning(self, completion: _Completion) -> str | None:
        """The thinking to store: only when ``[history] save_reasoning`` says so."""
        keep = getattr(self.settings.history, "save_reasoning", False)
        return completion.reasoning or None if keep else None

    async def wait(self, awaitable: Any) -> Any:
        """Await ``awaitable`` unless the turn is cancelled or runs out of time."""
        task = asyncio.ensure_future(awaitable)
        waiters: set[asyncio.Future[Any]] = {task}
        cancel_waiter = None
        if self.cancel is not None:
            cancel_waiter = asyncio.ensure_future(self.cancel.wait())
            waiters.add(cancel_waiter)
        try:
            done, _ = await asyncio.wait(waiters, timeout=max(0.0, self.remaining()),
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            if cancel_waiter is not None:
                cancel_waiter.cancel()
        if task in done:
            return task.result()
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        raise _Stop("cancelled" if self.cancel is not None and self.cancel.is_set()
                    else "max_seconds")

    # -------------------------------------------------------------- prompt
    def build_messages(self, first_step: bool) -> list[dict[str, Any]]:
        """The request for this step, by :func:`agenttui.core.context.assemble.assemble`.

        Adds what ``assemble`` cannot see: messages of this turn whose write
        failed (queued, sent redacted as the store would) and, for a retry,
        drops what followed the retried message in earlier turns.
        """
        from agenttui.core.context.assemble import assemble, to_wire

        assert self.user is not None  # set before the first step
        assembled = assemble(self.services, self.cid, self.user, mark_used=False, now=self.now)
        if first_step:
            self.trace.memory_injected = list(assembled.injected_ids)
            self.trace.used = RecallUsage.of(  # what shaped the answer: the "used: …" line
                assembled.memory_items, assembled.recalled, turn_id=self.trace.turn_id,
                recall_tokens=assembled.recall_tokens, budget=assembled.budget)
        from agenttui.core.context.compaction import figures

        self.trace.context = figures(assembled)  # the header's meter, "older turns not sent"
        messages = list(assembled.messages)
        if self.retry_of is not None:
            later = self.services.history.messages(self.cid, limit=200)
            stale = [to_wire(m) for m in later
                     if (m.id or 0) > self.retry_of and m.turn_id != self.trace.turn_id]
            for wire in stale:
                with contextlib.suppress(ValueError):
                    messages.remove(wire)
        messages += [to_wire(m) for m in self._unsaved() if m is not self.user]
        return repair_empty_replies(messages)  # older versions stored empty replies

    def _unsaved(self) -> list[Message]:
        """Queued messages of this conversation (their write failed), redacted."""
        queued = [m for cid, m in _pending(self.services) if cid == self.cid]
        if not queued:
            return []
        from agenttui.security import redact_secrets

        extra = tuple(self.settings.redaction.extra_patterns)
        return [m if m is self.user else dataclasses.replace(
                    m, content=redact_secrets(m.content, extra) if m.content else m.content)
                for m in queued]

    # -------------------------------------------------------------- LLM call
    async def stream_completion(self, messages: list[dict[str, Any]],
                                tools: list[dict[str, Any]]) -> AsyncIterator[Any]:
        """Yield events for one completion, retrying per policy; sets ``self.completion``."""
        params: dict[str, Any] = {"model": self.model, "messages": messages, "stream": True,
                                  "stream_options": {"include_usage": True}}
        self.sent = messages
        from agenttui.agent.context_probe import probe_in_background

        # the endpoint's own context length for the next requests (once per process)
        probe_in_background(self.services.base_url, str(getattr(self.client, "api_key", "") or ""), self.model,
                            None if self.services.incognito else self.services.paths.data_dir)
        if tools:
            params["tools"] = tools
        if self.settings.temperature is not None:
            params["temperature"] = self.settings.temperature
        request_options.apply(params, self.settings.agent, self._endpoint_memory(),
                              self.services.base_url, self.model)
        prompt_capture.record(self.services, prompt_capture.CapturedPrompt(
            model=self.model, messages=messages, tools=tools,
            params={k: v for k, v in params.items() if k not in ("messages", "tools")},
            injected_memory=list(self.trace.memory_injected), turn_id=self.trace.turn_id,
            conversation_id=self.cid))
        attempt = 0
        while True:
            self.completion = completion = _Completion()
            self.trace.llm_calls += 1
            failure = None
            try:
                async for event in self._one_call(params, completion):
                    yield event
            except _Stop:
                raise
            except Exception as exc:  # noqa: BLE001 -- classified below
                option = None if completion.emitted else request_options.rejected_option(
                    exc, params, self.settings.agent)
                if option is not None:  # a known refusal: at once, again without it
                    yield self._fall_back(params, option, exc)
                    continue
                failure = classify(exc, float(self.settings.agent.request_timeout))
            finally:
                self.trace.llm_seconds += self._waited
            if failure is None:
                return
            if not failure.retryable or completion.emitted or attempt >= self.policy.max_retries:
                if attempt and failure.retryable:
                    failure.message += f" (after {attempt} retr{'y' if attempt == 1 else 'ies'})"
                raise _LLMError(failure)
            delay = delay_for(self.policy, attempt, failure.retry_after)
            if delay > self.remaining():
                raise _LLMError(failure)
            attempt += 1
            self.trace.retries += 1
            yield RetryScheduled(attempt=attempt, delay=delay, reason=failure.message)
            await self.wait(asyncio.sleep(delay))
            self.trace.llm_seconds += delay

    def _endpoint_memory(self) -> EndpointMemory:
        return memory_for(self.services.paths.data_dir)

    def _fall_back(self, params: dict[str, Any], option: Option,
                   exc: BaseException) -> RequestFallback:
        """Drop ``option`` from the request, remember it, and say so."""
        params.pop(option, None)
        detail = request_options.server_message(exc)
        incognito = self.services.incognito  # core/incognito.py: no file
        unsaved = self._endpoint_memory().remember(self.services.base_url, self.model, option, detail,
                                                   save=not incognito)
        return RequestFallback(option, request_options.notice(
            option, self.model, self.services.base_url, detail, unsaved))

    async def _one_call(self, params: dict[str, Any], completion: _Completion) -> AsyncIterator[Any]:
        """Consume one stream from a producer task.

        Cancel and the deadline drop a sentinel into the queue instead of
        racing every chunk against them (no extra task per chunk).
        """
        queue: asyncio.Queue[Any] = asyncio.Queue()
        self._waited = 0.0  # time blocked on the network, for Trace.llm_seconds
        loop = asyncio.get_running_loop()
        stop_reason: list[str] = []

        def stop(reason: str) -> None:
            if not stop_reason:
                stop_reason.append(reason)
                queue.put_nowait(_STOP)

        timer = loop.call_later(max(0.0, self.remaining()), stop, "max_seconds")
        watcher = None
        if self.cancel is not None:
            if self.cancel.is_set():
                stop("cancelled")
            watcher = asyncio.ensure_future(self.cancel.wait())
            watcher.add_done_callback(lambda t: None if t.cancelled() else stop("cancelled"))
        producer = asyncio.ensure_future(_produce(self.client, params, queue))
        try:
            while True:
                if queue.empty():
                    waited = time.perf_counter()
                    item = await queue.get()
                    self._waited += time.perf_counter() - waited
                else:
                    item = queue.get_nowait()
                text = thinking = ""
                while True:  # coalesce everything already received into one delta
                    if item is _END or item is _STOP or isinstance(item, BaseException):
                        break
                    more, more_thinking = self._absorb(item, completion)
                    text += more
                    thinking += more_thinking
                    if queue.empty():
                        break
                    item = queue.get_nowait()
                if thinking:
                    completion.emitted = True
                    yield ReasoningDelta(thinking)
                if text:
                    completion.emitted = True
                    yield TextDelta(text)
                if item is _END:
                    return
                if item is _STOP:
                    raise _Stop(stop_reason[0])
                if isinstance(item, BaseException):
                    raise item
        finally:
            timer.cancel()
            if watcher is not None:
                watcher.cancel()
            if not producer.done():
                producer.cancel()
                with contextlib.suppress(BaseException):
                    await producer

    def _absorb(self, chunk: Any, completion: _Completion) -> tuple[str, str]:
        """Fold one chunk into ``completion``; return its (text, reasoning)."""
        before = completion.prompt_tokens, completion.completion_tokens
        out = completion.absorb(chunk)
        self.trace.prompt_tokens += completion.prompt_tokens - before[0]
        self.trace.completion_tokens += completion.completion_tokens - before[1]
        return out

    # -------------------------------------------------------------- tools
    async def run_tool(self, call: ToolCall) -> AsyncIterator[Any]:
        """Approval, execution, persistence of one call's result."""
        started = time.monotonic()
        denied = False
        try:
            parsed = json.loads(call.arguments or "{}")
            if not isinstance(parsed, dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            output, ok = (f"Error: the model sent invalid JSON for the arguments of tool "
                          f"`{call.name}` ({exc}). Call the tool again with a valid JSON object."), False
        else:
            needed, summary, risk = self.registry.needs_approval(call)
            approved = True
            if needed:
                future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
                yield ApprovalRequested(call=call, summary=summary, risk=risk, future=future)
                approved = await self._answer(future)
            if not approved:
                denied = True
                output, ok = "Denied by the user: the tool was not run.", False
            else:
                self.running = call
                try:
                    outcome = await self.wait(self.registry.execute(call))
                except _Stop:
                    raise  # still ``running``: its result says it was stopped mid-way
                except Exception as exc:  # noqa: BLE001 -- a bug in a tool: stop the turn
                    self.running = None
                    await self._record(call, f"Tool `{call.name}` crashed: {type(exc).__name__}: {exc}",
                                 False, False, started)
                    yield ToolCallFinished(call=call, output=self.last_output, ok=False)
                    raise _ToolCrash(f"The tool `{call.name}` crashed: {type(exc).__name__}: {exc}") from exc
                self.running = None
                output, ok = outcome.output, outcome.ok
                for result in getattr(outcome, "memory", None) or ():
                    yield self._memory_event(result, call)
        warning = await self._record(call, output, ok, denied, started)
        if warning:
            yield warning
        yield ToolCallFinished(call=call, output=self.last_output, ok=ok, denied=denied)

    async def _record(self, call: ToolCall, output: str, ok: bool, denied: bool,
                      started: float) -> PersistWarning | None:
        limit = int(self.settings.agent.max_tool_output)
        if len(output) > limit:
            output = output[:limit] + f"\n[... output truncated: {len(output) - limit} more characters]"
        self.last_output = output
        self.trace.steps.append(TraceStep(tool=call.name, arguments=call.arguments, ok=ok,
                                          denied=denied, seconds=time.monotonic() - started))
        self.open_calls = [c for c in self.open_calls if c.id != call.id]
        status = "denied" if denied else ("ok" if ok else "failed")
        return await self.persist(Message(role="tool", content=output, tool_call_id=call.id, name=call.name,
                                          tool_status=status))

    async def _answer(self, future: asyncio.Future[bool]) -> bool:
        try:
            if self.approver_timeout is not None:
                return bool(await self.wait(asyncio.wait_for(asyncio.shield(future),
                                                             self.approver_timeout)))
            return bool(await self.wait(asyncio.shield(future)))
        except TimeoutError:
            return False
        finally:
            if not future.done():
                future.cancel()

    def _memory_event(self, result: WriteResult, call: ToolCall) -> MemoryChanged:
        text = result.item.display if result.item is not None else call.arguments
        if not result.ok:
            self.trace.memory_blocked.append(result.reason or "rejected")
            return MemoryChanged(action="blocked", result=result, text=text)
        if result.item is not None:
            self.trace.memory_written.append(result.item.id)
        return MemoryChanged(action="pending" if result.pending else "written", result=result, text=text)


class _LLMError(Exception):
    def __init__(self, failure: LLMFailure) -> None:
        super().__init__(failure.message)
        self.failure = failure


class _ToolCrash(Exception):
    pass


class _Incomplete(Exception):
    """The provider did not finish the reply (see ``StreamedReply.verdict``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# ---------------------------------------------------------------- hooks
async def _after_user_message(services: Services, turn: _Turn, message: Message) -> AsyncIterator[AgentEvent]:
    """Offer (or save, per setting) a correction the user just made.

    The policy lives in :func:`agenttui.agent.memory_hooks.after_user_message`;
    here the outcome is only recorded in the turn's trace. It runs before the
    model is called, so it must stay cheap.
    """
    from agenttui.agent.memory_hooks import after_user_message

    for event in await asyncio.to_thread(after_user_message, services, message):  # may write memory
        if event.action == "written" and event.result.item is not None:
            turn.trace.memory_written.append(event.result.item.id)
        elif event.action == "blocked":
            turn.trace.memory_blocked.append(event.result.reason or "rejected")
        yield event


async def _after_reply(services: Services, turn: _Turn, reply: Message | None) -> AsyncIterator[AgentEvent]:
    """The memory extraction pass (off by default), after a successful reply."""
    if not services.settings.memory.extraction or reply is None:
        return
    from agenttui.agent.extraction import extract_memory

    async for event in extract_memory(services, turn, reply):
        yield event


# ---------------------------------------------------------------- entry point
async def run_turn(
    services: Services,
    conversation_id: str,
    text: str,
    *,
    image_path: Path | str | None = None,
    model: str | None = None,
    approver_timeout: float | None = None,
    cancel: asyncio.Event | None = None,
    retry_of: int | None = None,
    edit_of: int | None = None,
    registry: Any = None,
    client: Any = None,
    retry_policy: RetryPolicy | None = None,
    seen: int | None = None,
) -> AsyncIterator[AgentEvent]:
    """Run one turn; see the module docstring for the contract.

    ``seen`` is the last message of the conversation the sender has on screen (the chat's;
    None: whatever is stored). When another process went on with the conversation past it
    (a user message after it on the active branch: a second window, ``ask --conversation``), the new
    question hangs under ``seen`` instead, a branch beside the other one: the model gets
    the exchange the user saw, and nothing is lost (``‹ ›`` switches)."""
    if registry is None:
        from agenttui.agent.tools.registry import ToolRegistry

        registry = ToolRegistry(services, conversation_id)
    elif hasattr(registry, "conversation_id"):
        registry.conversation_id = conversation_id  # memory origin of model-proposed items
    turn = _Turn(services, conversation_id, model=model, cancel=cancel,
                 approver_timeout=approver_timeout, registry=registry, client=client,
                 retry_policy=retry_policy)
    turn.retry_of = retry_of
    turn.seen = seen
    finished = False
    try:
        async for event in _turn_events(services, turn, text, image_path, edit_of):
            if isinstance(event, TurnFinished | TurnFailed):
                finished = True
            yield event
    finally:
        if not finished:  # task cancelled or generator closed: keep what we have
            turn.keep_partial(turn.completion, "The turn was stopped before the reply finished.")
            turn.close_open_calls("Cancelled: the turn was stopped before this tool ran.",
                                  stopped="Stopped while it ran: the turn was stopped" + STOPPED_MID_WAY)
            flush_pending(services)  # the task is being torn down: no awaiting here


def _went_on_elsewhere(services: Services, cid: str, seen: int) -> bool:
    """A user message follows ``seen`` on the conversation's active branch: someone else asked
    after what this sender has on screen. Only a user message counts: the replies and tool
    steps of the sender's own turns are stored after what it shows, a question never is.
    ``seen`` off the active branch: another window's turn made its own branch the active one
    (two windows that asked at once each have theirs): this sender's question follows what
    it shows, not the other window's latest message."""
    path = services.history.branch_ids(cid)
    if seen not in path:
        shown = services.history.get_message(seen)
        return shown is not None and shown.conversation_id == cid
    for later in path[path.index(seen) + 1:]:
        found = services.history.get_message(later)
        if found is not None and found.role == "user":
            return True
    return False


async def _user_message(services: Services, cid: str, message_id: int) -> Message | None:
    """The stored user message ``message_id`` of conversation ``cid``, or None."""
    found = await asyncio.to_thread(services.history.get_message, message_id)
    return found if found is not None and found.conversation_id == cid and found.role == "user" else None


async def _turn_events(services: Services, turn: _Turn, text: str,
                       image_path: Any, edit_of: int | None = None) -> AsyncIterator[AgentEvent]:
    """The turn as events: its user message, then the model's steps, then its end."""
    async for event in _open(services, turn, text, image_path, edit_of):
        yield event
        if isinstance(event, TurnFailed):
            return
    if turn.client is None:
        key = services.api_key()
        if not key.value:
            from agenttui.agent.no_key import no_key_message

            final: AgentEvent = TurnFailed("llm_error", no_key_message(key.problem),
                                           turn.finish_trace(), None, retryable=False)
            async for event in _end(services, final):
                yield event
            return
        turn.client = client_for(services, key.value)
    outcome: list[AgentEvent] = []
    async for event in _steps(services, turn, outcome):
        yield event
    async for event in _end(services, outcome[0], turn):
        yield event


async def _open(services: Services, turn: _Turn, text: str, image_path: Any,
                edit_of: int | None) -> AsyncIterator[AgentEvent]:
    """Store the user's message (or find the one answered again) and start the turn;
    a ``TurnFailed`` ends it here (nothing stored)."""
    leftover = await asyncio.to_thread(flush_pending, services)  # leftovers of an earlier turn go first
    if leftover:
        yield PersistWarning(leftover)
    asked = turn.retry_of if turn.retry_of is not None else edit_of
    stored = None if asked is None else await _user_message(services, turn.cid, asked)
    if asked is not None and stored is None:
        yield TurnFailed("llm_error", f"Message {asked} is not a user message of "
                         "this conversation.", turn.finish_trace(), None, retryable=False)
        return
    if turn.retry_of is not None and stored is not None:
        turn.user = user = stored
        turn.branch_from = stored.id  # the new reply: a sibling of the ones it had
    else:
        if stored is not None:  # an edit: the new question is a sibling of the old one
            from agenttui.core.history.store import NEW_ROOT

            turn.branch_from = stored.parent_id if stored.parent_id is not None else NEW_ROOT
        user = Message(role="user", content=text)
        if image_path is not None:
            from agenttui.agent.images import ImageError, load_image

            try:
                user.image_b64, user.image_mime = load_image(image_path)
            except ImageError as exc:  # nothing persisted: the caller still has the text
                yield TurnFailed("llm_error", str(exc), turn.finish_trace(), None, retryable=False)
                return
        turn.user = user
        if stored is None and turn.seen is not None \
                and await asyncio.to_thread(_went_on_elsewhere, services, turn.cid, turn.seen):
            turn.branch_from = turn.seen
        warning = await turn.persist(user)
        if warning:
            yield warning
    yield TurnStarted(turn_id=turn.trace.turn_id, user_message=user)
    if turn.retry_of is None:
        async for event in _after_user_message(services, turn, user):
            yield event


async def _steps(services: Services, turn: _Turn, outcome: list[AgentEvent]) -> AsyncIterator[AgentEvent]:
    """Request, stream, run the tools asked for; again until a reply without tool calls, the
    step or time limit, a cancel or a failure. The turn's final event goes into ``outcome``."""
    tools = turn.registry.schemas()
    max_steps = max(1, int(services.settings.agent.max_steps))
    try:
        for step in range(max_steps):
            if turn.remaining() <= 0:
                raise _Stop("max_seconds")
            # Off the event loop: recall reads SQLite and may wait on the embeddings
            # endpoint; the UI must keep painting (and typing) meanwhile.
            messages = await asyncio.to_thread(turn.build_messages, step == 0)
            async for event in turn.stream_completion(messages, tools):
                yield event
                if isinstance(event, TextDelta):  # the first token is out: overlap the rest
                    turn.record_memory_use()
            turn.record_memory_use()  # a step without text (tool calls): overlap the tools
            completion = turn.completion
            assert completion is not None  # stream_completion sets it or raises
            problem = completion.verdict()
            if problem is not None:  # the provider did not finish it: keep it, run nothing
                raise _Incomplete(problem)
            turn.completion = None
            calls = _tool_calls(completion)
            message = Message(role="assistant", content=completion.text or None, tool_calls=calls,
                              provider_fields=completion.provider_fields(),
                              reasoning=turn.saved_reasoning(completion), usage=turn.usage_of(completion))
            turn.open_calls = list(calls)  # before persisting: a write failure still closes them
            warning = await turn.persist(message)
            if warning:
                yield warning
            if not calls:
                turn.reply = message
                async for event in _after_reply(services, turn, message):
                    yield event
                outcome.append(TurnFinished("success", turn.finish_trace(), message))
                return
            if step == max_steps - 1:
                turn.close_open_calls(f"Not run: the turn reached its step limit (max_steps={max_steps}).")
                outcome.append(TurnFinished("max_steps", turn.finish_trace(), message))
                return
            for call in calls:
                yield ToolCallStarted(call=call)
                async for event in turn.run_tool(call):
                    yield event
    except (_Stop, _LLMError, _Incomplete, _ToolCrash) as stop:
        outcome.append(_stopped(turn, stop))


#: The end of a stopped tool's result: the model must not take it for a tool that did nothing.
STOPPED_MID_WAY = "; it may have done part of its work, and its output is lost."


def _stopped(turn: _Turn, stop: Exception) -> AgentEvent:
    """The final event of a turn ended early: what came is kept, open tool calls get a result."""
    if isinstance(stop, _Stop):
        partial = turn.keep_partial(turn.completion, "Cancelled by the user." if stop.reason == "cancelled"
                                    else "The turn ran out of time (agent.max_seconds).")
        cancelled = stop.reason == "cancelled"
        turn.close_open_calls("Cancelled by the user: the tool was not run." if cancelled
                              else "Not run: the turn ran out of time.",
                              stopped=("Stopped by the user while it ran" if cancelled else
                                       "Stopped while it ran: the turn ran out of time (agent.max_seconds)")
                              + STOPPED_MID_WAY)
        return TurnFinished(stop.reason, turn.finish_trace(), partial or turn.reply)  # type: ignore[arg-type]
    if isinstance(stop, _LLMError):
        partial = turn.keep_partial(turn.completion, stop.failure.message)
        turn.close_open_calls("Not run: the model call failed.")
        return TurnFailed("llm_error", stop.failure.message, turn.finish_trace(), partial)
    if isinstance(stop, _Incomplete):
        partial = turn.keep_partial(turn.completion, stop.reason)
        return TurnFailed("incomplete", stop.reason, turn.finish_trace(), partial)
    turn.close_open_calls("Not run: an earlier tool in this step crashed.")
    return TurnFailed("tool_error", str(stop), turn.finish_trace(), None)


async def _end(services: Services, final: AgentEvent, turn: _Turn | None = None) -> AsyncIterator[AgentEvent]:
    """Finish background bookkeeping, retry writes that failed, then the final event."""
    if turn is not None:
        # memory usage stats, usually started mid-stream (see the module doc); a turn
        # that failed or stopped before any output starts it here.
        turn.record_memory_use()
        if turn.usage is not None:
            with contextlib.suppress(Exception):  # bookkeeping never costs the turn
                await turn.usage
    if pending_count(services):
        warning = await _retry_pending(services)
        if warning:
            yield PersistWarning(warning)
    if turn is not None:
        turn.finish_trace()  # the trace object is the final event's: include the above
        if not pending_count(services):  # replies stored: their prices, in a thread (~1 s to load)
            from agenttui.core.usage.pricing import price_pending_in_background

            price_pending_in_background(services.history)
    yield final


async def _retry_pending(services: Services, attempts: int = 3) -> str | None:
    """At turn end: a few quick retries of writes that failed during the turn."""
    warning = None
    for attempt in range(attempts):
        warning = await asyncio.to_thread(flush_pending, services)
        if warning is None:
            return None
        await asyncio.sleep(0.1 * 2 ** attempt)
    return warning
