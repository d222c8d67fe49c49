"""The MCP servers of one profile in one process.

::

    manager = attach(services)          # reads config.toml; starts nothing
    manager.start_all()                 # in the running loop, in the background
    await manager.wait_started(10)      # ``ask``: before the first request
    manager.tool_specs()                # for ToolRegistry (agent/tools/registry.py)
    await manager.aclose()              # quit / end of ask: no process left behind

It lives in the run's session state (``services.session.mcp``) so the tool
registry finds it without an import of the SDK; with no server configured
:func:`attach` returns None and costs one TOML table lookup. Each successful
start refreshes the tool cache (:mod:`agenttui.mcp.cache`) so ``mcp list``
and the next start show the tools at once.

Incognito: while the services are incognito (``ask --incognito``) or
``private()`` says so (the app sets it to "the chat is incognito" --
servers started before keep running), nothing is written under the data
dir: no cache refresh, stderr to memory only (:mod:`agenttui.mcp.stderr`).
Checked at each write, so it follows the app going in and out.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agenttui.mcp.cache import CacheEntry, cache_key, read_all, write
from agenttui.mcp.config import McpConfig, ServerConfig, load
from agenttui.mcp.connection import Connection

if TYPE_CHECKING:
    from agenttui.bootstrap import Services



class McpManager:
    def __init__(self, services: Services, config: McpConfig) -> None:
        self.services = services
        self.config = config
        self.profile = services.profile_name
        cached = read_all(services.paths)
        self.private: Callable[[], bool] = lambda: False  # the app: "the chat is incognito"
        self.log_dir = services.paths.data_dir / "mcp" / "logs" / self.profile
        self.connections: dict[str, Connection] = {
            name: Connection(server, self.profile, services.environ, self.log_dir,
                             cached.get(cache_key(server.scope, self.profile, name)),
                             persist=lambda: self.persist)
            for name, server in config.servers.items()
        }
        for connection in self.connections.values():
            connection.on_change = self._changed(connection)
        self.listeners: list[Any] = []  # callables(name) told of state changes (the MCP screen)
        self.started = False  # start_all ran (the /mcp screen may attach one that never did)

    @property
    def persist(self) -> bool:
        """May MCP write under the data dir now (module doc)?"""
        from agenttui.core.incognito import is_incognito

        if is_incognito(self.services):
            return False
        try:
            return not self.private()
        except Exception:  # noqa: BLE001 -- in doubt, write nothing
            return False

    def _changed(self, connection: Connection) -> Any:
        def changed() -> None:
            if self.persist and connection.state in ("ready", "failed"):
                entry = CacheEntry(tools=list(connection.tools), error=connection.last_error,
                                   server_info=connection.server_info)
                key = cache_key(connection.server.scope, self.profile, connection.server.name)
                # in a thread: the file lock may wait on another agenttui process, the UI must not
                future = asyncio.get_running_loop().run_in_executor(
                    None, write, self.services.paths, key, entry)
                future.add_done_callback(lambda f: f.cancelled() or f.exception())  # a cache is never worth a failure
            for listener in list(self.listeners):
                with contextlib.suppress(Exception):
                    listener(connection.server.name)
        return changed

    @property
    def servers(self) -> list[ServerConfig]:
        return [c.server for c in self.connections.values()]

    def start_all(self) -> None:
        self.started = True
        for connection in self.connections.values():
            connection.start()

    async def sync(self, config: McpConfig) -> list[str]:
        """``config`` read again (config.toml changed while the app runs: ``agenttui mcp add``
        in another shell): a server it names that this run has none for is added and started,
        one it no longer names is stopped and dropped; the others are left as they are (their
        enable switch goes through :meth:`set_enabled`). The names started."""
        cached = read_all(self.services.paths)
        gone = [name for name in self.connections if name not in config.servers]
        for name in gone:
            await self.connections.pop(name).stop()
        added = []
        for name, server in config.servers.items():
            if name in self.connections:
                continue
            connection = Connection(server, self.profile, self.services.environ, self.log_dir,
                                    cached.get(cache_key(server.scope, self.profile, name)),
                                    persist=lambda: self.persist)
            connection.on_change = self._changed(connection)
            self.connections[name] = connection
            connection.start()
            added.append(name)
        self.config = config
        for name in [*gone, *added]:
            for listener in list(self.listeners):
                with contextlib.suppress(Exception):
                    listener(name)
        return added

    async def wait_started(self, timeout: float) -> None:
        """Until every enabled server is ready or has failed once (``ask``)."""
        waits = [c.wait_ready(timeout, first_attempt=True) for c in self.connections.values()
                 if c.server.enabled]
        if waits:
            await asyncio.gather(*waits, return_exceptions=True)

    async def aclose(self) -> None:
        await asyncio.gather(*(c.stop() for c in self.connections.values()), return_exceptions=True)

    def tool_specs(self) -> list[Any]:
        from agenttui.mcp.bridge import specs_for

        out: list[Any] = []
        for connection in self.connections.values():
            # cached tools count until the server has failed for good (a call then waits for it)
            if connection.server.enabled and connection.state not in ("failed", "disabled"):
                out.extend(specs_for(connection))
        return out

    async def set_enabled(self, name: str, enabled: bool) -> None:
        """Enable/disable in this profile (written to config.toml) and start/stop now."""
        from agenttui.mcp.config import servers_table, update

        connection = self.connections[name]
        server = connection.server

        def change(mcp: dict[str, Any]) -> None:
            if server.scope == "profile":
                entry = servers_table(mcp, "profile", self.profile).get(name)
                if isinstance(entry, dict):
                    if enabled:
                        entry.pop("enabled", None)
                    else:
                        entry["enabled"] = False
                return
            here = mcp.setdefault("profiles", {}).setdefault(self.profile, {})
            disabled = [d for d in here.get("disabled", []) if d != name]
            if not enabled:
                disabled.append(name)
            if disabled:
                here["disabled"] = disabled
            else:
                here.pop("disabled", None)

        await asyncio.to_thread(update, self.services.paths, change)
        server.enabled = enabled
        if enabled:
            connection.state = "stopped"
            connection.start()
        else:
            await connection.stop()
            connection.state = "disabled"
            connection._set("disabled")


def attach(services: Services) -> McpManager | None:
    """The manager of this run (``services.session.mcp``, made on first call); None when no
    server is configured."""
    existing = services.session.mcp
    if existing is not None:
        return existing
    config = load(services.paths, services.profile_name)
    if not config.servers:
        return None
    manager = services.session.mcp = McpManager(services, config)
    return manager


def attached(services: Services) -> McpManager | None:
    """The manager if one was attached (never reads the config)."""
    return services.session.mcp


async def detach(services: Services) -> None:
    manager, services.session.mcp = services.session.mcp, None
    if manager is not None:
        await manager.aclose()
