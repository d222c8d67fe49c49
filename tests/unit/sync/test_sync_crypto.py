"""The sealed group key and the sealed records: what opens, what does not."""

from __future__ import annotations

import os

import pytest

from agenttui.sync import crypto
from agenttui.sync.hlc import Clock, decode, encode


@pytest.mark.slow  # three scrypt derivations at the real cost
def test_the_group_key_opens_with_the_passphrase_only():
    key = os.urandom(32)
    doc = crypto.seal_group_key("a long passphrase", "g1", key)
    assert doc["kdf"]["n"] >= 2**17 and key.hex() not in str(doc)
    assert crypto.unseal_group_key("a long passphrase", doc) == key
    with pytest.raises(crypto.WrongPassphrase):
        crypto.unseal_group_key("a long passphrase!", doc)
    with pytest.raises(crypto.WrongPassphrase):  # the key file of one group moved to another's target
        crypto.unseal_group_key("a long passphrase", {**doc, "group": "g2"})


def test_a_record_opens_only_where_it_was_sealed():
    key = os.urandom(32)
    cipher = crypto.SegmentCipher(key, "g", "dev1", 1)
    line = cipher.seal({"t": "mem", "text": "hello"})
    assert "hello" not in line and "\n" not in line
    assert cipher.open(line) == {"t": "mem", "text": "hello"}
    assert cipher.seal({"a": 1}) != cipher.seal({"a": 1})  # a fresh nonce each time
    for other in (crypto.SegmentCipher(key, "g", "dev2", 1), crypto.SegmentCipher(key, "g", "dev1", 2),
                  crypto.SegmentCipher(os.urandom(32), "g", "dev1", 1)):
        with pytest.raises(crypto.BadRecord):
            other.open(line)
    tampered = line[:-6] + ("A" if line[-6] != "A" else "B") + line[-5:]
    for bad in (tampered, "not base64 at all", ""):
        with pytest.raises(crypto.BadRecord):
            cipher.open(bad)


def test_the_clock_orders_after_what_it_has_seen_and_breaks_ties_by_device():
    ahead = encode(10**14, 5, "zzz")  # a remote clock far in the future
    clock = Clock("aaa", None)
    clock.observe(ahead)
    stamp = clock.now()
    assert stamp > ahead and decode(stamp)[2] == "aaa"
    assert encode(1, 0, "b") > encode(1, 0, "a")  # same moment: the device id decides, the same everywhere
    assert Clock("aaa", stamp).now() > stamp  # a restart continues from the stored stamp
