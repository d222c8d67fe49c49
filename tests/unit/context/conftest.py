"""Real services (memory, history, project) in the isolated AGENTTUI_HOME."""

from __future__ import annotations

import pytest


@pytest.fixture
def services(tmp_path):
    from agenttui.bootstrap import build_services

    work = tmp_path / "work"
    work.mkdir()
    built = build_services(cwd=work)
    yield built
    built.close()
