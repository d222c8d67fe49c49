"""One MCP server connection, owned by one asyncio task.

The SDK's ``Client`` must be entered and left in the same task (anyio cancel
scopes), so :class:`Connection` runs an owner task that connects, lists the
tools, publishes the client, and waits. Calls from any task of the same event
loop go through the published client. Decisions:

* **Crash = restart with backoff.** When the server's output stream ends
  (it exited, idle or mid-call: the transport's read stream is watched) or a
  call finds the connection closed, the owner leaves the client (reaping the
  process) and connects again in the background after 1, 2, 4, ... s (at
  most 30 s, at most :data:`MAX_RESTARTS` times in a row, then ``failed``
  with the last error). So a server that died while idle is back before the
  next call, which waits for it if the restart is still under way. The count
  of failures resets only once a start has stayed up :data:`STABLE_AFTER`
  seconds: a server that dies right after each handshake is given up on,
  not restarted forever. A call that saw the crash fails with a sentence the
  model can act on; it is not retried (it may have had effects).
* **No orphans.** :meth:`Connection.stop` (quit, SIGTERM via the app's
  handler, end of ``ask``) leaves the client in the owner task: the SDK closes
  stdin, waits 2 s, then kills the server's whole process group (it starts
  servers in a session of their own). If agenttui itself is killed, the
  server's stdin reaches EOF and a well-behaved server exits.
* **stderr** of a stdio server goes through a pipe to memory (the MCP
  screen) and, while ``persist()`` (not incognito), to
  ``<data>/mcp/logs/<profile>/<name>.stderr`` (:mod:`agenttui.mcp.stderr`);
  never to the terminal, where it would draw over the UI.
* **Timeouts.** Connecting (handshake plus the tool list) may take
  :data:`CONNECT_TIMEOUT`; one call the server's ``timeout``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from agenttui.mcp.cache import CacheEntry, ToolInfo
from agenttui.mcp.config import ServerConfig, expand_vars, resolve_values
from agenttui.mcp.stderr import StderrSink

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 30.0
MAX_RESTARTS = 5
BACKOFF_START = 1.0  # seconds before the first restart; doubled each time, at most BACKOFF_MAX
BACKOFF_MAX = 30.0
STABLE_AFTER = 30.0  # seconds up after which a start counts as good (the failure count resets)
MAX_TOOLS = 200  # a server listing more is cut (each tool costs prompt tokens)
MAX_DESCRIPTION = 1024  # characters of one tool description sent to the model
STDERR_TAIL = 8_000
HTTP_TIMEOUT = 30.0  # connect, write, pool (seconds) of a streamable-HTTP server's client
HTTP_READ_TIMEOUT = 300.0  # one read: a server may hold a response stream open that long

States = ("stopped", "starting", "ready", "restarting", "failed", "disabled")


class McpCallError(Exception):
    """A call could not be made or did not finish (message says why, for the model)."""


def describe_error(exc: BaseException) -> str:
    """One line for an exception, groups unwrapped (anyio wraps everything in them)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if text:  # redacted: a URL with a token, a header echoed back
        from agenttui.security import redact_secrets

        text = redact_secrets(text[:500])
    name = type(exc).__name__
    if name == "MCPError":
        return text or "MCP error"
    if isinstance(exc, FileNotFoundError):
        return f"command not found: {exc.filename or text}"
    return f"{name}: {text}" if text else name


def _tool_info(tool: Any) -> ToolInfo:
    annotations = getattr(tool, "annotations", None)
    schema = tool.input_schema if isinstance(getattr(tool, "input_schema", None), dict) else {}
    return ToolInfo(name=str(tool.name), description=str(tool.description or "")[:MAX_DESCRIPTION],
                    input_schema=dict(schema),
                    read_only=bool(getattr(annotations, "read_only_hint", False)),
                    title=getattr(tool, "title", None))


@contextlib.asynccontextmanager
async def _http_transport(url: str, headers: dict[str, str]) -> AsyncIterator[Any]:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    # The client the SDK would make itself, built here to carry the headers (its own factory is a
    # private module): its timeouts, 30 s, and 300 s to read, since a server may hold a stream open.
    # Redirects stay off: the SDK follows them only within the endpoint's origin.
    timeout = httpx2.Timeout(HTTP_TIMEOUT, read=HTTP_READ_TIMEOUT)
    async with (httpx2.AsyncClient(headers=headers or None, timeout=timeout) as http,
                streamable_http_client(url, http_client=http) as streams):
        yield streams


class _WatchedReceive:
    """The transport's read stream, telling ``on_end`` when it ends (the server exited or
    hung up). The SDK's dispatcher only iterates it, enters it and reads attributes."""

    def __init__(self, inner: Any, on_end: Callable[[], None]) -> None:
        self._inner = inner
        self._on_end = on_end

    async def receive(self) -> Any:
        import anyio

        try:
            return await self._inner.receive()
        except anyio.EndOfStream:
            self._on_end()
            raise

    def __aiter__(self) -> _WatchedReceive:
        return self

    async def __anext__(self) -> Any:
        import anyio

        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _WatchedReceive:  # noqa: PYI034 -- Self needs 3.11 typing import
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._inner.aclose()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


@contextlib.asynccontextmanager
async def _watched(transport: Any, on_end: Callable[[], None]) -> AsyncIterator[Any]:
    async with transport as (read_stream, write_stream):
        yield _WatchedReceive(read_stream, on_end), write_stream


def make_client(server: ServerConfig, profile: str, environ: Any, errlog: Any,
                on_end: Callable[[], None] | None = None) -> Any:
    """An un-entered SDK ``Client`` for ``server`` (secrets resolved here, kept nowhere else).

    ``on_end`` is called if the server's stream ends (it exited), from the SDK's reader task."""
    from mcp.client.stdio import stdio_client
    from mcp_types import Implementation

    from agenttui import __version__
    from mcp import Client, StdioServerParameters

    env, headers = resolve_values(server, profile, environ)
    if server.url:
        transport: Any = _http_transport(expand_vars(server.url, environ, "the URL"), headers)
    else:
        cwd = str(Path(server.cwd).expanduser()) if server.cwd else None
        args = [expand_vars(a, environ, f"argument {n}") for n, a in enumerate(server.args, 1)]
        params = StdioServerParameters(command=server.command or "", args=args,
                                       env=env or None, cwd=cwd)
        transport = stdio_client(params, errlog=errlog)
    if on_end is not None:
        transport = _watched(transport, on_end)
    return Client(transport, read_timeout_seconds=server.timeout,
                  client_info=Implementation(name="agenttui", version=__version__))


async def list_all_tools(client: Any) -> list[ToolInfo]:
    tools: list[ToolInfo] = []
    cursor = None
    for _ in range(20):  # a paginator that never ends must not hang the start
        page = await client.list_tools(cursor=cursor) if cursor else await client.list_tools()
        tools.extend(_tool_info(t) for t in page.tools)
        cursor = page.next_cursor
        if not cursor or len(tools) >= MAX_TOOLS:
            break
    return tools[:MAX_TOOLS]


def server_label(client: Any) -> str:
    info = getattr(client, "server_info", None)
    return f"{info.name} {info.version}".strip() if info is not None else ""


async def probe(server: ServerConfig, profile: str, environ: Any, errlog: Any,
                timeout: float = CONNECT_TIMEOUT) -> CacheEntry:
    """Connect once, list the tools, disconnect (``mcp add``). Never raises but cancellation."""
    try:
        async with asyncio.timeout(timeout):
            async with make_client(server, profile, environ, errlog) as client:
                tools = await list_all_tools(client)
                return CacheEntry(tools=tools, server_info=server_label(client))
    except TimeoutError:
        return CacheEntry(error=f"no answer within {timeout:.0f} s")
    except Exception as exc:  # noqa: BLE001 -- reported, the entry is kept
        return CacheEntry(error=describe_error(exc))


class Connection:
    """A server's live connection (see the module doc)."""

    def __init__(self, server: ServerConfig, profile: str, environ: Any, log_dir: Path | None,
                 cached: CacheEntry | None = None,
                 persist: Callable[[], bool] = lambda: True) -> None:
        self.server = server
        self.profile = profile
        self.environ = environ
        self.log_path = log_dir / f"{server.name}.stderr" if log_dir is not None else None
        self.stderr = StderrSink(self.log_path, persist)
        self._attempt = 0  # which start the stream watch belongs to
        self.state = "stopped" if server.enabled else "disabled"
        self.tools: list[ToolInfo] = list(cached.tools) if cached else []
        self.last_error: str | None = cached.error if cached else None
        self.server_info = cached.server_info if cached else ""
        self.restarts = 0
        self.client: Any = None
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()  # set while ready, and once it is over (failed, stopped)
        self._attempted = asyncio.Event()  # set after the first attempt, ready or not
        self._lost = asyncio.Event()
        self._closing = False
        self.on_change: Any = None  # called (no arguments) when state/tools change

    # ------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Start the owner task (no-op if running or disabled)."""
        if not self.server.enabled or (self._task is not None and not self._task.done()):
            return
        self._closing = False
        self._ready.clear()
        self._attempted.clear()
        self._task = asyncio.get_running_loop().create_task(self._own(), name=f"mcp:{self.server.name}")

    async def wait_ready(self, timeout: float = CONNECT_TIMEOUT, first_attempt: bool = False) -> bool:
        """Until ready (or, ``first_attempt``, until the first try is over) or ``timeout``."""
        if self._task is None:
            return False
        event = self._attempted if first_attempt else self._ready
        done = asyncio.ensure_future(event.wait())
        try:
            await asyncio.wait({done, self._task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            done.cancel()
        return self.state == "ready"

    async def stop(self) -> None:
        self._closing = True
        self._lost.set()
        task, self._task = self._task, None
        if task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(task), timeout=10)
            except (TimeoutError, asyncio.CancelledError):
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            except Exception:  # noqa: BLE001, S110 -- the owner already reported it as last_error
                pass
        if self.state != "disabled":
            self._set("stopped")

    def _set(self, state: str) -> None:
        self.state = state
        if self.on_change is not None:
            with contextlib.suppress(Exception):
                self.on_change()

    async def _own(self) -> None:
        failures = 0
        while not self._closing:
            self._lost = asyncio.Event()
            self._ready.clear()
            self._set("starting" if failures == 0 else "restarting")
            self._attempt += 1
            attempt, up_since = self._attempt, None
            try:
                with self.stderr.open() as errlog:
                    client = make_client(self.server, self.profile, self.environ, errlog,
                                         on_end=functools.partial(self._stream_ended, attempt))
                    async with asyncio.timeout(CONNECT_TIMEOUT):
                        await client.__aenter__()
                    try:
                        async with asyncio.timeout(CONNECT_TIMEOUT):
                            self.tools = await list_all_tools(client)
                        self.server_info = server_label(client)
                        self.client, self.last_error = client, None
                        up_since = asyncio.get_running_loop().time()
                        self._set("ready")
                        self._ready.set()
                        self._attempted.set()
                        await self._lost.wait()
                    finally:
                        self.client = None
                        self._ready.clear()
                        await client.__aexit__(None, None, None)
            except asyncio.CancelledError:
                raise
            except TimeoutError:
                self.last_error = f"no answer within {CONNECT_TIMEOUT:.0f} s"
            except Exception as exc:  # noqa: BLE001 -- the server's fault: shown, then retried
                self.last_error = describe_error(exc)
                log.info("MCP server %s: %s", self.server.name, self.last_error)
            self._attempted.set()
            if self._closing:
                break
            if up_since is not None and asyncio.get_running_loop().time() - up_since >= STABLE_AFTER:
                failures = 0
            failures += 1
            self.restarts += 1
            if failures > MAX_RESTARTS:
                self._set("failed")
                self._ready.set()
                return
            self._set("restarting")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closed_wait(),
                                       timeout=min(BACKOFF_MAX, BACKOFF_START * 2.0 ** (failures - 1)))
        self._ready.set()

    def _stream_ended(self, attempt: int) -> None:
        """The server's stream ended while it was ready: it exited (idle, or mid-call).
        The owner reaps it and restarts it now, in the background, with the backoff."""
        if self._closing or attempt != self._attempt or self.state != "ready":
            return  # our own stop, or a loss already handled
        self.last_error = "the server exited (its output stream ended)"
        log.info("MCP server %s exited; restarting", self.server.name)
        self.client = None
        self._ready.clear()
        self._set("restarting")
        self._lost.set()

    async def _closed_wait(self) -> None:
        while not self._closing:
            await asyncio.sleep(0.1)

    def stderr_tail(self, limit: int = STDERR_TAIL) -> str:
        return self.stderr.tail(limit)

    # ------------------------------------------------------------ requests
    async def _client(self) -> Any:
        if self.client is None:
            self.start()
            await self.wait_ready()
        if self.client is None:
            raise McpCallError(f"MCP server '{self.server.name}' is {self.state}"
                               + (f": {self.last_error}" if self.last_error else ""))
        return self.client

    def _lost_connection(self, exc: BaseException, lost: asyncio.Event) -> bool:
        """``lost`` is the event of the start the call used: a late error must not end the next."""
        text = describe_error(exc).lower()
        if "connection closed" in text or "closed" in text and "stream" in text:
            self.last_error = f"the server closed the connection ({describe_error(exc)})"
            if self.client is not None and lost is self._lost:
                self.client = None
                self._ready.clear()
                self._set("restarting")
            lost.set()  # the owner reaps it and reconnects with backoff
            return True
        return False

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        client = await self._client()
        lost = self._lost
        try:
            return await client.call_tool(name, arguments, read_timeout_seconds=self.server.timeout)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if self._lost_connection(exc, lost):
                raise McpCallError(f"the MCP server '{self.server.name}' stopped during the call "
                                   "(it will be restarted); the call may or may not have had an "
                                   "effect") from exc
            if "timed out" in describe_error(exc).lower():
                raise McpCallError(f"no answer from '{self.server.name}' within "
                                   f"{self.server.timeout:.0f} s") from exc
            raise McpCallError(describe_error(exc)) from exc

    async def request(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """list_resources, read_resource, list_prompts, get_prompt (the /mcp command)."""
        client = await self._client()
        lost = self._lost
        try:
            return await getattr(client, method)(*args, **kwargs)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._lost_connection(exc, lost)
            raise McpCallError(describe_error(exc)) from exc
