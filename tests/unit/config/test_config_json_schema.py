"""config.toml's JSON Schema: shipped in the package, equal to what the settings schema renders,
and it accepts what agenttui accepts and flags what agenttui warns about."""

from __future__ import annotations

import json
import tomllib

import jsonschema

from agenttui.core.config.json_schema import SCHEMA_FILE, render, render_text


def test_the_shipped_file_is_the_rendered_schema():
    assert SCHEMA_FILE.read_text(encoding="utf-8") == render_text(), (
        "config.schema.json is stale: .venv/bin/python -m agenttui.core.config.json_schema --write")


def test_it_accepts_good_files_and_flags_typos_types_and_ranges():
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    good = tomllib.loads('model = "llama3.1:8b"\n[agent]\nmax_steps = 12\n'
                         '[mcp.servers.t]\ncommand = "uvx"\n[keys]\nquit = "ctrl+q"\n')
    assert list(validator.iter_errors(good)) == []
    for bad in ('[agent]\nmax_step = 3\n', '[agent]\nmax_steps = 0\n', '[agent]\nmax_steps = "8"\n',
                'modle = "x"\n', '[agent]\nstream_options = "sometimes"\n'):
        assert list(validator.iter_errors(tomllib.loads(bad))), bad
    assert render()["properties"]["agent"]["properties"]["max_steps"]["default"] == 8
