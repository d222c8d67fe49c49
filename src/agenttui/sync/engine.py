"""``sync init``, ``sync now``, ``sync status``, ``sync leave``: the steps, in an order a kill
at any point cannot spoil.

A sync, under one lock (``<data dir>/sync/.lock``):

1. refresh the target (git fetch; a folder must be there) and get the group key: a wrong
   passphrase or an unreachable remote stops here, with nothing changed;
2. finish a segment whose apply a kill interrupted (the apply is idempotent);
3. scan this machine's changes and, in one state transaction, record them as sealed
   segments in the outbox;
4. publish the outbox (folder: atomic files; git: commit, push, pull --rebase, retry),
   then drop what the target has;
5. apply every other device's segments not applied yet, one segment at a time.
"""

from __future__ import annotations

import json
import os
import secrets as random
import signal
import socket
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agenttui.core.config.paths import Paths
from agenttui.sync.crypto import BadRecord, SegmentCipher, seal_group_key, unseal_group_key
from agenttui.sync.targets import FolderTarget, GitTarget, SyncError, Target

# A first sync of a large profile pushes more than 100 files (git's receive.unpackLimit), so a
# remote with git's defaults keeps them as the pack they came in: a joining machine's fetch then
# reads that pack as it is (0.4 s for 20k messages) where loose objects are compressed all over
# again for every fetch (5 s). 1,000 records are ~0.5 MB of ciphertext.
SEGMENT_RECORDS = 1000
#: Test hook: the name of a step at which the process kills itself with SIGKILL.
KILL_ENV = "AGENTTUI_SYNC_TEST_KILL_AT"


def kill_point(name: str) -> None:
    if os.environ.get(KILL_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)


def sync_dir(paths: Paths) -> Path:
    return paths.data_dir / "sync"


@dataclass
class SyncConfig:
    kind: str  # "git" | "folder"
    location: str
    device: str
    name: str
    group: str
    #: the opted-in 0600 passphrase file ("" when the keyring or the variable holds it)
    secret_file: str = ""

    @property
    def passphrase_file(self) -> Path | None:
        return Path(self.secret_file) if self.secret_file else None

    @classmethod
    def load(cls, paths: Paths) -> SyncConfig | None:
        try:
            doc = json.loads((sync_dir(paths) / "config.json").read_text(encoding="utf-8"))
            return cls(**{k: str(doc[k]) for k in ("kind", "location", "device", "name", "group")},
                       secret_file=str(doc.get("secret_file") or ""))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SyncError(f"the sync settings {sync_dir(paths) / 'config.json'} could not be read: {exc}") from exc

    def save(self, paths: Paths) -> None:
        from agenttui.core.files import atomic_write_text, ensure_dir

        ensure_dir(sync_dir(paths))
        atomic_write_text(sync_dir(paths) / "config.json", json.dumps(self.__dict__, indent=2) + "\n")


def make_target(paths: Paths, kind: str, location: str) -> Target:
    if kind == "git":
        return GitTarget(location, sync_dir(paths) / "git")
    return FolderTarget(Path(location))


def _state(paths: Paths) -> Any:
    from agenttui.sync.state import SyncState

    return SyncState(sync_dir(paths) / "state.sqlite3")


# -- init and leave ------------------------------------------------------------------
def init(paths: Paths, kind: str, location: str, device_name: str | None, passphrase: str,
         passphrase_file: bool = False) -> str:
    """``passphrase_file``: keep the passphrase in the 0600 file ``<config dir>/sync_passphrase``
    instead of the keyring (the opt-in for machines without one)."""
    from agenttui.core import files
    from agenttui.sync import secrets

    if SyncConfig.load(paths) is not None:
        raise SyncError("this machine already syncs; run `agenttui sync leave` first to change the target")
    if kind == "folder":
        location = str(Path(location).expanduser().resolve())
        Path(location).mkdir(parents=True, exist_ok=True)
    target = make_target(paths, kind, location)
    files.ensure_dir(sync_dir(paths))
    with files.locked(sync_dir(paths) / "sync"):
        try:
            target.prepare()
            meta = target.read_meta()
            if meta is None:
                group, key = random.token_hex(16), random.token_bytes(32)
                target.write_meta(seal_group_key(passphrase, group, key))
                joined = "created a new sync group"
            else:
                key = unseal_group_key(passphrase, meta)
                group = str(meta["group"])
                joined = "joined the sync group"
        except BaseException:
            if kind == "git":
                _remove_tree(sync_dir(paths) / "git")
            raise
        state = _state(paths)
        try:
            device = state.get("device") or random.token_hex(8)
            state.put("device", device)
            if state.get("joined") is None:  # a file this machine never synced yields to the group's
                state.put("joined", "1" if joined.startswith("joined") else "0")
        finally:
            state.close()
        name = (device_name or socket.gethostname() or "device")[:64]
        secret_file = secrets.passphrase_file(paths.config_dir) if passphrase_file else None
        if secret_file is not None:
            # before the config: a file that cannot be written leaves this machine not syncing
            secrets.store_in_file(secret_file, group, passphrase, key)
            kept = True
        else:
            kept = secrets.store(group, passphrase, key)
        SyncConfig(kind, location, device, name, group, str(secret_file or "")).save(paths)
    if secret_file is not None:
        where = f"kept in {secret_file} (mode 0600, not encrypted)"
    elif kept:
        where = "kept in the keyring"
    else:
        where = (f"not kept (no usable keyring): set {secrets.ENV_VAR} for each sync, "
                 "or run init again with --passphrase-file")
    return f"{joined} at {target.describe()} as device {name!r}; the passphrase is {where}. Run `agenttui sync`."


def leave(paths: Paths) -> str:
    from agenttui.sync import secrets

    config = SyncConfig.load(paths)
    if config is None:
        return "this machine does not sync; nothing to leave."
    secrets.forget(config.group)
    secrets.forget_file(config.passphrase_file)
    (sync_dir(paths) / "config.json").unlink()
    _remove_tree(sync_dir(paths) / "git")
    # the state stays: joining again re-sends nothing twice and keeps this device's id
    return f"stopped syncing with {make_target(paths, config.kind, config.location).describe()}; your data stays here."


def _remove_tree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


# -- a sync ----------------------------------------------------------------------------
@dataclass
class Outcome:
    sent: int = 0
    received: int = 0
    from_devices: set[str] = field(default_factory=set)
    skipped: list[str] = field(default_factory=list)
    conflicts: int = 0
    conflict_keys: list[str] = field(default_factory=list)  # "mem/<scope>/<id>", "conv/...", "file/..."
    files: list[str] = field(default_factory=list)  # logical paths this sync wrote or deleted here

    def summary(self) -> str:
        devices = len(self.from_devices)
        text = (f"sent {self.sent} change{'s' * (self.sent != 1)}, received {self.received} "
                f"from {devices} device{'s' * (devices != 1)}")
        if self.conflicts:
            text += f"; {self.conflicts} conflicting edit(s) kept (agenttui sync status)"
        return text


def _require(paths: Paths) -> SyncConfig:
    config = SyncConfig.load(paths)
    if config is None:
        raise SyncError("this machine does not sync yet: run `agenttui sync init --git URL` or `--folder DIR`")
    return config


def sync_now(paths: Paths, patterns: Sequence[str] = ()) -> Outcome:
    from agenttui.core import files
    from agenttui.sync import secrets

    config = _require(paths)
    target = make_target(paths, config.kind, config.location)
    with files.locked(sync_dir(paths) / "sync"):
        target.prepare()
        meta = target.read_meta()
        if meta is None or str(meta.get("group")) != config.group:
            raise SyncError(f"{target.describe()} is not this machine's sync group any more (its key file is "
                            "missing or replaced); nothing was changed. Run `agenttui sync leave`, then init again.")
        key = secrets.group_key(meta, config.passphrase_file)
        state = _state(paths)
        try:
            return _run(paths, config, target, key, state, tuple(patterns))
        finally:
            state.close()


def _run(paths: Paths, config: SyncConfig, target: Target, key: bytes, state: Any,
         patterns: tuple[str, ...]) -> Outcome:
    from agenttui.sync.apply import Applier
    from agenttui.sync.hlc import Clock

    out = Outcome()
    clock = Clock(config.device, state.get("clock"))
    applier = Applier(paths, state, clock, patterns)
    try:
        interrupted = state.get("applying")
        if interrupted:  # a kill mid-apply: finish it before a scan could mistake it for local edits
            device, seq = interrupted.rsplit("/", 1)
            if int(seq) in target.segments(device):
                _apply_segment(target, config, key, device, int(seq), state, applier, out)
            else:
                state.put("applying", None)
        applier.flush()
        out.sent = _record_local_changes(paths, config, key, state, clock, patterns)
        pending = state.outbox()
        if pending:
            seqs = [seq for seq, _body, _n in pending]
            target.publish(config.device, [(seq, body) for seq, body, _n in pending],
                           f"agenttui sync: {config.name} segments {seqs[0]}-{seqs[-1]}")
            kill_point("after-publish")
            with state.transaction():
                for seq in seqs:
                    state.confirm(seq)
        for device in target.devices():
            if device == config.device:
                continue
            for seq in target.segments(device):
                if seq > state.applied(device):
                    _apply_segment(target, config, key, device, seq, state, applier, out)
        applier.flush()
        from agenttui.core.models import utcnow

        state.put("last_sync", utcnow().isoformat(timespec="seconds"))
    finally:
        applier.close()
        state.put("clock", clock.last)
    out.received = applier.result.changes
    out.skipped.extend(applier.result.skipped)
    out.conflicts = applier.result.conflicts
    out.conflict_keys = list(applier.result.conflict_keys)
    out.files = list(applier.result.files)
    return out


def _apply_segment(target: Target, config: SyncConfig, key: bytes, device: str, seq: int, state: Any,
                   applier: Any, out: Outcome) -> None:
    from agenttui.core.models import utcnow

    cipher = SegmentCipher(key, config.group, device, seq)
    state.put("applying", f"{device}/{seq}")
    before = applier.result.changes
    bad = 0
    lines = target.read_segment(device, seq).splitlines()
    for n, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            record = cipher.open(line)
            applier.apply(device, record)
        except (BadRecord, ValueError, KeyError, TypeError):
            bad += 1
        if n == len(lines) // 2:
            applier.flush()
            kill_point("mid-apply")
    applier.flush()
    if bad:
        out.skipped.append(f"{bad} unreadable record(s) in {device}/{seq} were skipped (corrupt or foreign)")
    if applier.result.changes > before:
        out.from_devices.add(device)
    with state.transaction():
        state.set_applied(device, seq, utcnow().isoformat(timespec="seconds"))
        state.put("applying", None)


def _record_local_changes(paths: Paths, config: SyncConfig, key: bytes, state: Any, clock: Any,
                          patterns: tuple[str, ...]) -> int:
    from agenttui.sync.local_scan import scan

    found = scan(paths, state, clock, config.device, patterns)
    records = found.records
    if not records:
        with state.transaction():
            for profile, top in found.high_water.items():
                state.set_high_water(profile, top)
            _commit_seen(state, found)
        return 0
    with state.transaction():
        seq = int(state.get("next_seq") or "1")
        if state.get("named") != config.name:
            records = [{"t": "device", "name": config.name}, *records]
            state.put("named", config.name)
        for start in range(0, len(records), SEGMENT_RECORDS):
            cipher = SegmentCipher(key, config.group, config.device, seq)
            body = "".join(cipher.seal(r) + "\n" for r in records[start:start + SEGMENT_RECORDS])
            state.db.execute("INSERT INTO outbox (seq, body, records) VALUES (?, ?, ?)",
                             (seq, body, len(records[start:start + SEGMENT_RECORDS])))
            seq += 1
        state.put("next_seq", str(seq))
        for item_key, item_state in found.items.items():
            state.set_item(item_key, item_state)
        for profile, gid, local_id in found.messages:
            state.map_message(profile, gid, local_id)
        for profile, top in found.high_water.items():
            state.set_high_water(profile, top)
        _commit_seen(state, found)
        state.put("clock", clock.last)
    return len(found.records)


def _commit_seen(state: Any, found: Any) -> None:
    """What the scan saw, so the next one skips what did not change (in the scan's transaction)."""
    for profile, row in found.seen:
        state.see_conversation(profile, row)
    for profile, cid in found.unseen:
        state.unsee_conversation(profile, cid)
    for name, mark in found.marks.items():
        state.put(name, mark)


# -- status ---------------------------------------------------------------------------
def status(paths: Paths, patterns: Sequence[str] = ()) -> dict[str, Any]:
    config = SyncConfig.load(paths)
    if config is None:
        return {"syncing": False}
    from agenttui.sync.hlc import Clock
    from agenttui.sync.local_scan import scan

    state = _state(paths)
    try:
        names = state.device_names()
        devices = [{"device": config.device, "name": config.name, "this_machine": True,
                    "last_sync": state.get("last_sync")}]
        for device, seq, at in state.applied_all():
            devices.append({"device": device, "name": names.get(device, device), "this_machine": False,
                            "last_applied_segment": seq, "last_sync": at})
        # a dry scan: nothing is committed (the transaction is never opened)
        pending = len(scan(paths, state, Clock(config.device, state.get("clock")), config.device,
                           tuple(patterns)).records)
        queued = sum(n for _seq, _body, n in state.outbox())
        return {"syncing": True, "target": make_target(paths, config.kind, config.location).describe(),
                "kind": config.kind, "location": config.location, "device": config.device, "name": config.name,
                "devices": devices, "pending_changes": pending + queued, "conflicts": state.conflicts()}
    finally:
        state.close()


# -- for the app ----------------------------------------------------------------------
def syncs(paths: Paths) -> bool:
    """This machine has joined a sync target (a stat: cheap enough for a widget's mount)."""
    return (sync_dir(paths) / "config.json").is_file()


def last_sync(paths: Paths) -> str | None:
    """When this machine last finished a sync (UTC, ISO 8601), read-only; None if never."""
    import sqlite3
    from contextlib import closing

    db_path = sync_dir(paths) / "state.sqlite3"
    if not db_path.exists():
        return None
    try:
        with closing(sqlite3.connect(f"{db_path.as_uri()}?mode=ro", uri=True, timeout=5)) as db:
            row = db.execute("SELECT v FROM kv WHERE k = 'last_sync'").fetchone()
    except sqlite3.Error:
        return None
    return str(row[0]) if row else None
