"""The memory file's own indenter equals ``json.dumps(indent=2)`` for item-shaped data."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenttui.core.memory import file as memory_file

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=12)


def expected(item: dict) -> str:
    pretty = json.dumps(item, indent=2, ensure_ascii=False)
    return "\n".join("    " + line for line in pretty.split("\n"))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=8), values, max_size=6))
def test_indenter_matches_the_stdlib(item):
    assert memory_file._pretty(item) == expected(item)


def test_values_it_does_not_lay_out_fall_back_to_the_stdlib():
    item = {"confidence": float("nan"), "origin": {"n": float("inf")}, "t": (1, 2)}
    assert memory_file._pretty(item) == expected(item)


def test_line_separators_inside_text_are_kept_verbatim(tmp_path):
    """json leaves U+0085/U+2028 unescaped; indenting by lines must not split there."""
    data = memory_file.ScopeData("user")
    text = "one\x85two\u2028three"
    data.items.append(memory_file.parse(json.dumps({"schema": 1, "items": [
        {"id": "a", "kind": "note", "text": text, "created": "2026-01-01T00:00:00+00:00",
         "updated": "2026-01-01T00:00:00+00:00"}]}), "user").data.items[0])
    path = tmp_path / "user.json"
    memory_file.write(path, data)
    assert memory_file.read(path, "user").data.items[0].text == text
