"""config.toml's JSON Schema, generated from the settings schema (core/config/schema.py).

Editors check and complete config.toml with it: taplo (and so VS Code's Even Better
TOML) reads a first-line ``#:schema <path or URL>`` comment. The file ships inside the
package as ``agenttui/core/config/config.schema.json``; ``agenttui config schema``
prints where. Regenerate it after changing a setting::

    .venv/bin/python -m agenttui.core.config.json_schema --write

(a test fails while the shipped file differs from what this module renders).
Unknown keys are allowed by agenttui (they warn and are kept), so the schema marks
them as errors only in editors: that is where a typo is cheapest to see. ``[mcp]``
is its own table, checked by ``agenttui mcp``; the schema leaves it open.
"""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

from agenttui.core.config.schema import Key, choices, plain_type, schema_keys

SCHEMA_FILE = Path(__file__).with_name("config.schema.json")
SCHEMA_ID = "https://agenttui.invalid/config.schema.json"  # a name, not a place: nothing fetches it


def _type_of(key: Key) -> dict[str, Any]:
    hint = plain_type(key.hint)
    values = choices(hint)
    if values:
        return {"enum": list(values)}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        out: dict[str, Any] = {"type": "integer"}
    elif hint is float:
        out = {"type": "number"}
    elif hint is str:
        return {"type": "string"}
    elif typing.get_origin(hint) is list:
        return {"type": "array", "items": {"type": "string"}}
    elif typing.get_origin(hint) is dict:
        return {"type": "object", "additionalProperties": {
            "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}}
    else:
        return {}
    if key.spec is not None and key.spec.low is not None:
        out["minimum"] = key.spec.low
    if key.spec is not None and key.spec.high is not None:
        out["maximum"] = key.spec.high
    return out


def _property(key: Key) -> dict[str, Any]:
    prop = _type_of(key)
    if key.spec is not None:
        prop["description"] = key.spec.doc
    if key.default is not None:  # unset (None) has no TOML form
        prop["default"] = key.default
    return prop


def render() -> dict[str, Any]:
    root: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "agenttui config.toml",
        "description": "agenttui's settings (README: Configuration). Generated from core/config/schema.py.",
        "type": "object",
        "properties": {"mcp": {"type": "object", "description": "MCP servers (agenttui mcp add|list|remove)"}},
        "additionalProperties": False,
    }
    for key in schema_keys():
        if key.section is None:
            root["properties"][key.name] = _property(key)
            continue
        section = root["properties"].setdefault(key.section, {
            "type": "object", "properties": {}, "additionalProperties": False})
        section["properties"][key.name] = _property(key)
    return root


def render_text() -> str:
    return json.dumps(render(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    import sys

    args = sys.argv[1:] if argv is None else argv
    if args == ["--write"]:
        SCHEMA_FILE.write_text(render_text(), encoding="utf-8")
        print(SCHEMA_FILE)
    else:
        print(render_text(), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
