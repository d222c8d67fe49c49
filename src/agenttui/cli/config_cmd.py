"""``agenttui config path|show|get KEY|set KEY VALUE|schema`` (config.toml, docs/storage.md).

``show`` prints every key with the value in force (the file's, else the default;
``--json`` for tools); ``get`` one key (dotted: ``agent.max_steps``); ``set`` changes
one key and nothing else of the file -- comments, order and formatting stay
(core/config/set_value.py). These act on the user-wide config.toml; a profile's
``profile.toml`` overrides are the ``profile`` command's. Environment variables
(``AGENTTUI_MODEL``, ``OPENAI_BASE_URL``) win over the file, as always.
"""

from __future__ import annotations

import argparse
import json

from agenttui.cli.common import fail, warn


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("config", help="show, get and set config.toml keys")
    sub = parser.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    sub.add_parser("path", help="print where config.toml is").set_defaults(handler=run_path)
    show = sub.add_parser("show", help="every key with the value in force")
    show.add_argument("--json", action="store_true", help="machine-readable output")
    show.set_defaults(handler=run_show)
    get = sub.add_parser("get", help="print one key's value (dotted: agent.max_steps)")
    get.add_argument("key")
    get.set_defaults(handler=run_get)
    put = sub.add_parser("set", help="change one key; the rest of the file stays as written")
    put.add_argument("key")
    put.add_argument("value", help="a TOML value (8, true, [\"a\"]) or plain text; empty unsets an optional key")
    put.set_defaults(handler=run_set)
    schema = sub.add_parser("schema", help="where config.toml's JSON Schema is (for editors)")
    schema.add_argument("--print", action="store_true", help="print the schema itself")
    schema.set_defaults(handler=run_schema)


def _paths():
    from agenttui.cli.common import paths

    return paths()


def _loaded():
    from agenttui.core.config.file import load_settings

    loaded = load_settings(_paths())
    for line in loaded.warnings:
        warn(line)
    if loaded.error is not None:
        warn(f"{loaded.error} (showing the defaults)")
    return loaded.settings


def _values(settings) -> dict:
    from agenttui.core.config.schema import schema_keys

    out: dict = {}
    for key in schema_keys():
        holder = getattr(settings, key.section) if key.section else settings
        value = getattr(holder, key.name)
        (out.setdefault(key.section, {}) if key.section else out)[key.name] = value
    return out


def run_path(args: argparse.Namespace) -> int:
    print(_paths().config_file)
    return 0


def run_show(args: argparse.Namespace) -> int:
    values = _values(_loaded())
    if args.json:
        print(json.dumps(values, indent=2, ensure_ascii=False))
        return 0
    import tomli_w

    def without_none(table: dict) -> dict:
        return {k: without_none(v) if isinstance(v, dict) else v for k, v in table.items() if v is not None}

    print(tomli_w.dumps(without_none(values)), end="")
    return 0


def run_get(args: argparse.Namespace) -> int:
    from agenttui.core.config.set_value import ConfigValueError, find

    try:
        key = find(args.key)
    except ConfigValueError as exc:
        return fail(str(exc))
    settings = _loaded()
    value = getattr(getattr(settings, key.section) if key.section else settings, key.name)
    if value is None:
        print("")
    elif isinstance(value, str):
        print(value)
    else:
        print(json.dumps(value, ensure_ascii=False))
    return 0


def run_set(args: argparse.Namespace) -> int:
    from agenttui.core.config.file import ConfigError
    from agenttui.core.config.set_value import ConfigValueError, set_value

    try:
        value = set_value(_paths(), args.key, args.value)
    except (ConfigValueError, ConfigError) as exc:
        return fail(str(exc))
    shown = "unset" if value is None else json.dumps(value, ensure_ascii=False)
    print(f"{args.key} = {shown}")
    return 0


def run_schema(args: argparse.Namespace) -> int:
    from agenttui.core.config.json_schema import SCHEMA_FILE

    if args.print:
        print(SCHEMA_FILE.read_text(encoding="utf-8"), end="")
    else:
        print(SCHEMA_FILE)
    return 0
