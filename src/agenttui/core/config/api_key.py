"""The API key (docs/security.md#the-api-key): ``OPENAI_API_KEY`` first, then the OS keyring.

Order of the lookup: ``OPENAI_API_KEY``, a key typed in Settings for this
session only (no keyring, file not chosen), the keyring, then the opt-in key
file ``<config dir>/api_key`` (:mod:`agenttui.core.config.key_file`).

The key never touches config.toml, history, logs or backups. ``keyring`` is
imported only when a lookup happens (it is slow to import and the first
frame does not need it). Headless Linux often has no backend at all: then we
say so plainly, explain how to fix it, and keep working with the env var.

Service ``agenttui``; username ``api_key``, or ``api_key:<profile>`` for a
per-profile key (looked up before the shared one).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

SERVICE = "agenttui"
USERNAME = "api_key"
ENV_VAR = "OPENAI_API_KEY"

ADVICE = (
    "No usable keyring backend was found ({backend}), so agenttui cannot store "
    "the API key securely. Either:\n"
    "  - export OPENAI_API_KEY=<your key> in your shell profile (agenttui reads it "
    "first), or\n"
    "  - install a keyring backend: run a Secret Service provider such as "
    "gnome-keyring or KWallet (and unlock it), or `{pip} install keyrings.alt` "
    "(stores the key in a local file, less secure), then run `agenttui key set`."
)


def _advice(backend: str) -> str:
    """ADVICE with the pip of the Python agenttui runs in: a plain `pip` is often
    another environment's (agenttui installed in a venv or with pipx)."""
    import sys

    return ADVICE.format(backend=backend, pip=f"{sys.executable} -m pip")


class SecretsError(Exception):
    """The keyring refused or failed (message says why)."""


class NoKeyringBackend(SecretsError):
    """No usable keyring backend; the message says how to fix it."""


@dataclass
class KeyLookup:
    value: str | None
    source: Literal["env", "session", "keyring", "file"] | None
    problem: str | None = None

    @property
    def found(self) -> bool:
        return bool(self.value)


def _username(profile: str | None) -> str:
    return f"{USERNAME}:{profile}" if profile else USERNAME


def _backend_name(backend: object) -> str:
    cls = type(backend)
    return f"{cls.__module__}.{cls.__qualname__}"


def _usable(backend: object) -> bool:
    from keyring.backends import chainer, fail, null

    if isinstance(backend, fail.Keyring | null.Keyring):
        return False
    if isinstance(backend, chainer.ChainerBackend):
        return any(_usable(b) for b in backend.backends)
    return True


def keyring_status() -> tuple[bool, str, str]:
    """``(ok, backend name, advice)``; advice is empty when ok."""
    try:
        import keyring

        backend = keyring.get_keyring()
    except Exception as exc:  # a broken keyring config must not crash startup
        return False, f"error: {exc}", _advice(f"keyring failed to load: {exc}")
    name = _backend_name(backend)
    if _usable(backend):
        return True, name, ""
    return False, name, _advice(name)


def get_api_key(environ: Mapping[str, str] | None = None,
                profile: str | None = None, *, session: str | None = None,
                key_file: Path | None = None) -> KeyLookup:
    env = os.environ if environ is None else environ
    value = (env.get(ENV_VAR) or "").strip()
    if value:
        return KeyLookup(value, "env")
    if session:
        return KeyLookup(session, "session")
    found = _from_keyring(profile)
    if found.found or key_file is None:
        return found
    from agenttui.core.config.key_file import read_key_file

    stored, problem = read_key_file(key_file)
    if stored:
        return KeyLookup(stored, "file")
    return KeyLookup(None, None, problem or found.problem)


def _from_keyring(profile: str | None) -> KeyLookup:
    ok, _name, advice = keyring_status()
    if not ok:
        return KeyLookup(None, None, advice)
    import keyring

    try:
        for user in ([_username(profile)] if profile else []) + [USERNAME]:
            stored = keyring.get_password(SERVICE, user)
            if stored:
                return KeyLookup(stored, "keyring")
    except Exception as exc:  # locked keyring, D-Bus errors, ...
        return KeyLookup(None, None, f"the keyring could not be read: {exc}")
    return KeyLookup(None, None, None)


def _require_backend() -> None:
    ok, _name, advice = keyring_status()
    if not ok:
        raise NoKeyringBackend(advice)


def set_api_key(value: str, profile: str | None = None) -> None:
    value = value.strip()
    if not value or any(c in value for c in "\r\n\0"):
        raise SecretsError("the API key must be one non-empty line")
    _require_backend()
    import keyring

    try:
        keyring.set_password(SERVICE, _username(profile), value)
    except Exception as exc:
        raise SecretsError(f"the keyring refused to store the key: {exc}") from exc


def delete_api_key(profile: str | None = None) -> bool:
    """Remove the stored key; ``False`` if there was none."""
    _require_backend()
    import keyring
    from keyring.errors import PasswordDeleteError

    try:
        keyring.delete_password(SERVICE, _username(profile))
    except PasswordDeleteError:
        return False
    except Exception as exc:
        raise SecretsError(f"the keyring refused to delete the key: {exc}") from exc
    return True
