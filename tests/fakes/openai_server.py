"""A scriptable, real-HTTP fake of an OpenAI-compatible endpoint.

Tests talk to it through the real ``openai`` client (``base_url``), so the
whole wire path -- HTTP, SSE framing, chunk parsing, error mapping -- is the
one production uses; nothing in the ``openai`` package is mocked.

Speaks ``POST /v1/chat/completions`` (``stream`` true -> SSE ``data: {chunk}``
lines ending in ``data: [DONE]``, with a usage chunk when
``stream_options.include_usage``; ``stream`` false -> one completion JSON),
``GET /v1/models`` and ``POST /v1/embeddings`` (deterministic vectors, see
:func:`fake_embedding`; ``encoding_format`` base64 or float). Provider details
to set on the instance: ``model_fields`` (more fields of the /models entry, e.g.
``context_length``), ``ollama_show`` (Ollama's ``POST /api/show``), ``usage_extra``
(cached and reasoning token details), ``usage_off``, ``answered_by``. Streams use
HTTP/1.1 chunked encoding, so a connection dropped mid-stream is a protocol
error the client can see (with ``Connection: close`` framing an early close
would look like a normal end).

Each request takes the next scripted response from a queue; when the queue
is empty the server answers ``default_reply``. Every request body is recorded.

Script with the builders (all return ``self`` for chaining)::

    with FakeOpenAI() as server:
        server.reply("Hello there", words_per_second=50)
        server.tool_call("remember", {"text": "likes tea"})
        server.tool_calls([("recall", {}), ("list_directory", {"path": "."})])
        server.status(429, retry_after=1)       # or 500, 400, ...
        server.drop(after="Partial reply")      # connection cut mid-stream
        server.stall(5)                         # no bytes for 5 s
        server.malformed(after="Some text")     # a data line that is not JSON
        server.bad_tool_args("remember", '{"text": ')
        server.embed_as("my puppy", like="dog named Rex")  # a crafted near neighbour
        server.no_embeddings()                  # /v1/embeddings answers 404

Standalone, for manual trials and benchmarks::

    python -m tests.fakes.openai_server --port 8765 --reply "Hi"
    python -m tests.fakes.openai_server --port 8765 --words 5000 --wps 0
    python -m tests.fakes.openai_server --port 8765 --markdown 600 --wps 300
"""

from __future__ import annotations

import argparse
import base64
import functools
import hashlib
import json
import operator
import re
import socket
import struct
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Literal

Kind = Literal["text", "tool_calls", "status", "drop", "stall", "malformed", "raw"]


@dataclass
class Scripted:
    """One scripted response. Build with the ``FakeOpenAI`` helpers."""

    kind: Kind = "text"
    text: str = ""
    calls: list[tuple[str, str]] = field(default_factory=list)  # (name, raw arguments)
    status: int = 200
    retry_after: str | None = None
    error_message: str = ""
    words_per_chunk: int = 1
    words_per_second: float = 0.0  # 0 = as fast as possible
    chunk_delay: float = 0.0  # extra pause after each chunk
    arg_pieces: int = 3  # each tool call's arguments are split over this many chunks
    stall_seconds: float = 0.0
    frames: list[bytes] = field(default_factory=list)  # kind "raw": the body, byte for byte
    content_type: str = "text/event-stream"
    # kinds "raw" and "text": before frame (or word chunk) ``gate_at`` the server waits for
    # ``gate`` (a test has seen the state the frames so far lead to: a condition, not a delay
    # that a busy machine outruns)
    gate: threading.Event | None = None
    gate_at: int = 0


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None
    at: float


def words_of(text: str, per_chunk: int = 1) -> list[str]:
    """Split ``text`` into chunks of ``per_chunk`` words, keeping the spaces."""
    parts: list[str] = []
    current = ""
    count = 0
    for index, word in enumerate(text.split(" ")):
        current += word if index == 0 else " " + word
        count += 1
        if count >= per_chunk:
            parts.append(current)
            current, count = "", 0
    if current:
        parts.append(current)
    return [part for part in parts if part]


@functools.lru_cache(maxsize=65_536)
def _word_vector(word: str, dim: int) -> tuple[float, ...]:
    bits = int.from_bytes(hashlib.shake_128(word.encode()).digest((dim + 7) // 8), "big")
    return tuple(1.0 if bits >> i & 1 else -1.0 for i in range(dim))


def fake_embedding(text: str, dim: int = 64) -> list[float]:
    """A hashed bag of words: each word a fixed pseudo-random +-1 vector, the text their
    normalised sum. Texts sharing words are close; texts sharing none are nearly orthogonal."""
    total = [0.0] * dim
    for word in re.findall(r"\w+", text.casefold()):
        total = list(map(operator.add, total, _word_vector(word, dim)))
    norm = sum(x * x for x in total) ** 0.5
    return [x / norm for x in total] if norm else [1.0] + [0.0] * (dim - 1)


def long_text(words: int) -> str:
    """A deterministic reply of ``words`` words (with some Markdown)."""
    vocabulary = ("the", "agent", "remembers", "your", "notes", "and", "facts", "**bold**",
                  "`code`", "memory", "history", "profile", "stream", "token")
    out = []
    for i in range(words):
        out.append(vocabulary[i % len(vocabulary)])
        if i % 40 == 39:
            out[-1] += ".\n\n"
    return " ".join(out)


class FakeOpenAI:
    """The server plus its script; a context manager (start / stop)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, default_reply: str = "ok",
                 model: str = "fake-model", embedding_dim: int = 64) -> None:
        self.default = Scripted(kind="text", text=default_reply)
        self.model = model
        self.embedding_dim = embedding_dim
        self.embeddings_status: int | None = None  # answer /v1/embeddings with this error
        self.embedding_delay = 0.0  # seconds before each embeddings answer
        self.embedding_rejects: list[str] = []  # 400 for a request with an input containing one
        self._embed_as: dict[str, str] = {}
        # option -> (status, body): every chat request carrying it is refused so (see reject)
        self.rejects: dict[str, tuple[int, dict[str, Any]]] = {}
        self.models_status: int | None = None  # answer GET /v1/models with this error
        # more fields of the model's /v1/models entry (OpenRouter's context_length, vLLM's max_model_len)
        self.model_fields: dict[str, Any] = {}
        self.more_models: list[str] = []  # listed by GET /v1/models after ``model`` (the /model picker)
        self.ollama_show: dict[str, Any] | None = None  # Ollama's POST /api/show answer (None: 404)
        self.usage_extra: dict[str, Any] = {}  # merged into the usage chunk (cached/reasoning details)
        self.usage_off = False  # never send usage, even when asked (a provider that has none)
        self.answered_by: str | None = None  # the chunks' "model" (a router answering with another)
        # body -> (status, error body) or None: a provider's request checks (tests/unit/providers/)
        self.validator: Callable[[dict[str, Any]], tuple[int, dict[str, Any]] | None] | None = None
        self.requests: list[RecordedRequest] = []
        self._script: deque[Scripted] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        handler = type("Handler", (_Handler,), {"fake": self})
        self._httpd = ThreadingHTTPServer((host, port), handler)
        self._httpd.daemon_threads = True
        print_error = self._httpd.handle_error

        def handle_error(request: Any, client_address: Any) -> None:
            if not isinstance(sys.exc_info()[1], ConnectionError):  # a killed client is no error
                print_error(request, client_address)

        self._httpd.handle_error = handle_error  # type: ignore[method-assign]
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ lifecycle
    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeOpenAI:
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes stalled handlers
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------ scripting
    def push(self, item: Scripted) -> FakeOpenAI:
        with self._lock:
            self._script.append(item)
        return self

    def reply(self, text: str, *, words_per_second: float = 0.0, words_per_chunk: int = 1,
              chunk_delay: float = 0.0, gate: threading.Event | None = None,
              gate_at: int = 0) -> FakeOpenAI:
        return self.push(Scripted("text", text=text, words_per_second=words_per_second,
                                  words_per_chunk=words_per_chunk, chunk_delay=chunk_delay,
                                  gate=gate, gate_at=gate_at))

    def tool_call(self, name: str, arguments: dict[str, Any] | str, *, text: str = "",
                  arg_pieces: int = 3) -> FakeOpenAI:
        return self.tool_calls([(name, arguments)], text=text, arg_pieces=arg_pieces)

    def tool_calls(self, calls: list[tuple[str, dict[str, Any] | str]], *, text: str = "",
                   arg_pieces: int = 3) -> FakeOpenAI:
        raw = [(name, args if isinstance(args, str) else json.dumps(args)) for name, args in calls]
        return self.push(Scripted("tool_calls", text=text, calls=raw, arg_pieces=arg_pieces))

    def bad_tool_args(self, name: str, raw_arguments: str = '{"text": "unterminated') -> FakeOpenAI:
        return self.tool_calls([(name, raw_arguments)])

    def status(self, code: int, *, retry_after: float | str | None = None,
               message: str = "") -> FakeOpenAI:
        return self.push(Scripted(
            "status", status=code, error_message=message or f"fake error {code}",
            retry_after=None if retry_after is None else str(retry_after)))

    def drop(self, after: str = "") -> FakeOpenAI:
        """Stream ``after`` then cut the connection without finishing the body."""
        return self.push(Scripted("drop", text=after))

    def stall(self, seconds: float, after: str = "") -> FakeOpenAI:
        """Send nothing for ``seconds`` (before the headers, or after streaming ``after``)."""
        return self.push(Scripted("stall", text=after, stall_seconds=seconds))

    def malformed(self, after: str = "") -> FakeOpenAI:
        """Stream ``after`` then a ``data:`` line that is not valid JSON."""
        return self.push(Scripted("malformed", text=after))

    def reject(self, option: str, rejection: tuple[int, dict[str, Any]]) -> FakeOpenAI:
        """Refuse every chat request that carries ``option`` ("stream_options", "tools")
        with ``rejection`` (status, body), as a server without that feature does
        (real formats: tests/fakes/provider_rejections.py)."""
        self.rejects[option] = rejection
        return self

    def no_models(self, status: int = 404) -> FakeOpenAI:
        """A server without ``GET /v1/models`` (some gateways and proxies): answer ``status``."""
        self.models_status = status
        return self

    def raw(self, frames: list[bytes] | bytes, *, content_type: str = "text/event-stream",
            status: int = 200) -> FakeOpenAI:
        """Answer the next chat request with exactly these bytes (each frame one HTTP chunk).

        For replaying a provider's stream format verbatim (tests/unit/providers/):
        comments, CRLF, ``data:`` without a space, error objects, a missing
        ``[DONE]``... The body ends cleanly after the last frame.
        """
        body = [frames] if isinstance(frames, bytes) else list(frames)
        return self.push(Scripted("raw", frames=body, content_type=content_type, status=status))

    def embed_as(self, text: str, *, like: str) -> FakeOpenAI:
        """Embed ``text`` exactly as ``like`` (a neighbour with no word in common)."""
        self._embed_as[text] = like
        return self

    def no_embeddings(self, status: int = 404) -> FakeOpenAI:
        """An endpoint without embeddings: every /v1/embeddings request gets ``status``."""
        self.embeddings_status = status
        return self

    def embedding_for(self, text: str, dim: int | None = None) -> list[float]:
        return fake_embedding(self._embed_as.get(text, text), dim or self.embedding_dim)

    def _next(self) -> Scripted:
        with self._lock:
            return self._script.popleft() if self._script else self.default

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._script)

    # ------------------------------------------------------------ inspection
    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        return [r.body or {} for r in self.requests if r.path.endswith("/chat/completions")]

    @property
    def embedding_requests(self) -> list[dict[str, Any]]:
        return [r.body or {} for r in self.requests if r.path.rstrip("/").endswith("/embeddings")]

    def last_messages(self) -> list[dict[str, Any]]:
        return self.chat_requests[-1]["messages"]

    def last_system_prompt(self) -> str:
        first = self.last_messages()[0]
        return first["content"] if first["role"] == "system" else ""

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)


class _Handler(BaseHTTPRequestHandler):
    fake: FakeOpenAI
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def setup(self) -> None:
        super().setup()
        # Small SSE writes must go out at once: without this, Nagle + delayed ACK
        # add ~40 ms per response and swamp what the benchmarks measure.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    # ------------------------------------------------------------ routes
    def do_GET(self) -> None:
        self.fake._record(RecordedRequest("GET", self.path, dict(self.headers), None, time.time()))
        if self.path.rstrip("/").endswith("/models") and self.fake.models_status is not None:
            self._json(self.fake.models_status, {"error": {"message": "not found", "type": "not_found_error"}})
        elif self.path.rstrip("/").endswith("/models"):
            self._json(200, {"object": "list", "data": [
                {"id": self.fake.model, "object": "model", "created": 0, "owned_by": "fake",
                 **self.fake.model_fields},
                *({"id": name, "object": "model", "created": 0, "owned_by": "fake"}
                  for name in self.fake.more_models)]})
        else:
            self._json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = None
        self.fake._record(RecordedRequest("POST", self.path, dict(self.headers), body, time.time()))
        if self.path.rstrip("/").endswith("/embeddings") and body is not None:
            try:
                self._embeddings(body)
            except (BrokenPipeError, ConnectionResetError):  # the client went away
                self.close_connection = True
            return
        if self.path.rstrip("/") == "/api/show" and body is not None and self.fake.ollama_show is not None:
            self._json(200, self.fake.ollama_show)  # Ollama's model details (at the root, not /v1)
            return
        if not self.path.rstrip("/").endswith("/chat/completions") or body is None:
            self._json(404 if body is not None else 400,
                       {"error": {"message": "bad request", "type": "invalid_request_error"}})
            return
        refused = next((r for option, r in self.fake.rejects.items() if body.get(option)), None)
        if refused is None and self.fake.validator is not None:
            refused = self.fake.validator(body)
        if refused is not None:  # like a real server: decided by the request, not the script
            self._json(*refused)
            return
        item = self.fake._next()
        try:
            if item.kind == "status":
                headers = {"Retry-After": item.retry_after} if item.retry_after else {}
                self._json(item.status, {"error": {"message": item.error_message,
                                                   "type": "fake_error", "code": item.status}},
                           headers)
            elif item.kind == "raw":
                self._raw(item)
            elif item.kind == "stall" and not item.text:
                self._sleep(item.stall_seconds)
                self.close_connection = True
            elif body.get("stream"):
                self._stream(item, body)
            else:
                self._complete(item, body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    # ------------------------------------------------------------ helpers
    def _sleep(self, seconds: float) -> None:
        self.fake._stopping.wait(seconds)

    def _json(self, code: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def _event(self, payload: dict[str, Any] | str) -> None:
        text = payload if isinstance(payload, str) else json.dumps(payload)
        self._chunk(f"data: {text}\n\n".encode())

    def _base(self, body: dict[str, Any]) -> dict[str, Any]:
        return {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()),
                "model": self.fake.answered_by or body.get("model") or self.fake.model}

    def _usage(self, body: dict[str, Any], item: Scripted) -> dict[str, Any]:
        prompt = len(json.dumps(body.get("messages", []))) // 4
        completion = len(item.text.split()) + sum(len(a) // 4 for _, a in item.calls)
        return {"prompt_tokens": prompt, "completion_tokens": completion,
                "total_tokens": prompt + completion, **self.fake.usage_extra}

    def _embeddings(self, body: dict[str, Any]) -> None:
        fake = self.fake
        self._sleep(fake.embedding_delay)
        texts = body.get("input")
        texts = [texts] if isinstance(texts, str) else texts
        bad = not texts or not all(isinstance(t, str) and t for t in texts)
        if fake.embeddings_status is not None or bad or any(
                r in t for r in fake.embedding_rejects for t in texts):
            code = fake.embeddings_status or 400
            self._json(code, {"error": {"message": f"fake embeddings error {code}",
                                        "type": "invalid_request_error", "code": code}})
            return
        dim = int(body.get("dimensions") or fake.embedding_dim)
        data = []
        for index, text in enumerate(texts):
            vector: Any = fake.embedding_for(text, dim)
            if body.get("encoding_format") == "base64":
                vector = base64.b64encode(struct.pack(f"<{dim}f", *vector)).decode()
            data.append({"object": "embedding", "index": index, "embedding": vector})
        words = sum(len(t.split()) for t in texts)
        self._json(200, {"object": "list", "data": data, "model": body.get("model") or fake.model,
                         "usage": {"prompt_tokens": words, "total_tokens": words}})

    def _raw(self, item: Scripted) -> None:
        self.send_response(item.status)
        self.send_header("Content-Type", item.content_type)
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for index, frame in enumerate(item.frames):
            if item.gate is not None and index == item.gate_at:
                item.gate.wait(timeout=120)
            if frame:
                self._chunk(frame)
            if item.chunk_delay:
                self._sleep(item.chunk_delay)
        self._chunk(b"")  # terminating chunk: a clean end, whatever the frames said

    def _stream(self, item: Scripted, body: dict[str, Any]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        base = self._base(body)

        def delta(d: dict[str, Any], finish: str | None = None) -> None:
            self._event({**base, "choices": [{"index": 0, "delta": d, "finish_reason": finish}]})

        delta({"role": "assistant", "content": ""})
        pause = (1.0 / item.words_per_second * item.words_per_chunk) if item.words_per_second else 0.0
        for index, piece in enumerate(words_of(item.text, item.words_per_chunk)):
            if item.gate is not None and index == item.gate_at:
                item.gate.wait(timeout=120)
            delta({"content": piece})
            if pause or item.chunk_delay:
                self._sleep(pause + item.chunk_delay)
        if item.kind == "drop":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)  # no terminating chunk: truncated body
            return
        if item.kind == "stall":
            self._sleep(item.stall_seconds)
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if item.kind == "malformed":
            self._event('{"id": "chatcmpl-fake", "choices": [{"delta": {"content": "x"')
        finish = "stop"
        if item.kind == "tool_calls":
            finish = "tool_calls"
            for index, (name, args) in enumerate(item.calls):
                delta({"tool_calls": [{"index": index, "id": f"call_{index}_{name}", "type": "function",
                                       "function": {"name": name, "arguments": ""}}]})
                size = max(1, -(-len(args) // max(1, item.arg_pieces)))
                for start in range(0, len(args), size):
                    delta({"tool_calls": [{"index": index,
                                           "function": {"arguments": args[start:start + size]}}]})
        delta({}, finish)
        if (body.get("stream_options") or {}).get("include_usage") and not self.fake.usage_off:
            self._event({**base, "choices": [], "usage": self._usage(body, item)})
        self._event("[DONE]")
        self._chunk(b"")  # terminating chunk

    def _complete(self, item: Scripted, body: dict[str, Any]) -> None:
        message: dict[str, Any] = {"role": "assistant", "content": item.text or None}
        finish = "stop"
        if item.kind == "tool_calls":
            finish = "tool_calls"
            message["tool_calls"] = [
                {"id": f"call_{i}_{name}", "type": "function",
                 "function": {"name": name, "arguments": args}}
                for i, (name, args) in enumerate(item.calls)]
        if item.kind == "drop":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self._json(200, {**self._base(body), "object": "chat.completion",
                         "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                         "usage": self._usage(body, item)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the fake OpenAI-compatible server.")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--reply", default=None, help="the reply to every request")
    parser.add_argument("--reply-file", type=Path, default=None,
                        help="the reply to every request, read from a file (too long for an argument)")
    parser.add_argument("--words", type=int, default=0, help="reply with a long text of N words")
    parser.add_argument("--markdown", type=int, default=0,
                        help="reply with N words of Markdown: headings, lists, tables, code (markdown_reply)")
    parser.add_argument("--wps", type=float, default=0.0, help="words per second (0 = flat out)")
    parser.add_argument("--words-per-chunk", type=int, default=1)
    parser.add_argument("--embedding-dim", type=int, default=64, help="dimensions of /v1/embeddings vectors")
    args = parser.parse_args(argv)
    text = args.reply if args.reply is not None else (long_text(args.words) if args.words else "ok")
    if args.reply_file is not None:
        text = args.reply_file.read_text(encoding="utf-8")
    if args.markdown:
        from tests.fakes.markdown_reply import markdown_reply

        text = markdown_reply(args.markdown)
    server = FakeOpenAI(port=args.port, default_reply=text, embedding_dim=args.embedding_dim)
    server.default.words_per_second = args.wps
    server.default.words_per_chunk = args.words_per_chunk
    server.start()
    print(f"fake OpenAI server on {server.base_url}  (OPENAI_BASE_URL={server.base_url})", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
