"""``agenttui mcp add|list|remove|serve``.

* ``mcp add NAME [--scope profile|user] [--env K=V]... [--cwd DIR] -- COMMAND [ARGS...]``
  and ``mcp add NAME --url URL [--header K=V]...`` write the entry to
  config.toml (:mod:`agenttui.mcp.config`), then connect once to check it and
  cache its tool list. The scope defaults to ``profile`` (the profile in use
  here, as Claude Code's ``local`` default): a server added in one project
  does not appear in every other one; ``--scope user`` shares it.
  A name already used in that scope is refused (remove it first). A check
  that fails keeps the entry (the server may need something first: a login,
  a network) and exits 1 saying so; ``--no-check`` skips it.
* Values that look like credentials go to the keyring (``@keyring`` in the
  file); without a keyring they are refused, with the ``${VAR}`` alternative.
  No value of ``env`` or ``headers`` is ever printed, by any command.
* ``mcp list [--json]``: the servers this profile uses, their state from the
  last connection (tools, last error), their scope and target.
* ``mcp remove NAME [--scope ...]``: the entry, its keyring secrets, its cache.
* ``mcp serve [--read-only]``: agenttui as a stdio MCP server (:mod:`agenttui.mcp.serve`).
"""

from __future__ import annotations

import argparse
import sys

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing before the command runs
if TYPE_CHECKING:
    from typing import Any

    from agenttui.bootstrap import Services
    from agenttui.core.models import Scope


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("mcp", help="MCP servers: add, list, remove; serve memory to other agents")
    sub = parser.add_subparsers(dest="mcp_command", metavar="SUBCOMMAND", required=True,
                                parser_class=_DashDashParser)
    add = sub.add_parser("add", help="add a server: NAME -- COMMAND [ARGS...], or NAME --url URL",
                         usage="agenttui mcp add NAME [options] -- COMMAND [ARGS...]  |  "
                               "agenttui mcp add NAME --url URL [--header K=V]...")
    add.add_argument("name", metavar="NAME")
    add.add_argument("--scope", choices=("profile", "user"), default="profile",
                     help="profile (default): only the profile in use here; user: every profile")
    add.add_argument("--url", metavar="URL", default=None, help="a streamable HTTP server")
    add.add_argument("--header", metavar="K=V", action="append", default=[], help="HTTP header (repeatable)")
    add.add_argument("--env", metavar="K=V", action="append", default=[],
                     help="environment variable for a stdio server (repeatable; ${VAR} is expanded at start)")
    add.add_argument("--cwd", metavar="DIR", default=None, help="working directory of a stdio server")
    add.add_argument("--approve", metavar="TOOL", action="append", default=[],
                     help="a tool that runs without asking ('*' = all; repeatable)")
    add.add_argument("--trust-read-only", action="store_true",
                     help="tools the server marks readOnlyHint run without asking")
    add.add_argument("--timeout", type=float, default=None, metavar="S", help="seconds one call may take (60)")
    add.add_argument("--no-check", action="store_true", help="do not connect to check it now")
    add.set_defaults(command_line=[])
    add.set_defaults(handler=run_add)
    listing = sub.add_parser("list", help="servers, state, tools, last error")
    listing.add_argument("--json", action="store_true", help="as JSON")
    listing.set_defaults(handler=run_list)
    remove = sub.add_parser("remove", help="remove a server (and its keyring secrets)")
    remove.add_argument("name", metavar="NAME")
    remove.add_argument("--scope", choices=("profile", "user"), default=None)
    remove.set_defaults(handler=run_remove)
    serve = sub.add_parser("serve", help="run agenttui as a stdio MCP server for this profile's memory")
    serve.add_argument("--read-only", action="store_true", help="offer only the reading tools")
    serve.set_defaults(handler=run_serve)


class _DashDashParser(argparse.ArgumentParser):
    """Everything after the first ``--`` is the server's command line, verbatim
    (argparse alone would match it against NAME, or take its options as ours)."""

    def parse_known_args(self, args=None, namespace=None):
        args = list(sys.argv[1:] if args is None else args)
        tail: list[str] | None = None
        if "--" in args:
            cut = args.index("--")
            args, tail = args[:cut], args[cut + 1:]
        namespace, extras = super().parse_known_args(args, namespace)
        if tail is not None:
            if "command_line" not in vars(namespace):
                extras = [*extras, "--", *tail]
            else:
                namespace.command_line = tail
        return namespace, extras


def _pairs(values: list[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for value in values:
        key, sep, rest = value.partition("=" if what == "env" else ("=" if "=" in value else ":"))
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"--{what} {value.split('=')[0]!r}: expected K=V")
        out[key] = rest.strip() if what == "header" else rest
    return out


def run_add(args: argparse.Namespace) -> int:
    from agenttui.cli.common import fail, open_services, warn
    from agenttui.mcp.config import (
        KEYRING,
        McpConfigError,
        ServerConfig,
        check_name,
        keyring_user,
        looks_secret,
        secret_in_target,
        servers_table,
        store_secret,
        update,
    )

    command = list(args.command_line or [])
    try:
        check_name(args.name)
        env, headers = _pairs(args.env, "env"), _pairs(args.header, "header")
    except (McpConfigError, ValueError) as exc:
        return fail(str(exc), code=2)
    if bool(args.url) == bool(command):
        return fail("give either -- COMMAND [ARGS...] (stdio) or --url URL (HTTP); usage: "
                    "agenttui mcp add NAME -- mcp-server-time", code=2)
    if args.url and (env or args.cwd):
        return fail("--env and --cwd are for stdio servers; an HTTP server takes --header", code=2)
    if command and headers:
        return fail("--header is for HTTP servers (--url); a stdio server takes --env", code=2)
    if args.timeout is not None and not 0 < args.timeout <= 3600:
        return fail("--timeout must be in (0, 3600] seconds", code=2)
    services = open_services(args)
    if services is None:
        return 1
    try:
        profile = services.profile_name
        if command and "/" in command[0] and not command[0].startswith("/"):
            from pathlib import Path

            # a relative path would break when agenttui runs from another directory

            command[0] = str(Path(command[0]).absolute())
        server = ServerConfig(name=args.name, scope=args.scope, url=args.url,
                              command=command[0] if command else None, args=command[1:],
                              cwd=args.cwd, approve=list(args.approve),
                              trust_read_only=bool(args.trust_read_only))
        if args.timeout is not None:
            server.timeout = float(args.timeout)
        if where := secret_in_target(server):
            return fail(f"{where} looks like a secret; it is not written to config.toml. Put it in an "
                        "environment variable and write '${NAME}' there instead (single quotes), or pass "
                        "it with --env/--header, which keep secrets in the keyring; nothing was added")
        secret_refs: list[tuple[str, str, str]] = []
        for kind, values in (("env", env), ("header", headers)):
            for key, value in values.items():
                if looks_secret(key, value):
                    secret_refs.append((kind, key, value))
                    values[key] = KEYRING
        server.env, server.headers = env, headers
        from agenttui.core.config.file import ConfigError
        from agenttui.mcp.config import read_raw

        try:
            existing = servers_table(read_raw(services.paths), args.scope, profile)
        except ConfigError as exc:
            return fail(f"{exc}; nothing was added")
        if args.name in existing:
            where = "user scope" if args.scope == "user" else f"profile {profile!r}"
            return fail(f"an MCP server named {args.name!r} already exists in {where}; "
                        f"remove it first: agenttui mcp remove {args.name} --scope {args.scope}")
        if secret_refs:
            from agenttui.core.config.api_key import NoKeyringBackend, SecretsError

            try:
                for kind, key, value in secret_refs:
                    store_secret(keyring_user(args.scope, profile, args.name, kind, key), value)
            except NoKeyringBackend:
                names = ", ".join(key for _, key, _ in secret_refs)
                return fail(f"{names} looks like a secret and there is no keyring to keep it in; "
                            "it is not written to config.toml. Pass it from the environment instead: "
                            f"--{secret_refs[0][0]} {secret_refs[0][1]}='${{{_var(secret_refs[0][1])}}}' "
                            "(single quotes) and export that variable where agenttui runs; "
                            "nothing was added")
            except SecretsError as exc:
                return fail(f"{exc}; nothing was added")
        update(services.paths, lambda mcp: servers_table(mcp, args.scope, profile).__setitem__(
            args.name, server.to_toml()))
        kept = f" ({len(secret_refs)} secret value(s) in the keyring)" if secret_refs else ""
        where = "" if args.scope == "user" else " " + repr(profile)
        print(f"added MCP server {args.name!r} ({args.scope} scope{where}){kept}", file=sys.stderr)
        if args.no_check:
            return 0
        entry = _check(services, server)
        if entry.error:
            warn(f"the entry is saved, but connecting failed: {entry.error}")
            return 1
        names = ", ".join(t.name for t in entry.tools) or "none"
        print(f"connected{' to ' + entry.server_info if entry.server_info else ''}: "
              f"{len(entry.tools)} tool(s): {names}", file=sys.stderr)
        return 0
    finally:
        services.close()


def _var(key: str) -> str:
    import re

    return re.sub(r"[^A-Za-z0-9_]", "_", key).upper() or "SECRET"


def _check(services: Services, server):
    """Connect once (stderr to a temp file, its last line added to an error) and cache the tools."""
    import asyncio
    import tempfile

    from agenttui.core.visible_text import inert_text
    from agenttui.mcp.cache import cache_key, write
    from agenttui.mcp.connection import probe

    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        entry = asyncio.run(probe(server, services.profile_name, services.environ, errlog))
        if entry.error:
            errlog.seek(0)
            lines = [line for line in errlog.read().splitlines() if line.strip()]
            if lines:
                entry.error += f" (stderr: {inert_text(lines[-1][:300])})"
    write(services.paths, cache_key(server.scope, services.profile_name, server.name), entry)
    return entry


def _rows(services: Services) -> tuple[list[dict[str, Any]], list[str]]:
    from agenttui.mcp.cache import cache_key, read_all
    from agenttui.mcp.config import load
    from agenttui.security import redact_secrets

    config = load(services.paths, services.profile_name)
    cached = read_all(services.paths)
    rows = []
    for server in config.servers.values():
        entry = cached.get(cache_key(server.scope, services.profile_name, server.name))
        if not server.enabled:
            state = "disabled"
        elif entry is None:
            state = "not checked"
        else:
            state = "error" if entry.error else "ok"
        rows.append({
            "name": server.name, "scope": server.scope, "transport": server.transport,
            "target": redact_secrets(server.target()), "enabled": server.enabled, "state": state,
            "tools": [t.name for t in entry.tools] if entry else [],
            "last_error": entry.error if entry else None,
            "checked": entry.checked if entry else None,
            "env": sorted(server.env), "headers": sorted(server.headers),
            "approve": server.approve, "trust_read_only": server.trust_read_only,
        })
    return rows, config.warnings


def run_list(args: argparse.Namespace) -> int:
    from agenttui.cli.common import inert, json_text, open_services, warn

    services = open_services(args)
    if services is None:
        return 1
    try:
        rows, warnings = _rows(services)
    finally:
        services.close()
    for warning in warnings:
        warn(warning)
    if args.json:
        print(json_text(rows, indent=2))
        return 0
    if not rows:
        print("no MCP servers; add one: agenttui mcp add NAME -- COMMAND [ARGS...]", file=sys.stderr)
        return 0
    for row in rows:
        print(inert(f"{row['name']}  [{row['scope']}, {row['transport']}]  {row['state']}  {row['target']}"))
        if row["tools"]:
            print(inert("  tools: " + ", ".join(row["tools"])))
        if row["last_error"]:
            print(inert(f"  last error: {row['last_error']}"))
        secrets = [f"env {k}" for k in row["env"]] + [f"header {k}" for k in row["headers"]]
        if secrets:
            print(inert("  set: " + ", ".join(secrets) + " (values not shown)"))
    return 0


def run_remove(args: argparse.Namespace) -> int:
    from agenttui.cli.common import fail, open_services
    from agenttui.core.config.file import ConfigError
    from agenttui.mcp.cache import cache_key, write
    from agenttui.mcp.config import (
        delete_secrets,
        parse_server,
        read_raw,
        servers_table,
        update,
    )

    services = open_services(args)
    if services is None:
        return 1
    try:
        profile = services.profile_name
        try:
            raw = read_raw(services.paths)
        except ConfigError as exc:
            return fail(f"{exc}; nothing was removed")
        scopes: list[Scope] = [s for s in ("profile", "user") if args.scope in (None, s)
                  and args.name in servers_table(_copy(raw), s, profile)]
        if not scopes:
            return fail(f"no MCP server named {args.name!r} here (see agenttui mcp list)")
        if len(scopes) > 1:
            return fail(f"{args.name!r} exists in both the profile and the user scope; "
                        "say which: --scope profile or --scope user", code=2)
        scope = scopes[0]
        server, _ = parse_server(args.name, servers_table(_copy(raw), scope, profile)[args.name], scope, "")

        def change(mcp: dict) -> None:
            servers_table(mcp, scope, profile).pop(args.name, None)
            _prune(mcp, profile)

        update(services.paths, change)
        if server is not None:
            delete_secrets(server, profile)
        write(services.paths, cache_key(scope, profile, args.name), None)
        print(f"removed MCP server {args.name!r} ({scope} scope)", file=sys.stderr)
        return 0
    finally:
        services.close()


def _copy(raw: dict) -> dict:
    import copy

    return copy.deepcopy(raw)


def _prune(mcp: dict, profile: str) -> None:
    """Drop tables the removal left empty (a clean file for the next reader)."""
    if not mcp.get("servers"):
        mcp.pop("servers", None)
    here = mcp.get("profiles", {}).get(profile)
    if isinstance(here, dict):
        if not here.get("servers"):
            here.pop("servers", None)
        if not here:
            mcp["profiles"].pop(profile, None)
    if not mcp.get("profiles"):
        mcp.pop("profiles", None)


def run_serve(args: argparse.Namespace) -> int:
    from agenttui.cli.common import open_services

    services = open_services(args)
    if services is None:
        return 1
    try:
        from agenttui.mcp.serve import serve

        serve(services, read_only=bool(args.read_only))
        return 0
    finally:
        services.close()
