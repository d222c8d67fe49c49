"""Where the sync passphrase is kept on a machine without a keyring: nowhere (the variable
is needed on every sync), or opted in, a 0600 file the next syncs read."""

from __future__ import annotations

import os
import stat

import pytest

from tests.unit.sync.conftest import PASSPHRASE

pytestmark = pytest.mark.slow

NO_KEYRING = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}


def test_the_opt_in_file_is_0600_and_serves_the_next_syncs(machines, target):
    kind, location, _root = target
    a, b = machines("a", "b")
    joined = a.run("sync", "init", f"--{kind}", location, "--device", "a", "--passphrase-file",
                   AGENTTUI_SYNC_PASSPHRASE=PASSPHRASE, **NO_KEYRING)
    assert joined.code == 0, joined.err
    secret = a.home / "config" / "sync_passphrase"
    assert "sync_passphrase" in joined.out and "0600" in joined.out
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert not a.keyring_file.exists()  # the keyring was not used

    a.memory().add_note("reads the file, not the keyring")
    sent = a.run("sync", **NO_KEYRING)  # no variable: the file holds the passphrase
    assert sent.code == 0 and sent.out.startswith("sent 1 change,"), (sent.out, sent.err)
    assert b.join(kind, location).code == 0
    b.sync()
    assert b.notes() == ["reads the file, not the keyring"]

    os.chmod(secret, 0o644)  # copied with a loose umask: refused, as ssh refuses a loose key
    loose = a.run("sync", **NO_KEYRING)
    assert loose.code == 1 and "readable by other users" in loose.err and "chmod 600" in loose.err, loose.err
    os.chmod(secret, 0o600)

    left = a.run("sync", "leave", **NO_KEYRING)
    assert left.code == 0, left.err
    assert not secret.exists()


def test_without_keyring_or_file_the_variable_is_needed_each_time(machines, tmp_path):
    (a,) = machines("a")
    folder = str(tmp_path / "Sync")
    joined = a.run("sync", "init", "--folder", folder, "--device", "a", AGENTTUI_SYNC_PASSPHRASE=PASSPHRASE,
                   **NO_KEYRING)
    assert joined.code == 0, joined.err
    assert "not kept" in joined.out and "--passphrase-file" in joined.out
    assert not (a.home / "config" / "sync_passphrase").exists()
    bare = a.run("sync", **NO_KEYRING)
    assert bare.code == 1 and "AGENTTUI_SYNC_PASSPHRASE" in bare.err, bare.err
    given = a.run("sync", AGENTTUI_SYNC_PASSPHRASE=PASSPHRASE, **NO_KEYRING)
    assert given.code == 0, given.err
    wrong = a.run("sync", AGENTTUI_SYNC_PASSPHRASE="not it", **NO_KEYRING)
    assert wrong.code == 1 and "passphrase is wrong" in wrong.err
