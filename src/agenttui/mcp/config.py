"""MCP server entries in ``config.toml``.

Shape (user scope: every profile; profile scope: that profile only, and it
wins over a user entry of the same name)::

    [mcp.servers.time]                      # stdio
    command = "mcp-server-time"
    args = ["--local-timezone", "UTC"]
    env = { LOG_LEVEL = "info", GITHUB_TOKEN = "@keyring" }
    cwd = "~/src"

    [mcp.profiles.work.servers.docs]        # streamable HTTP, profile "work"
    url = "https://example.com/mcp"
    headers = { Authorization = "@keyring" }

    [mcp.profiles.work]
    disabled = ["time"]                     # a user server switched off here

Per server also: ``enabled`` (default true), ``approve`` (tool names that run
without asking; ``["*"]`` = all), ``trust_read_only`` (tools the server marks
``readOnlyHint`` run without asking; off by default because a server may lie),
``timeout`` (seconds one call may take, default 60).

Secrets: an ``env``/``headers`` value ``"@keyring"`` is read from the OS
keyring (service ``agenttui``, user ``mcp:<scope>:<server>:<env|header>:<KEY>``);
``${VAR}`` (in ``env``, ``headers``, ``args`` and ``url``) is replaced by the
environment variable ``VAR`` when the server starts. ``mcp add`` puts a value that
looks like a credential (by its name --
token, key, secret, password, authorization, cookie -- or by the secret
detectors) in the keyring, and refuses to write it to the file when there is
no keyring; a credential in the command's arguments or the URL is refused
(``${VAR}`` is the way there). Values are never printed, only the names.

The ``[mcp]`` table is this module's: :func:`agenttui.core.config.file.load_settings`
leaves it alone and :func:`~agenttui.core.config.file.save_settings` keeps it as
written (it keeps unknown tables). Edits go through :func:`update`, under the
same lock as the settings' saves.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from agenttui.core.config.paths import Paths

Scope = Literal["user", "profile"]
KEYRING = "@keyring"
SERVICE = "agenttui"
DEFAULT_TIMEOUT = 60.0
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
_SECRET_NAME = re.compile(r"(?i)(token|key|secret|passw|auth|cookie|credential|session|bearer|pat$)")
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


class McpConfigError(ValueError):
    """A bad server entry or name (the message says which and why)."""


def check_name(name: str) -> str:
    """Server names become part of tool names (``mcp__<server>__<tool>``): keep them short and plain."""
    if not _NAME.match(name) or "__" in name:
        raise McpConfigError(
            f"invalid MCP server name {name!r}: 1-32 letters, digits, '-' or '_' (not '__'), "
            "starting with a letter or digit")
    return name


@dataclass
class ServerConfig:
    name: str
    scope: Scope = "user"
    command: str | None = None
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    enabled: bool = True
    approve: list[str] = field(default_factory=list)
    trust_read_only: bool = False
    timeout: float = DEFAULT_TIMEOUT

    @property
    def transport(self) -> str:
        return "http" if self.url else "stdio"

    def target(self) -> str:
        """What it runs or reaches, for lists (no env/header values)."""
        if self.url:
            return self.url
        return " ".join([self.command or "", *self.args]).strip()

    def to_toml(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.url:
            out["url"] = self.url
            if self.headers:
                out["headers"] = dict(self.headers)
        else:
            out["command"] = self.command or ""
            if self.args:
                out["args"] = list(self.args)
            if self.env:
                out["env"] = dict(self.env)
            if self.cwd:
                out["cwd"] = self.cwd
        if not self.enabled:
            out["enabled"] = False
        if self.approve:
            out["approve"] = list(self.approve)
        if self.trust_read_only:
            out["trust_read_only"] = True
        if self.timeout != DEFAULT_TIMEOUT:
            out["timeout"] = self.timeout
        return out


def _str_map(value: Any, where: str, warnings: list[str]) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        warnings.append(f"{where} must be a table of strings; ignored")
        return {}
    return {str(k): v for k, v in value.items()}


def parse_server(name: str, data: Any, scope: Scope, where: str) -> tuple[ServerConfig | None, list[str]]:
    """One entry; a bad one is skipped with a warning (never fatal, as config.toml's keys)."""
    warnings: list[str] = []
    try:
        check_name(name)
    except McpConfigError as exc:
        return None, [f"{where}: {exc}; skipped"]
    if not isinstance(data, dict):
        return None, [f"{where}: must be a table; skipped"]
    server = ServerConfig(name=name, scope=scope)
    command, url = data.get("command"), data.get("url")
    if isinstance(url, str) and url.strip():
        server.url = url.strip()
        if "headers" in data:
            server.headers = _str_map(data["headers"], f"{where}.headers", warnings)
    elif isinstance(command, str) and command.strip():
        server.command = command.strip()
        args = data.get("args", [])
        if isinstance(args, list) and all(isinstance(a, str) for a in args):
            server.args = list(args)
        else:
            warnings.append(f"{where}.args must be a list of strings; ignored")
        if "env" in data:
            server.env = _str_map(data["env"], f"{where}.env", warnings)
        if isinstance(data.get("cwd"), str):
            server.cwd = data["cwd"]
    else:
        return None, [f"{where}: needs `command` (stdio) or `url` (HTTP); skipped"]
    for key, kind in (("enabled", bool), ("trust_read_only", bool)):
        if key in data:
            if isinstance(data[key], kind):
                setattr(server, key, data[key])
            else:
                warnings.append(f"{where}.{key} must be true or false; ignored")
    approve = data.get("approve", [])
    if isinstance(approve, list) and all(isinstance(a, str) for a in approve):
        server.approve = list(approve)
    else:
        warnings.append(f"{where}.approve must be a list of tool names; ignored")
    timeout = data.get("timeout", DEFAULT_TIMEOUT)
    if isinstance(timeout, int | float) and not isinstance(timeout, bool) and 0 < timeout <= 3600:
        server.timeout = float(timeout)
    else:
        warnings.append(f"{where}.timeout must be a number of seconds in (0, 3600]; using 60")
    return server, warnings


@dataclass
class McpConfig:
    servers: dict[str, ServerConfig]  # the effective set for one profile, by name
    warnings: list[str] = field(default_factory=list)
    disabled_here: list[str] = field(default_factory=list)  # user servers switched off in the profile


def _table(data: Any, *keys: str) -> dict[str, Any]:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def read_raw(paths: Paths) -> dict[str, Any]:
    """The ``[mcp]`` table of config.toml ({} when absent; a broken file raises ConfigError)."""
    from agenttui.core.config.file import parse_toml_file

    if not paths.config_file.exists():
        return {}
    return _table(parse_toml_file(paths.config_file), "mcp")


def effective(raw: dict[str, Any], profile: str, where: str = "config.toml") -> McpConfig:
    """The servers profile ``profile`` uses: user entries, then the profile's over them."""
    config = McpConfig({})
    for scope, table, prefix in (
        ("user", _table(raw, "servers"), "mcp.servers"),
        ("profile", _table(raw, "profiles", profile, "servers"), f"mcp.profiles.{profile}.servers"),
    ):
        for name, data in table.items():
            server, warnings = parse_server(str(name), data, scope, f"{where}: {prefix}.{name}")  # type: ignore[arg-type]
            config.warnings.extend(warnings)
            if server is not None:
                config.servers[server.name] = server
    disabled = _table(raw, "profiles", profile).get("disabled", [])
    if isinstance(disabled, list):
        config.disabled_here = [d for d in disabled if isinstance(d, str)]
        for name in config.disabled_here:
            if name in config.servers and config.servers[name].scope == "user":
                config.servers[name].enabled = False
    return config


def load(paths: Paths, profile: str) -> McpConfig:
    """Effective servers of ``profile``; a config.toml that does not parse gives none, with the reason."""
    from agenttui.core.config.file import ConfigError

    try:
        raw = read_raw(paths)
    except ConfigError as exc:
        return McpConfig({}, [f"MCP servers not loaded: {exc}"])
    return effective(raw, profile, str(paths.config_file))


def update(paths: Paths, change: Callable[[dict[str, Any]], None]) -> None:
    """Apply ``change`` to the ``[mcp]`` table and write config.toml atomically (the
    rest of the file as it was, its comments and order included: core/config/toml_edit.py)."""
    from agenttui.core.config.file import ConfigError, parse_toml_file
    from agenttui.core.config.toml_edit import write_keeping_style
    from agenttui.core.files import locked

    path = paths.config_file
    path.parent.mkdir(parents=True, exist_ok=True)
    with locked(path):
        document: dict[str, Any] = {}
        if path.exists():
            try:
                document = parse_toml_file(path)
            except ConfigError as exc:
                raise ConfigError(path, f"{exc.detail} — not saving over a file that does not "
                                  "parse; fix or remove it first", exc.line, exc.column) from exc
        mcp = document.get("mcp")
        if not isinstance(mcp, dict):
            mcp = {}
        change(mcp)
        if mcp:
            document["mcp"] = mcp
        else:
            document.pop("mcp", None)
        write_keeping_style(path, document)


def servers_table(mcp: dict[str, Any], scope: Scope, profile: str) -> dict[str, Any]:
    """The (created) table holding ``scope``'s servers inside an ``[mcp]`` table."""
    if scope == "user":
        return mcp.setdefault("servers", {})
    return mcp.setdefault("profiles", {}).setdefault(profile, {}).setdefault("servers", {})


# ---------------------------------------------------------------- secrets
def keyring_user(scope: Scope, profile: str, server: str, kind: str, key: str) -> str:
    where = "user" if scope == "user" else f"profile:{profile}"
    return f"mcp:{where}:{server}:{kind}:{key}"


def looks_secret(key: str, value: str) -> bool:
    """By its name (``GITHUB_TOKEN``, ``Authorization``) or by the secret detectors."""
    if not value or value == KEYRING or _VAR.fullmatch(value.strip()):
        return False
    if _SECRET_NAME.search(key):
        return True
    from agenttui.security import redact_secrets

    return redact_secrets(value) != value


def store_secret(user: str, value: str) -> None:
    """Into the keyring; :class:`agenttui.core.config.api_key.NoKeyringBackend` when there is none."""
    from agenttui.core.config.api_key import SecretsError, _require_backend

    _require_backend()
    import keyring

    try:
        keyring.set_password(SERVICE, user, value)
    except Exception as exc:
        raise SecretsError(f"the keyring refused to store an MCP secret: {exc}") from exc


def delete_secrets(server: ServerConfig, profile: str) -> None:
    """Best effort: the keyring entries of ``server``'s ``@keyring`` values."""
    refs = [("env", k) for k, v in server.env.items() if v == KEYRING]
    refs += [("header", k) for k, v in server.headers.items() if v == KEYRING]
    if not refs:
        return
    import contextlib

    import keyring

    for kind, key in refs:
        with contextlib.suppress(Exception):  # already gone, or no backend: nothing to remove
            keyring.delete_password(SERVICE, keyring_user(server.scope, profile, server.name, kind, key))


def resolve_values(server: ServerConfig, profile: str, environ: Any) -> tuple[dict[str, str], dict[str, str]]:
    """``env`` and ``headers`` with ``@keyring`` and ``${VAR}`` filled in, for the connection only.

    Raises :class:`McpConfigError` naming the missing entry (never its value)."""
    def one(kind: str, key: str, value: str) -> str:
        if value == KEYRING:
            found: str | None = None
            try:
                import keyring

                found = keyring.get_password(SERVICE, keyring_user(server.scope, profile, server.name, kind, key))
            except Exception as exc:
                raise McpConfigError(f"{kind} {key}: the keyring could not be read ({type(exc).__name__})") from exc
            if found is None:
                raise McpConfigError(f"{kind} {key} is kept in the keyring, but the keyring has no entry for it "
                                     f"(add the server again: agenttui mcp add {server.name} …)")
            return found

        def var(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in environ:
                raise McpConfigError(f"{kind} {key} uses ${{{name}}}, which is not set in the environment")
            return str(environ[name])

        return _VAR.sub(var, value)

    env = {k: one("env", k, v) for k, v in server.env.items()}
    headers = {k: one("header", k, v) for k, v in server.headers.items()}
    return env, headers


def expand_vars(value: str, environ: Any, where: str) -> str:
    """``${VAR}`` in an argument or URL, from the environment (a secret kept out of the file)."""
    def var(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in environ:
            raise McpConfigError(f"{where} uses ${{{name}}}, which is not set in the environment")
        return str(environ[name])

    return _VAR.sub(var, value)


def secret_in_target(server: ServerConfig) -> str | None:
    """Which argument (or the URL) holds what looks like a credential, if any."""
    from agenttui.security import redact_secrets

    parts = [("the URL", server.url)] if server.url else []
    parts += [(f"argument {n}", arg) for n, arg in enumerate(server.args, 1)]  # named, never quoted
    for label, value in parts:
        if value and not _VAR.fullmatch(value.strip()) and redact_secrets(value) != value:
            return label
    return None
