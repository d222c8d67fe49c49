"""The config schema (core/config/schema.py): one entry per key drives validation and README.

Out-of-range values were once accepted silently: ``max_note_chars = -1`` (then every note refused with "limit is
-1"), ``max_tool_output = -5``, ``max_seconds = 0`` and
``window_messages = 2**63-1``.
"""

from __future__ import annotations

import math
import typing
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from agenttui.core.config.file import coerce_section, load_settings
from agenttui.core.config.schema import (
    REFERENCE_END,
    REFERENCE_START,
    check_value,
    find_key,
    in_range,
    render_reference,
    schema_keys,
)
from agenttui.core.config.settings import Settings

ROOT = Path(__file__).resolve().parents[3]
NUMERIC = [k for k in schema_keys() if typing.get_origin(k.hint) is None and k.hint in (int, float)]


def test_every_settings_key_has_a_schema_entry_and_numbers_have_ranges():
    keys = schema_keys()
    assert len(keys) > 40
    assert not [k.path for k in keys if k.spec is None], "declare new keys with setting(...)"
    assert not [k.path for k in keys if not k.spec.doc.strip()]
    assert not [k.path for k in NUMERIC if k.spec.low is None or k.spec.high is None]
    assert [k.path for k in keys if not in_range(k.default, k.spec)] == []


@pytest.mark.parametrize(("section", "key", "value", "default"), [
    ("memory", "max_note_chars", -1, 500),
    ("agent", "max_tool_output", -5, 16_000),
    ("agent", "max_seconds", 0, 120.0),
    ("history", "window_messages", 2**63 - 1, 30),
])
def test_out_of_range_values_from_the_issue_warn_and_use_the_default(paths, section, key, value, default):
    paths.config_dir.mkdir(parents=True)
    paths.config_file.write_text(f"[{section}]\n{key} = {value}\n")
    loaded = load_settings(paths)
    assert getattr(getattr(loaded.settings, section), key) == default
    (warning,) = loaded.warnings
    spec = find_key(f"{section}.{key}").spec
    assert str(paths.config_file) in warning
    assert f"'{section}.{key}' = {value}" in warning  # the key and the value
    assert f"{spec.low:_} to {spec.high:_}" in warning  # the allowed range
    assert warning.endswith(f"using {default!r}")


def test_nan_inf_and_huge_numbers_are_out_of_range_not_a_crash():
    data = {"temperature": math.nan, "agent": {"request_timeout": math.inf, "max_seconds": 10**400},
            "memory": {"near_duplicate_threshold": -math.inf}}
    settings, warnings = coerce_section(Settings, data, "config.toml")
    assert settings.temperature is None and settings.agent.max_seconds == 120.0
    assert settings.agent.request_timeout == 60.0 and settings.memory.near_duplicate_threshold == 0.85
    assert len(warnings) == 4 and all("out of range" in w for w in warnings)
    assert all(len(w) < 200 for w in warnings)  # 400 digits are not echoed


def test_a_profile_override_out_of_range_is_reported_and_not_applied(paths):
    from agenttui.core.config.profiles import ProfileStore
    from agenttui.core.files import atomic_write_text

    store = ProfileStore(paths)
    store.create("work")
    atomic_write_text(paths.profile_file("work"), "paths = []\n[memory]\nmax_note_chars = 0\n")
    profile = store.get("work")
    assert any("'memory.max_note_chars' = 0 is out of range" in w for w in store.warnings)
    assert profile.apply(Settings()).memory.max_note_chars == 500


@pytest.mark.slow
@hsettings(max_examples=200, deadline=None)
@given(key=st.sampled_from(NUMERIC), value=st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70), st.floats(allow_nan=True, allow_infinity=True)))
def test_any_number_loads_as_itself_or_the_default_with_a_warning(key, value):
    if key.hint is int and isinstance(value, float):
        value = int(value) if math.isfinite(value) else 0
    data = {key.section: {key.name: value}} if key.section else {key.name: value}
    settings, warnings = coerce_section(Settings, data, "config.toml")
    table = getattr(settings, key.section) if key.section else settings
    loaded = getattr(table, key.name)
    if in_range(value, key.spec):
        assert loaded == value and warnings == []
    else:
        assert loaded == key.default and len(warnings) == 1 and key.path in warnings[0]


def test_form_values_are_checked_against_the_same_ranges():
    key = find_key("agent.max_seconds")
    assert check_value(key, " 30 ") == (30.0, None)
    value, problem = check_value(key, "0")
    assert value is None and "'agent.max_seconds' = 0.0 is out of range (allowed: 1.0 to 86_400.0)" in problem
    assert "not a number" in check_value(key, "soon")[1]
    assert "not an integer" in check_value(find_key("memory.max_note_chars"), "1.5")[1]


def test_readme_configuration_reference_is_generated_from_the_schema():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(REFERENCE_START)
    block = readme[start:readme.index(REFERENCE_END, start) + len(REFERENCE_END)]
    assert block == render_reference(), "run: python scripts/config_reference.py --write"
    for key in schema_keys():  # every key has its row (or, for a table, its heading)
        assert f"| `{key.name}` |" in block or f"### `[{key.name}]`" in block, key.path


@pytest.mark.parametrize("value", ["5", "-0.5", "nan", "1e400", str(10**400)])
def test_a_profile_temperature_out_of_range_is_reported_and_ignored(paths, value):
    from agenttui.core.config.profiles import ProfileStore
    from agenttui.core.files import atomic_write_text

    store = ProfileStore(paths)
    store.create("work")
    atomic_write_text(paths.profile_file("work"), f"paths = []\ntemperature = {value}\n")
    profile = store.get("work")
    assert profile.temperature is None
    assert any("'temperature' = " in w and "out of range (allowed: 0.0 to 2.0)" in w for w in store.warnings)
