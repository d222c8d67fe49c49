"""``agenttui sync`` over a large profile (README "Sync").

    .venv/bin/python bench/bench_sync.py [--messages 200000] [--notes 2000]

Machine A holds ``--messages`` messages (100 a conversation) and ``--notes`` notes. In
one run, each step is a real ``python -m agenttui sync`` process (keyring: a file, so the
passphrase's scrypt runs at ``init`` only, as with an OS keyring):

* ``git_first_sync_s``: A's first sync to an empty local bare repository (file://), against
  ``plain_git_push_s``: ``git add`` + ``commit`` + ``push`` of A's data files (the same
  bytes, unencrypted) to another empty bare repository;
* ``git_join_s``: machine B's ``sync init`` + first sync (receives everything), against
  ``plain_git_clone_s``: ``git clone`` of that plain repository;
* ``git_incremental_s``: A sends 10 new messages; ``git_incremental_receive_s``: B gets them.
  Goal: each <= 2 s. Against ``plain_git_incremental_s`` (commit + push of those messages'
  text to the plain repository) and ``process_start_s`` (``agenttui --version``: the floor
  of any CLI run, interpreter and imports).
* ``folder_first_sync_s`` / ``folder_join_s``: the same to a local folder, from machine C (a
  copy of A's data as built) to D;
* ``remote_bytes`` (the bare repository after the first sync) against ``data_bytes`` (A's
  history database and memory file) and ``plain_remote_bytes``;
* ``*_vs_*``: the ratios; ``git_join_init_s`` (clone and passphrase) and ``git_join_sync_s``
  apart; the load average at the start, after the git steps and at the end.

The made-up text holds no secret, so the build stores it without redaction (setup, not measured).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from agenttui.core.config.paths import Paths  # noqa: E402
from agenttui.core.files import ensure_dir  # noqa: E402
from agenttui.core.history.store import HistoryStore  # noqa: E402
from agenttui.core.memory import file as memory_file  # noqa: E402
from agenttui.core.memory.file import ScopeData  # noqa: E402
from agenttui.core.models import Conversation, MemoryItem, Message, utcnow  # noqa: E402

PASSPHRASE = "bench passphrase"
WORDS = ("the build failed because the cache key changed after the lockfile update so we pinned "
         "the resolver and reran the migration on staging before the release notes went out").split()


def _env(home: Path, keyring: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(AGENTTUI_HOME=str(home), PYTHON_KEYRING_BACKEND="tests.fakes.memory_keyring.FileKeyring",
               AGENTTUI_TEST_KEYRING_FILE=str(keyring),
               PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "src")]))
    env.pop("AGENTTUI_SYNC_PASSPHRASE", None)
    return env


def agenttui(home: Path, *args: str, passphrase: bool = False) -> tuple[float, str]:
    env = _env(home, home.parent / f"{home.name}-keyring.json")
    if passphrase:
        env["AGENTTUI_SYNC_PASSPHRASE"] = PASSPHRASE
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "agenttui", *args], capture_output=True, text=True, env=env)
    took = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"agenttui {' '.join(args)} failed: {proc.stderr}")
    return took, proc.stdout.strip()


def _text(n: int, length: int = 40) -> str:
    return " ".join(WORDS[(n * 7 + k) % len(WORDS)] for k in range(length)) + f" #{n}"


def build(home: Path, messages: int, notes: int) -> Paths:
    paths = Paths(config_dir=home / "config", data_dir=home / "data")
    ensure_dir(paths.profile_dir("default"))
    store = HistoryStore(paths.history_db("default"))
    per = 100
    for c in range(max(1, messages // per)):
        batch = [Message(role="user" if k % 2 == 0 else "assistant", content=_text(c * per + k))
                 for k in range(min(per, messages - c * per))]
        cid = f"conv{c:06d}"
        store.import_conversation(Conversation(id=cid, title=f"conversation {c}", created=utcnow(),
                                               updated=utcnow()), [])
        store.append_many(cid, batch, redacted=True)  # the made-up text holds no secret: setup, not measured
    store.close()
    ensure_dir(paths.user_memory_file.parent)
    items = [MemoryItem(kind="note", scope="user", text=_text(n, 12)) for n in range(notes)]
    memory_file.write(paths.user_memory_file, ScopeData("user", items))
    return paths


def add_messages(paths: Paths, count: int) -> None:
    with HistoryStore(paths.history_db("default")) as store:
        conv = store.create_conversation("incremental")
        store.append_many(conv.id, [Message(role="user" if k % 2 == 0 else "assistant", content=_text(10**7 + k))
                                    for k in range(count)])


def size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def git(*args: str, cwd: Path | None = None) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def plain_git(paths: Paths, work: Path) -> dict[str, float | int]:
    bare = work / "plain.git"
    git("init", "-q", "--bare", str(bare))
    repo = work / "plain"
    git("init", "-q", str(repo))
    data = [paths.history_db("default"), paths.user_memory_file]
    for source in data:
        (repo / source.name).write_bytes(source.read_bytes())
    start = time.perf_counter()
    git("add", "-A", cwd=repo)
    git("-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "data", cwd=repo)
    git("push", "-q", bare.as_uri(), "HEAD:refs/heads/main", cwd=repo)
    push = time.perf_counter() - start
    start = time.perf_counter()
    git("clone", "-q", "-b", "main", bare.as_uri(), str(work / "plain-clone"))  # with its checkout
    clone = time.perf_counter() - start
    return {"plain_git_push_s": round(push, 2), "plain_git_clone_s": round(clone, 2),
            "plain_remote_bytes": size(bare)}


def plain_git_incremental(repo: Path, bare: Path) -> float:
    """The baseline of an incremental sync: commit and push 10 new messages' text as one file."""
    (repo / "incremental.txt").write_text("\n".join(_text(10**7 + k) for k in range(10)), encoding="utf-8")
    start = time.perf_counter()
    git("add", "-A", cwd=repo)
    git("-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "10 messages", cwd=repo)
    git("push", "-q", bare.as_uri(), "HEAD:refs/heads/main", cwd=repo)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--notes", type=int, default=2_000)
    parser.add_argument("--keep", type=Path, default=None,
                        help="build in this (new) folder and keep it, to profile a later sync by hand")
    args = parser.parse_args()
    out: dict[str, float | int | str] = {"messages": args.messages, "notes": args.notes,
                                         "load_1min": round(os.getloadavg()[0], 2)}
    with tempfile.TemporaryDirectory(prefix="bench-sync-") as tmp:
        work = Path(tmp)
        if args.keep is not None:
            args.keep.mkdir(parents=True)
            work = args.keep
        a_home, b_home = work / "a", work / "b"
        start = time.perf_counter()
        paths_a = build(a_home, args.messages, args.notes)
        out["build_s"] = round(time.perf_counter() - start, 1)
        out["data_bytes"] = paths_a.history_db("default").stat().st_size + paths_a.user_memory_file.stat().st_size
        out.update(plain_git(paths_a, work))
        shutil.copytree(a_home / "data", work / "a-data")  # for the folder run, before any sync

        bare = work / "remote.git"
        git("init", "-q", "--bare", str(bare))
        agenttui(a_home, "sync", "init", "--git", bare.as_uri(), "--device", "a", passphrase=True)
        out["git_first_sync_s"], out["git_first_sync_said"] = agenttui(a_home, "sync")
        out["remote_bytes"] = size(bare)
        took, _ = agenttui(b_home, "sync", "init", "--git", bare.as_uri(), "--device", "b", passphrase=True)
        took2, out["git_join_said"] = agenttui(b_home, "sync")
        out["git_join_init_s"], out["git_join_sync_s"], out["git_join_s"] = took, took2, took + took2
        out["load_1min_after_git"] = round(os.getloadavg()[0], 2)
        add_messages(paths_a, 10)
        out["git_incremental_s"], _ = agenttui(a_home, "sync")
        out["git_incremental_receive_s"], out["git_incremental_said"] = agenttui(b_home, "sync")
        out["plain_git_incremental_s"] = plain_git_incremental(work / "plain", work / "plain.git")
        out["process_start_s"], _ = agenttui(a_home, "--version")  # the floor of any CLI run
        out["incremental_vs_plain_push"] = round(out["git_incremental_s"] / out["plain_git_incremental_s"], 1)
        out["first_sync_vs_plain_push"] = round(out["git_first_sync_s"] / out["plain_git_push_s"], 1)
        out["join_vs_plain_clone"] = round(out["git_join_s"] / out["plain_git_clone_s"], 1)
        out["remote_vs_data"] = round(out["remote_bytes"] / out["data_bytes"], 2)
        out["remote_vs_plain_remote"] = round(out["remote_bytes"] / out["plain_remote_bytes"], 1)

        folder = work / "Sync"
        c_home, d_home = work / "c", work / "d"
        shutil.copytree(work / "a-data", c_home / "data")  # A's data as it was built
        agenttui(c_home, "sync", "init", "--folder", str(folder), "--device", "c", passphrase=True)
        out["folder_first_sync_s"], _ = agenttui(c_home, "sync")
        took, _ = agenttui(d_home, "sync", "init", "--folder", str(folder), "--device", "d", passphrase=True)
        took2, _ = agenttui(d_home, "sync")
        out["folder_join_s"] = round(took + took2, 2)
        out["folder_bytes"] = size(folder)
        out["folder_first_sync_vs_plain_push"] = round(out["folder_first_sync_s"] / out["plain_git_push_s"], 1)
        out["folder_join_vs_plain_clone"] = round(out["folder_join_s"] / out["plain_git_clone_s"], 1)
        out["load_1min_end"] = round(os.getloadavg()[0], 2)
    for key, value in out.items():
        if isinstance(value, float):
            out[key] = round(value, 2)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
