"""Fixtures shared by the unit tests of the agent, context and tools."""

from __future__ import annotations

import pytest


@pytest.fixture
def services(tmp_path):
    """Real services (memory, history, project) in the isolated AGENTTUI_HOME,
    launched from a fresh working directory (so no profile binding applies)."""
    from agenttui.bootstrap import build_services

    work = tmp_path / "work"
    work.mkdir()
    built = build_services(cwd=work)
    yield built
    built.close()
