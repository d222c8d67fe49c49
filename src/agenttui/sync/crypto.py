"""The group key sealed by a passphrase, and records sealed by the group key.

Why ``cryptography``'s AEAD rather than age (pyrage): records are small and many
(one a message), and ChaCha20-Poly1305 with a 96-bit random nonce costs a
constant 28 bytes a record, where an age file per record costs ~200 bytes of header
and a recipient stanza. The passphrase step is scrypt (the KDF age uses too), run
once per machine. The associated data binds each record to its group, device and
segment: a record copied into another device's log does not open (it is "foreign").
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from functools import cached_property
from typing import Any

KEY_BYTES = 32
NONCE_BYTES = 12
# scrypt cost: 2**17 x 8 needs 128 MiB and ~0.3-1 s; paid when a machine joins, not per sync.
SCRYPT_N = 2**17
SCRYPT_R = 8
SCRYPT_P = 1
FORMAT = 1


class WrongPassphrase(Exception):
    """The passphrase does not open the group key."""


class BadRecord(Exception):
    """A record that does not decrypt or parse (corrupt or foreign)."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text.encode("ascii"), validate=True)


def _derive(passphrase: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    return Scrypt(salt=salt, length=KEY_BYTES, n=n, r=r, p=p).derive(passphrase.encode("utf-8"))


def _group_aad(group: str) -> bytes:
    return f"agenttui-sync/{FORMAT}/group-key/{group}".encode()


def seal_group_key(passphrase: str, group: str, key: bytes) -> dict[str, Any]:
    """The content of ``agenttui-sync.json`` for a new group."""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    salt = os.urandom(16)
    wrapping = _derive(passphrase, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    nonce = os.urandom(NONCE_BYTES)
    sealed = ChaCha20Poly1305(wrapping).encrypt(nonce, key, _group_aad(group))
    return {"format": FORMAT, "group": group,
            "kdf": {"name": "scrypt", "n": SCRYPT_N, "r": SCRYPT_R, "p": SCRYPT_P, "salt": _b64(salt)},
            "aead": "chacha20poly1305", "sealed_key": _b64(nonce + sealed)}


def unseal_group_key(passphrase: str, doc: dict[str, Any]) -> bytes:
    """The group key; raises :class:`WrongPassphrase` (or ValueError for a damaged file)."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    if doc.get("format") != FORMAT or doc.get("aead") != "chacha20poly1305":
        raise ValueError(f"unsupported sync format {doc.get('format')!r}")
    kdf = doc["kdf"]
    if kdf.get("name") != "scrypt":
        raise ValueError(f"unsupported key derivation {kdf.get('name')!r}")
    wrapping = _derive(passphrase, _unb64(kdf["salt"]), int(kdf["n"]), int(kdf["r"]), int(kdf["p"]))
    blob = _unb64(doc["sealed_key"])
    try:
        return ChaCha20Poly1305(wrapping).decrypt(blob[:NONCE_BYTES], blob[NONCE_BYTES:],
                                                  _group_aad(str(doc["group"])))
    except InvalidTag:
        raise WrongPassphrase("the sync passphrase is wrong: it does not open this target's key") from None


@dataclass(frozen=True)
class SegmentCipher:
    """Seals and opens the records of one segment file."""

    key: bytes
    group: str
    device: str
    seq: int

    @cached_property
    def _aad(self) -> bytes:
        return f"agenttui-sync/{FORMAT}/{self.group}/{self.device}/{self.seq}".encode()

    @cached_property
    def _aead(self) -> Any:
        """One cipher object for the segment's thousands of records, not one a record."""
        from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

        return ChaCha20Poly1305(self.key)

    def seal(self, record: dict[str, Any]) -> str:
        nonce = os.urandom(NONCE_BYTES)
        plain = json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return _b64(nonce + self._aead.encrypt(nonce, plain, self._aad))

    def open(self, line: str) -> dict[str, Any]:
        from cryptography.exceptions import InvalidTag

        try:
            blob = _unb64(line.strip())
            plain = self._aead.decrypt(blob[:NONCE_BYTES], blob[NONCE_BYTES:], self._aad)
            record = json.loads(plain.decode("utf-8"))
        except (InvalidTag, ValueError, UnicodeDecodeError) as exc:
            raise BadRecord(type(exc).__name__) from None
        if not isinstance(record, dict):
            raise BadRecord("not an object")
        return record
