"""Argument checking for tool calls: the JSON-schema subset our tools use.

Models send malformed arguments often enough that a clear, specific message
("'path' must be a string") is what lets them fix the call on the next step.
Supported keywords: ``type`` (object at the top; string, integer, number,
boolean, array inside), ``properties``, ``required``,
``additionalProperties: false``, ``enum``, ``minLength``/``maxLength``,
``minimum``/``maximum``, ``items`` (one level). Booleans are not integers;
integral floats (``3.0``) are accepted as integers, as JSON makes no
difference. Defaults from the schema are filled in.
"""

from __future__ import annotations

import json
from typing import Any

_TYPES = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


class ArgumentError(ValueError):
    """Arguments do not satisfy the tool's schema; the message is for the model."""


def parse_arguments(raw: str | dict[str, Any] | None) -> dict[str, Any]:
    if isinstance(raw, dict):
        return dict(raw)
    text = (raw or "").strip()
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError as error:
        raise ArgumentError(f"arguments are not valid JSON ({error})") from None
    if not isinstance(value, dict):
        raise ArgumentError("arguments must be a JSON object")
    return value


def _is_a(value: Any, kind: str) -> bool:
    """A helper, not an inline isinstance: that would narrow ``value`` to ``object``."""
    return isinstance(value, _TYPES[kind])


def _check_type(name: str, value: Any, spec: dict[str, Any]) -> Any:
    kind = spec.get("type")
    if kind is None:
        return value
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) and kind != "boolean":
        raise ArgumentError(f"'{name}' must be {_article(kind)}, not a boolean")
    if not _is_a(value, kind):
        raise ArgumentError(f"'{name}' must be {_article(kind)}, not {_json_type(value)}")
    if "enum" in spec and value not in spec["enum"]:
        options = ", ".join(repr(v) for v in spec["enum"])
        raise ArgumentError(f"'{name}' must be one of {options}")
    if kind == "string":
        if len(value) < spec.get("minLength", 0):
            raise ArgumentError(f"'{name}' must not be empty" if spec.get("minLength") == 1
                                else f"'{name}' must be at least {spec['minLength']} characters")
        if "maxLength" in spec and len(value) > spec["maxLength"]:
            raise ArgumentError(f"'{name}' is too long (at most {spec['maxLength']} characters)")
    if kind in ("integer", "number"):
        if "minimum" in spec and value < spec["minimum"]:
            raise ArgumentError(f"'{name}' must be at least {spec['minimum']}")
        if "maximum" in spec and value > spec["maximum"]:
            raise ArgumentError(f"'{name}' must be at most {spec['maximum']}")
    if kind == "array" and "items" in spec:
        value = [_check_type(f"{name}[{i}]", v, spec["items"]) for i, v in enumerate(value)]
    return value


def validate(schema: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """Checked arguments with defaults filled in; raises :class:`ArgumentError`."""
    properties: dict[str, Any] = schema.get("properties", {})
    if schema.get("additionalProperties") is False:
        unknown = sorted(set(arguments) - set(properties))
        if unknown:
            allowed = ", ".join(properties) or "none"
            raise ArgumentError(f"unknown argument '{unknown[0]}' (allowed: {allowed})")
    for name in schema.get("required", ()):
        if arguments.get(name) is None:
            raise ArgumentError(f"missing required argument '{name}'")
    checked: dict[str, Any] = {}
    for name, spec in properties.items():
        if arguments.get(name) is None:
            if "default" in spec:
                checked[name] = spec["default"]
            continue
        checked[name] = _check_type(name, arguments[name], spec)
    return checked


def _article(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    for name, types in _TYPES.items():
        if isinstance(value, types) and not (name == "integer" and isinstance(value, float)):
            return _article(name)
    return type(value).__name__
