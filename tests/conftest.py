"""Test isolation: every test gets its own AGENTTUI_HOME and no real secrets.

Nothing a test does may touch the real home directory, the real keyring or a
real API endpoint.
"""

from __future__ import annotations

import sys

import pytest

_SCRUBBED_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "AGENTTUI_MODEL", "AGENTTUI_PROFILE")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch):
    """Point AGENTTUI_HOME at a fresh folder and clear endpoint variables."""
    home = tmp_path / "agenttui-home"
    monkeypatch.setenv("AGENTTUI_HOME", str(home))
    for name in _SCRUBBED_ENV:
        monkeypatch.delenv(name, raising=False)
    # Subprocesses (and keyring's lazy auto-detection here) must never reach the
    # real OS keyring; tests that need one install tests.fakes.memory_keyring.
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    yield home
    # keyring keeps the backend it first detected for the whole process: a test that
    # detected it while its own PYTHON_KEYRING_BACKEND was set (and "restored" that one)
    # would hand its backend to every later test
    if "keyring" in sys.modules:
        from keyring.backends import fail

        sys.modules["keyring"].set_keyring(fail.Keyring())


@pytest.fixture
def paths(isolated_home):
    from agenttui.core.config.paths import Paths

    return Paths.from_env()


# The fake OpenAI-compatible server (tests/fakes/openai_server.py) as a fixture.
from tests.fakes.fixtures import fake_openai  # noqa: E402,F401
