"""Tool tests: ``project_services`` has a bound project dir (``services`` is in tests/unit)."""

from __future__ import annotations

import json
import os

import pytest

from agenttui.core.models import ToolCall


@pytest.fixture
def project_dir(tmp_path):
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "README.md").write_text("# Demo\nhello\n")
    (root / "src" / "app.py").write_text("print('hi')\n")
    return root


@pytest.fixture
def project_services(project_dir, paths):
    from agenttui.bootstrap import build_services
    from agenttui.core.config.profiles import ProfileStore

    ProfileStore(paths).create("demo", bind=project_dir)
    built = build_services(cwd=project_dir)
    assert built.profile_name == "demo"
    yield built
    built.close()


def call(name: str, arguments: dict | str | None = None) -> ToolCall:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments or {})
    return ToolCall(id=f"call_{os.urandom(4).hex()}", name=name, arguments=text)


async def run(registry, name: str, arguments: dict | str | None = None):
    return await registry.execute(call(name, arguments))
