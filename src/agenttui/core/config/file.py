"""Load and save ``config.toml`` (docs/storage.md#configuration).

Decisions recorded here:

* **A broken file is never written over.** :func:`load_settings` reports a
  :class:`ConfigError` naming file, line and column and returns defaults;
  :func:`save_settings` *refuses* (raises :class:`ConfigError`) while the
  file on disk fails to parse, so the user's text survives byte for byte until
  they fix it. (Moving it aside silently would hide their edits.)
* **Unknown keys warn, wrong types warn, values out of range warn** (the key,
  the value and the allowed range, from :mod:`agenttui.core.config.schema`)
  and fall back to that key's default; nothing here raises on content.
* **Saving writes only what differs from the defaults**, plus every key the
  file already had (an explicit choice stays explicit) and unknown keys the
  file already had (a newer version's keys, or a typo the warning names, are
  not destroyed). The file's own text is edited, not rewritten
  (:mod:`agenttui.core.config.toml_edit`): comments, order and formatting survive.
* **Never a secret**: unknown keys that name a credential (``api_key``,
  ``token``, ``password``, ``secret``) are dropped on save (with a warning on
  load), and string values pass through :func:`agenttui.security.redact_secrets`.

The validation helpers (:func:`coerce_section`) are shared with
:mod:`agenttui.core.config.profiles`, whose ``[memory]`` overrides follow the same rules.
"""

from __future__ import annotations

import dataclasses
import math
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from agenttui.core.config.paths import Paths
from agenttui.core.config.schema import range_problem, spec_of
from agenttui.core.config.settings import Settings

# Names of credentials. Only *unknown* keys are checked: no Settings field holds
# a secret, and e.g. ``window_tokens`` must not be mistaken for one.
_SECRET_KEY = re.compile(r"(?i)(^|[_-])(api[_-]?key|access[_-]?key|secret([_-]?key)?|token|"
                         r"password|passwd|credentials?)$")
_LINE_COL = re.compile(r"at line (\d+), column (\d+)")


class ConfigError(Exception):
    """config.toml could not be parsed (or would be overwritten while broken)."""

    def __init__(self, path: Path, detail: str, line: int | None = None,
                 column: int | None = None) -> None:
        self.path = path
        self.detail = detail
        self.line = line
        self.column = column
        where = f"{path}, line {line}, column {column}" if line is not None else str(path)
        super().__init__(f"{where}: {detail}")


@dataclass
class LoadedSettings:
    settings: Settings
    warnings: list[str] = field(default_factory=list)
    error: ConfigError | None = None


# --------------------------------------------------------------------------
# Type checking of TOML values against the dataclass annotations
# --------------------------------------------------------------------------
_MISSING = object()


def _check(value: Any, hint: Any) -> Any:
    """Return ``value`` converted to ``hint`` or ``_MISSING`` if it does not fit."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        for arm in typing.get_args(hint):
            if arm is type(None):
                continue
            checked = _check(value, arm)
            if checked is not _MISSING:
                return checked
        return _MISSING
    if origin is Literal:  # by type too: 1 == True, but `semantic = 1` is not `true`
        return next((a for a in typing.get_args(hint) if a == value and type(a) is type(value)), _MISSING)
    if origin is list:
        (item_hint,) = typing.get_args(hint) or (Any,)
        if not isinstance(value, list):
            return _MISSING
        items = [_check(v, item_hint) for v in value]
        return _MISSING if any(i is _MISSING for i in items) else items
    if origin is dict:
        _key_hint, value_hint = typing.get_args(hint) or (str, Any)
        if not isinstance(value, dict):
            return _MISSING
        out = {}
        for k, v in value.items():
            checked = _check(v, value_hint)
            if checked is _MISSING:
                return _MISSING
            out[str(k)] = checked
        return out
    if hint is Any:
        return value
    if hint is bool:
        return value if isinstance(value, bool) else _MISSING
    if hint is int:
        return value if isinstance(value, int) and not isinstance(value, bool) else _MISSING
    if hint is float:
        if not isinstance(value, int | float) or isinstance(value, bool):
            return _MISSING
        try:
            return float(value)
        except OverflowError:  # an integer of 400 digits: out of any range, said so by the caller
            return math.inf if value > 0 else -math.inf
    if hint is str:
        return value if isinstance(value, str) else _MISSING
    return _MISSING


def _describe(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe(a) for a in typing.get_args(hint) if a is not type(None))
    if origin is list:
        return f"a list of {_describe(typing.get_args(hint)[0])}"
    if origin is dict:
        return "a table"
    return {bool: "true or false", int: "an integer", float: "a number",
            str: "a string"}.get(hint, str(hint))


def _clip(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:60]}… ({len(text)} characters)"


def coerce_section(cls: type, data: dict[str, Any], where: str,
                   base: Any | None = None, prefix: str = "") -> tuple[Any, list[str]]:
    """Build ``cls`` from ``data`` (a TOML table); bad entries warn and keep defaults.

    ``base`` is the instance whose values stand in for missing keys (defaults
    when ``None``). Nested dataclass fields recurse into sub-tables; ``prefix``
    is the dotted table name used in messages (``memory.``).
    """
    hints = typing.get_type_hints(cls)
    current = base if base is not None else cls()
    kwargs: dict[str, Any] = {}
    warnings: list[str] = []
    known = {f.name for f in dataclasses.fields(cls)}
    for key in data:
        if key not in known:
            hint = " (secrets belong in the keyring, not the config)" if _SECRET_KEY.search(key) else ""
            warnings.append(f"{where}: unknown key {prefix + key!r} ignored{hint}")
    for f in dataclasses.fields(cls):
        default = getattr(current, f.name)
        if f.name not in data:
            kwargs[f.name] = default
            continue
        raw = data[f.name]
        hint = hints[f.name]
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            if not isinstance(raw, dict):
                warnings.append(f"{where}: {prefix + f.name!r} must be a table; using defaults")
                kwargs[f.name] = default
                continue
            kwargs[f.name], sub = coerce_section(hint, raw, where, default, f"{prefix}{f.name}.")
            warnings.extend(sub)
            continue
        checked = _check(raw, hint)
        if checked is _MISSING:
            warnings.append(
                f"{where}: {prefix + f.name!r} must be {_describe(hint)}, "
                f"got {_clip(raw)}; using {default!r}")
            kwargs[f.name] = default
        elif problem := range_problem(prefix + f.name, checked, spec_of(f), raw):
            warnings.append(f"{where}: {problem}; using {default!r}")
            kwargs[f.name] = default
        else:
            kwargs[f.name] = checked
    return cls(**kwargs), warnings


# --------------------------------------------------------------------------
# Load / save
# --------------------------------------------------------------------------
def parse_toml_file(path: Path) -> dict[str, Any]:
    """Parse ``path``; a syntax error becomes :class:`ConfigError` with line/column."""
    import tomllib  # lazy: its regexes cost ~10 ms to import; no config file, no cost

    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(path, f"cannot read: {exc.strerror or exc}") from exc
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(path, f"not UTF-8 text (byte {exc.start})") from exc
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)  # Python 3.14+ has attributes
        column = getattr(exc, "colno", None)
        message = str(exc)
        if line is None and (m := _LINE_COL.search(message)):
            line, column = int(m.group(1)), int(m.group(2))
        elif line is None and "end of document" in message:
            lines = raw.decode("utf-8").split("\n")
            line, column = len(lines), len(lines[-1]) + 1
        detail = getattr(exc, "msg", None) or re.sub(r"\s*\((at )?[^()]*\)\s*$", "", message)
        detail = detail.strip() or "invalid TOML"
        raise ConfigError(path, detail, line, column) from exc


def load_settings(paths: Paths) -> LoadedSettings:
    path = paths.config_file
    if not path.exists():
        return LoadedSettings(Settings())
    try:
        data = parse_toml_file(path)
    except ConfigError as exc:
        return LoadedSettings(Settings(), [], exc)
    data.pop("mcp", None)  # MCP servers: agenttui/mcp/config.py reads them; saving keeps the table
    settings, warnings = coerce_section(Settings, data, str(path))
    return LoadedSettings(settings, warnings)


def _to_toml(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return {f.name: _to_toml(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def _diff(current: dict[str, Any], defaults: dict[str, Any], existing: dict[str, Any],
          redact: Callable[[str], str]) -> dict[str, Any]:
    """Keys to write: changed from default, or already present in the file."""
    out: dict[str, Any] = {}
    for key, value in existing.items():  # unknown keys the user wrote survive
        if key not in current and not _SECRET_KEY.search(key):
            out[key] = value
    for key, value in current.items():
        if isinstance(value, dict) and isinstance(defaults.get(key), dict) and key != "keys":
            found = existing.get(key)
            prior = found if isinstance(found, dict) else {}
            sub = _diff(value, defaults[key], prior, redact)
            if sub:
                out[key] = sub
            continue
        if value is None:  # TOML has no null: unset means "not in the file"
            continue
        if value != defaults.get(key) or key in existing:
            out[key] = _redact_value(value, redact)
    return out


def _redact_value(value: Any, redact: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [_redact_value(v, redact) for v in value]
    if isinstance(value, dict):
        return {k: _redact_value(v, redact) for k, v in value.items()}
    return value


def save_settings(paths: Paths, settings: Settings) -> None:
    """Write ``settings`` to config.toml atomically (0600).

    Raises :class:`ConfigError` if the current file does not parse: we never
    replace text the user may still want to fix.
    """
    from agenttui.core.config.toml_edit import write_keeping_style
    from agenttui.core.files import locked
    from agenttui.security import redact_secrets

    path = paths.config_file
    with locked(path):
        existing: dict[str, Any] = {}
        if path.exists():
            try:
                existing = parse_toml_file(path)
            except ConfigError as exc:
                raise ConfigError(
                    path, f"{exc.detail} — not saving over a file that does not parse; "
                    "fix or remove it first", exc.line, exc.column) from exc
        document = _diff(_to_toml(settings), _to_toml(Settings()), existing, redact_secrets)
        write_keeping_style(path, document)
