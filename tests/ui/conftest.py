"""UI test fixtures: services over the isolated home, an in-memory keyring.

``make_services`` builds the real services (the same composition root the
CLI uses); ``chat_app`` additionally points them at the fake OpenAI server.
"""

from __future__ import annotations

import pytest

from tests.fakes.memory_keyring import memory_keyring_installed


@pytest.fixture(autouse=True)
def memory_keyring():
    with memory_keyring_installed() as backend:
        yield backend


@pytest.fixture
def make_services(paths, tmp_path):
    from agenttui.bootstrap import build_services

    built = []

    def make(**kwargs):
        services = build_services(paths=paths, cwd=tmp_path, **kwargs)
        built.append(services)
        return services

    yield make
    for services in built:
        services.close()


@pytest.fixture
def services(make_services):
    return make_services()


@pytest.fixture
def chat_services(fake_openai, make_services):
    """Services whose environment (base URL, key) points at the fake server."""
    import os

    return make_services(environ=dict(os.environ))
