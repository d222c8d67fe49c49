"""``agenttui config set KEY VALUE``: one key of config.toml changed, nothing else.

VALUE is read as TOML when it is a TOML value of the key's type (``8``, ``true``,
``["a", "b"]``), else as the plain text (``config set model llama3.1:8b``), and must
pass the same checks as a loaded file (type, range, choices: the settings schema).
The file's text is edited in place (:mod:`agenttui.core.config.toml_edit`): only
that key's line changes. A value that looks like a secret is refused: keys belong
in the keyring (``agenttui key set``). An empty VALUE unsets an optional key.
"""

from __future__ import annotations

import contextlib
from typing import Any

from agenttui.core.config.file import ConfigError, coerce_section, parse_toml_file
from agenttui.core.config.paths import Paths
from agenttui.core.config.schema import Key, optional, schema_keys
from agenttui.core.config.settings import Settings


class ConfigValueError(ValueError):
    """The key is unknown or the value does not fit it (message: one line for the user)."""


def find(path: str) -> Key:
    keys = {key.path: key for key in schema_keys()}
    if path not in keys:
        import difflib

        close = difflib.get_close_matches(path, keys, n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else " (agenttui config show lists them)"
        raise ConfigValueError(f"unknown key {path!r}{hint}")
    return keys[path]


def parse(key: Key, text: str) -> Any:
    """The value ``text`` means for ``key`` (None: unset), or :class:`ConfigValueError`."""
    if text == "" and optional(key.hint):
        return None
    import tomllib

    candidates: list[Any] = []
    with contextlib.suppress(tomllib.TOMLDecodeError):
        candidates.append(tomllib.loads(f"v = {text}")["v"])
    candidates.append(text)
    problem = ""
    for value in candidates:
        data: dict[str, Any] = {key.name: value}
        _, warnings = coerce_section(Settings, {key.section: data} if key.section else data, "value")
        if not warnings:
            return value
        problem = problem or warnings[0].removeprefix("value: ").split("; using")[0]
    raise ConfigValueError(problem)


def set_value(paths: Paths, path: str, text: str) -> Any:
    """Write ``path`` = ``text`` into config.toml; returns the value written (None: unset)."""
    from agenttui.core.config.toml_edit import write_keeping_style
    from agenttui.core.files import locked
    from agenttui.security import redact_secrets

    key = find(path)
    value = parse(key, text)
    if isinstance(value, str) and redact_secrets(value) != value:
        raise ConfigValueError(f"{path}: the value looks like a secret; secrets go in the keyring "
                               "(`agenttui key set`), never in config.toml")
    file = paths.config_file
    file.parent.mkdir(parents=True, exist_ok=True)
    with locked(file):
        document: dict[str, Any] = {}
        if file.exists():
            try:
                document = parse_toml_file(file)
            except ConfigError as exc:
                raise ConfigError(file, f"{exc.detail} — not saving over a file that does not parse; "
                                  "fix or remove it first", exc.line, exc.column) from exc
        table = document
        if key.section:
            found = document.get(key.section)
            table = found if isinstance(found, dict) else {}
            document[key.section] = table
        if value is None:
            table.pop(key.name, None)
        else:
            table[key.name] = value
        if key.section and not table:
            document.pop(key.section)
        write_keeping_style(file, document)
    return value
