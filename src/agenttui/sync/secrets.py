"""The sync passphrase and the unsealed group key of this machine, kept in the OS keyring
or, opted in with ``sync init --passphrase-file``, in a 0600 file.

Service ``agenttui``, username ``sync:<group id>``: one JSON value holding the passphrase
(so ``sync init`` need not ask again) and the group key (so scrypt runs once per machine,
not per sync). ``AGENTTUI_SYNC_PASSPHRASE`` is read first; when it differs from the
stored one it must open the target's sealed key, or the sync stops before changing anything.

The file (``<config dir>/sync_passphrase``) is the API key file's twin for machines
without a keyring (a server reached over ssh): the same JSON value, one line, written
0600 atomically and refused when others may read it (:mod:`agenttui.core.config.key_file`).
It is never in a backup and never synced. Without either, the variable is needed on
every sync (and scrypt runs each time).
"""

from __future__ import annotations

import base64
import contextlib
import hmac
import json
import os
from pathlib import Path
from typing import Any

from agenttui.sync.crypto import unseal_group_key

ENV_VAR = "AGENTTUI_SYNC_PASSPHRASE"
SERVICE = "agenttui"
FILE_NAME = "sync_passphrase"


def passphrase_file(config_dir: Path) -> Path:
    return Path(config_dir) / FILE_NAME


def _username(group: str) -> str:
    return f"sync:{group}"


def keyring_usable() -> bool:
    from agenttui.core.config.api_key import keyring_status

    return keyring_status()[0]


def _decode(raw: str) -> tuple[str, bytes]:
    doc = json.loads(raw)
    return str(doc["passphrase"]), base64.b64decode(doc["key"])


def _encode(group: str, passphrase: str, key: bytes) -> str:
    return json.dumps({"group": group, "passphrase": passphrase,
                       "key": base64.b64encode(key).decode("ascii")})


class PassphraseFileProblem(Exception):
    """The opted-in file exists but must not be used (others may read it) or is unreadable."""


def stored_in_file(group: str, path: Path | None) -> tuple[str, bytes] | None:
    """The file's passphrase and key when it is for ``group``; None when there is no file
    (or it is another group's, left by a target given up without ``sync leave``)."""
    if path is None:
        return None
    from agenttui.core.config.key_file import read_key_file

    raw, problem = read_key_file(path)
    if problem:
        raise PassphraseFileProblem(problem.replace("the key file", "the sync passphrase file"))
    if not raw:
        return None
    try:
        if json.loads(raw).get("group") != group:
            return None
        return _decode(raw)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise PassphraseFileProblem(f"the sync passphrase file {path} could not be read ({exc}): remove it "
                                    f"and run `agenttui sync init` again, or set {ENV_VAR}") from exc


def store_in_file(path: Path, group: str, passphrase: str, key: bytes) -> None:
    """Raises :class:`agenttui.core.config.key_file.KeyFileError` when it cannot be written."""
    from agenttui.core.config.key_file import write_key_file

    write_key_file(path, _encode(group, passphrase, key))  # JSON without newlines: one line


def forget_file(path: Path | None) -> None:
    if path is not None:
        path.unlink(missing_ok=True)


def stored(group: str) -> tuple[str, bytes] | None:
    if not keyring_usable():
        return None
    import keyring

    try:
        raw = keyring.get_password(SERVICE, _username(group))
        if not raw:
            return None
        return _decode(raw)
    except Exception:  # noqa: BLE001 -- a locked or odd keyring: fall back to the variable
        return None


def store(group: str, passphrase: str, key: bytes) -> bool:
    """Keep both in the keyring; False when there is no usable keyring."""
    if not keyring_usable():
        return False
    import keyring

    value = _encode(group, passphrase, key)
    try:
        keyring.set_password(SERVICE, _username(group), value)
    except Exception:  # noqa: BLE001
        return False
    return True


def forget(group: str) -> None:
    if not keyring_usable():
        return
    import keyring

    # nothing stored, or the keyring refuses: nothing to undo
    with contextlib.suppress(Exception):
        keyring.delete_password(SERVICE, _username(group))


class NoPassphrase(Exception):
    pass


def group_key(meta: dict[str, Any], file: Path | None = None) -> bytes:
    """The group key for the target whose ``agenttui-sync.json`` is ``meta``; ``file`` is the
    opted-in passphrase file, if this machine chose one (looked up after the keyring)."""
    group = str(meta.get("group"))
    given = os.environ.get(ENV_VAR)
    kept = stored(group)
    problem = None
    if kept is None and file is not None:
        try:
            kept = stored_in_file(group, file)
        except PassphraseFileProblem as exc:
            problem = str(exc)
    if kept is not None and (given is None or hmac.compare_digest(given.encode(), kept[0].encode())):
        return kept[1]
    if given is None:
        raise NoPassphrase(problem or f"no sync passphrase: set {ENV_VAR}, or run `agenttui sync init` again "
                           "(the keyring has none for this target)")
    key = unseal_group_key(given, meta)  # WrongPassphrase: nothing has changed yet
    if not store(group, given, key) and file is not None and problem is None:
        from agenttui.core.config.key_file import KeyFileError

        with contextlib.suppress(KeyFileError):  # the sync goes on; the variable is needed next time
            store_in_file(file, group, given, key)
    return key
