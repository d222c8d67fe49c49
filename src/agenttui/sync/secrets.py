"""The sync passphrase and the unsealed group key of this machine, kept in the OS keyring.

Service ``agenttui``, username ``sync:<group id>``: one JSON value holding the passphrase
(so ``sync init`` need not ask again) and the group key (so scrypt runs once per machine,
not per sync). ``AGENTTUI_SYNC_PASSPHRASE`` is read first; when it differs from the
stored one it must open the target's sealed key, or the sync stops before changing anything.
Without a usable keyring, the variable is needed on every sync (and scrypt runs each time).
"""

from __future__ import annotations

import base64
import contextlib
import hmac
import json
import os
from typing import Any

from agenttui.sync.crypto import unseal_group_key

ENV_VAR = "AGENTTUI_SYNC_PASSPHRASE"
SERVICE = "agenttui"


def _username(group: str) -> str:
    return f"sync:{group}"


def keyring_usable() -> bool:
    from agenttui.core.config.api_key import keyring_status

    return keyring_status()[0]


def stored(group: str) -> tuple[str, bytes] | None:
    if not keyring_usable():
        return None
    import keyring

    try:
        raw = keyring.get_password(SERVICE, _username(group))
        if not raw:
            return None
        doc = json.loads(raw)
        return str(doc["passphrase"]), base64.b64decode(doc["key"])
    except Exception:  # noqa: BLE001 -- a locked or odd keyring: fall back to the variable
        return None


def store(group: str, passphrase: str, key: bytes) -> bool:
    """Keep both in the keyring; False when there is no usable keyring."""
    if not keyring_usable():
        return False
    import keyring

    value = json.dumps({"passphrase": passphrase, "key": base64.b64encode(key).decode("ascii")})
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


def group_key(meta: dict[str, Any]) -> bytes:
    """The group key for the target whose ``agenttui-sync.json`` is ``meta``."""
    group = str(meta.get("group"))
    given = os.environ.get(ENV_VAR)
    kept = stored(group)
    if kept is not None and (given is None or hmac.compare_digest(given.encode(), kept[0].encode())):
        return kept[1]
    if given is None:
        raise NoPassphrase(f"no sync passphrase: set {ENV_VAR}, or run `agenttui sync init` again "
                           "(the keyring has none for this target)")
    key = unseal_group_key(given, meta)  # WrongPassphrase: nothing has changed yet
    store(group, given, key)
    return key
