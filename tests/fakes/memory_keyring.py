"""Keyring backends for tests: never the real OS keyring.

* :class:`MemoryKeyring` keeps passwords in a dict (in-process tests:
  ``with memory_keyring_installed() as backend: ...``).
* :class:`FileKeyring` keeps them in a JSON file named by the env var
  ``AGENTTUI_TEST_KEYRING_FILE``, so a subprocess can use it with
  ``PYTHON_KEYRING_BACKEND=tests.fakes.memory_keyring.FileKeyring`` (and the
  repo root on ``PYTHONPATH``) and the test can read what it stored.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import keyring
from jaraco.classes import properties  # keyring's own (its `keyring.compat` re-export is new in 25; 24 is our floor)
from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError

FILE_ENV = "AGENTTUI_TEST_KEYRING_FILE"


class MemoryKeyring(KeyringBackend):
    priority = 100  # type: ignore[assignment]  # beats any real backend if ever listed

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.store.pop((service, username), None) is None:
            raise PasswordDeleteError("no such password")


class FileKeyring(KeyringBackend):
    @properties.classproperty
    def priority(cls) -> float:
        # Not viable unless a test named the file: keyring's auto-detection
        # (which sees every KeyringBackend subclass) must never pick it by accident.
        if FILE_ENV not in os.environ:
            raise RuntimeError(f"{FILE_ENV} is not set")
        return 100

    @property
    def path(self) -> Path:
        return Path(os.environ[FILE_ENV])

    def _load(self) -> dict[str, str]:
        try:
            return json.loads(self.path.read_text())
        except FileNotFoundError:
            return {}

    def get_password(self, service: str, username: str) -> str | None:
        return self._load().get(f"{service}/{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        data = self._load()
        data[f"{service}/{username}"] = password
        self.path.write_text(json.dumps(data))

    def delete_password(self, service: str, username: str) -> None:
        data = self._load()
        if data.pop(f"{service}/{username}", None) is None:
            raise PasswordDeleteError("no such password")
        self.path.write_text(json.dumps(data))


@contextlib.contextmanager
def memory_keyring_installed() -> Iterator[MemoryKeyring]:
    """A fresh :class:`MemoryKeyring` as keyring's backend; the previous one back after."""
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)
