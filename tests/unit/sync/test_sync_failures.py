"""A sync that cannot or must not happen changes nothing; a sync killed part-way loses
nothing and duplicates nothing once run again."""

from __future__ import annotations

import json
import signal

import pytest

from agenttui.core.models import Message

pytestmark = pytest.mark.slow


def _snapshot(machine, root, tree_digest):
    data = machine.home / "data"
    # the git clone under sync/git is a cache of the remote (a fetch refreshes it): not the user's data
    files = {p: b for p, b in tree_digest(data).items()
             if not p.endswith((".lock", "-shm", "-wal")) and not p.startswith("sync/git/")}
    return files, tree_digest(root)


def test_a_wrong_passphrase_exits_1_and_changes_nothing(machines, target, digest):
    tree_digest = digest
    kind, location, root = target
    a, b = machines("a", "b")
    assert a.join(kind, location).code == 0
    a.memory().add_note("keeps a diary")
    a.sync()
    b.memory().add_note("b's own note")

    before_target = tree_digest(root)
    joined = b.join(kind, location, passphrase="not the passphrase")
    assert joined.code == 1
    assert "passphrase is wrong" in joined.err and "nothing was changed" in joined.err
    assert tree_digest(root) == before_target
    assert not (b.home / "data" / "sync" / "config.json").exists()
    assert b.notes() == ["b's own note"]

    # a machine that syncs, given a wrong passphrase for this run: stops before its pending note goes out
    a.memory().add_note("pending on a")
    before = _snapshot(a, root, tree_digest)
    wrong = a.run("sync", AGENTTUI_SYNC_PASSPHRASE="wrong again")
    assert wrong.code == 1 and "passphrase is wrong" in wrong.err, wrong.err
    assert _snapshot(a, root, tree_digest) == before


def test_an_unreachable_remote_exits_1_with_a_clear_message(machines, tmp_path):
    import shutil
    import subprocess

    bare = tmp_path / "gone.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    (a,) = machines("a")
    assert a.join("git", bare.as_uri()).code == 0
    shutil.rmtree(bare)
    result = a.run("sync")
    assert result.code == 1
    assert "could not be reached" in result.err and "nothing was changed" in result.err, result.err
    assert "Traceback" not in result.err


def test_not_set_up_and_leave(machines, tmp_path):
    (a,) = machines("a")
    result = a.run("sync")
    assert result.code == 1 and "sync init" in result.err
    no_passphrase = a.run("sync", "init", "--folder", str(tmp_path / "f"))
    assert no_passphrase.code == 1 and "no sync passphrase" in no_passphrase.err
    piped = a.run("sync", "init", "--folder", str(tmp_path / "f"), "--device", "a", input="from a pipe\n")
    assert piped.code == 0, piped.err
    status = json.loads(a.run("sync", "status", "--json").out)
    assert status["syncing"] and status["name"] == "a" and status["kind"] == "folder"
    left = a.run("sync", "leave")
    assert left.code == 0 and "data stays" in left.out
    assert json.loads(a.run("sync", "status", "--json").out) == {"syncing": False}
    assert "nothing to leave" in a.run("sync", "leave").out


@pytest.mark.parametrize("kill_at", ["after-publish", "mid-apply", "between-insert-and-map"])
def test_a_sync_killed_part_way_then_run_again_loses_and_duplicates_nothing(machines, target, kill_at):
    kind, location, _root = target
    a, b = machines("a", "b")
    for m in (a, b):
        assert m.join(kind, location).code == 0
    a.memory().add_note("first note")
    with a.history() as store:
        conv = store.create_conversation("Long talk")
        for n in range(6):
            store.append(conv.id, Message(role="user" if n % 2 == 0 else "assistant", content=f"line {n}"))
    b.memory().add_note("note from b")

    if kill_at == "after-publish":
        killed = a.run("sync", AGENTTUI_SYNC_TEST_KILL_AT=kill_at)  # pushed, never recorded as pushed
        assert killed.code == -signal.SIGKILL
        a.sync()
        b.sync()
    else:
        a.sync()
        killed = b.run("sync", AGENTTUI_SYNC_TEST_KILL_AT=kill_at)  # part of a's segment applied
        assert killed.code == -signal.SIGKILL
        second = b.sync()
        assert "received" in second.out
    a.sync()
    again = b.sync()
    assert again.out.startswith("sent 0 changes, received 0"), again.out

    expected = {"Long talk": sorted(("user" if n % 2 == 0 else "assistant", f"line {n}",
                                     f"line {n - 1}" if n else None) for n in range(6))}
    for m in (a, b):
        assert m.notes() == ["first note", "note from b"], m.name
        assert m.conversations() == expected, m.name


def test_a_corrupt_or_foreign_record_is_skipped_with_one_message(machines, tmp_path):
    import shutil

    folder = tmp_path / "Sync"
    a, b = machines("a", "b")
    for m in (a, b):
        assert m.join("folder", str(folder)).code == 0
    a.memory().add_note("a real note")
    a.sync()
    (own,) = [p for p in (folder / "devices").iterdir()]
    # a copy of a's segment under another device's name: sealed for a, so it opens for no one else
    shutil.copytree(own, folder / "devices" / "f00df00df00df00d")
    segment = own / "00000001.log"
    lines = segment.read_text().splitlines()
    segment.write_text("\n".join([*lines, "bm90IGEgcmVjb3Jk"]) + "\n")  # plus a line that is no record
    result = b.sync()
    assert b.notes() == ["a real note"]
    assert result.err.count("skipped") == 2, result.err  # one message per segment, not one per record
    assert "f00df00df00df00d/1" in result.err and "corrupt or foreign" in result.err
