"""Keyring isolation for the config/secrets tests: never the real OS keyring."""

from __future__ import annotations

import pytest


@pytest.fixture
def use_keyring():
    """Install a keyring backend for one test, restoring the previous one after."""
    import keyring

    previous = keyring.get_keyring()
    installed = []

    def install(backend):
        keyring.set_keyring(backend)
        installed.append(backend)
        return backend

    yield install
    keyring.set_keyring(previous)


@pytest.fixture
def memory_keyring(use_keyring):
    from tests.fakes.memory_keyring import MemoryKeyring

    return use_keyring(MemoryKeyring())


@pytest.fixture
def no_keyring(use_keyring):
    from keyring.backends import fail

    return use_keyring(fail.Keyring())
