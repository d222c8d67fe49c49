"""Shared fixtures for the history store tests."""

from __future__ import annotations

import pytest

from agenttui.core.history.store import HistoryStore


@pytest.fixture
def db_path(isolated_home):
    return isolated_home / "data" / "profiles" / "default" / "history.sqlite3"


@pytest.fixture
def store(db_path):
    history = HistoryStore(db_path)
    yield history
    history.close()


@pytest.fixture
def without_local_extra(monkeypatch):
    """As if ``agenttui[local-embeddings]`` were not installed: NumPy cannot be found or imported."""
    import sys

    monkeypatch.setitem(sys.modules, "numpy", None)


@pytest.fixture
def session(tmp_path):
    """A factory of sessions (services) on one data dir, closed at the end."""
    from agenttui.bootstrap import build_services

    work = tmp_path / "work"
    work.mkdir()
    opened = []

    def open_session():
        services = build_services(cwd=work)
        opened.append(services)
        return services

    yield open_session
    for services in opened:
        services.close()
