"""Both renderers of agent events (the chat pane, `agenttui ask`) match every event type and end in
``case _: assert_never(event)``.

The ``assert_never`` arm is what makes mypy (tests/unit/test_static_checks.py) report an
event type added to ``agenttui.agent.events.AgentEvent`` and not rendered: this test fails
when that arm is dropped or a renderer goes back to an ``isinstance`` ladder, which mypy
alone would not notice.
"""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

from agenttui.agent import events

SRC = Path(__file__).resolve().parents[2] / "src" / "agenttui"
RENDERERS = [
    (SRC / "ui" / "widgets" / "chat_pane.py", "ChatPane", "_agent_event"),
    (SRC / "cli" / "ask_cmd.py", "_Printer", "show"),
]


def _function(path: Path, class_name: str, name: str) -> ast.AsyncFunctionDef | ast.FunctionDef:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    return next(n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name)


def _matched_names(pattern: ast.pattern) -> set[str]:
    if isinstance(pattern, ast.MatchOr):
        return set().union(*(_matched_names(p) for p in pattern.patterns))
    if isinstance(pattern, ast.MatchClass):
        return {ast.unparse(pattern.cls).rsplit(".", 1)[-1]}  # ev.TextDelta -> TextDelta
    return set()


@pytest.mark.parametrize(("path", "class_name", "name"), RENDERERS, ids=[r[1] for r in RENDERERS])
def test_the_renderer_matches_every_event_and_ends_in_assert_never(path, class_name, name):
    function = _function(path, class_name, name)
    matches = [n for n in ast.walk(function) if isinstance(n, ast.Match)]
    assert len(matches) == 1, f"{class_name}.{name}: one match statement over the event"
    cases = matches[0].cases
    rendered = set().union(*(_matched_names(case.pattern) for case in cases))
    expected = {kind.__name__ for kind in typing.get_args(events.AgentEvent)}
    assert rendered == expected, f"missing {expected - rendered}, unknown {rendered - expected}"
    last = cases[-1]
    assert isinstance(last.pattern, ast.MatchAs) and last.pattern.pattern is None, "last case is `case _:`"
    assert ast.unparse(last.body[0]) == "assert_never(event)"
