"""Where the ciphertext lives: a folder, or a git remote through the user's own ``git``.

Both are read the same way, as a directory tree (a folder target is the folder; a git
target is a clone kept under ``<data dir>/sync/git``). They differ in how it is
refreshed and how this device's new segment files get out:

* folder: files written atomically (temp file, fsync, rename), never edited again;
* git: commit this device's new files, push; a rejected push is followed by
  ``git pull --rebase`` and another try (no two devices write the same file, so the
  rebase never conflicts).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

META = "agenttui-sync.json"
DEVICES = "devices"
_SEGMENT = re.compile(r"(\d{8})\.log")
BRANCH = "main"
PUSH_TRIES = 5


# Segments are ciphertext: a delta search between them never finds anything and cost most
# of a large fetch (pack-objects' prepare-pack); received packs are kept as they came, not
# exploded into loose objects that the next fetch deflates all over again. ``-c`` reaches the
# remote's git too when it runs on this machine (file://, a local path).
_FAST = ("-c", "core.bigFileThreshold=1m", "-c", "pack.window=0", "-c", "transfer.unpackLimit=1")


class SyncError(Exception):
    """A sentence for the user: the sync did not happen (or not all of it)."""


def segment_name(seq: int) -> str:
    return f"{seq:08d}.log"


class Target:
    root: Path

    def describe(self) -> str:
        raise NotImplementedError

    def prepare(self) -> None:
        raise NotImplementedError

    def publish(self, device: str, segments: list[tuple[int, str]], message: str) -> None:
        raise NotImplementedError

    def write_meta(self, doc: dict[str, Any]) -> None:
        raise NotImplementedError

    # -- reading (shared) ---------------------------------------------------
    def read_meta(self) -> dict[str, Any] | None:
        try:
            doc = json.loads((self.root / META).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise SyncError(f"the sync target's {META} could not be read: {exc}") from exc
        if not isinstance(doc, dict):
            raise SyncError(f"the sync target's {META} is not a JSON object")
        return doc

    def devices(self) -> list[str]:
        base = self.root / DEVICES
        if not base.is_dir():
            return []
        return sorted(p.name for p in base.iterdir() if p.is_dir() and not p.name.startswith("."))

    def segments(self, device: str) -> list[int]:
        base = self.root / DEVICES / device
        if not base.is_dir():
            return []
        found = (_SEGMENT.fullmatch(p.name) for p in base.iterdir())
        return sorted(int(m.group(1)) for m in found if m)

    def read_segment(self, device: str, seq: int) -> str:
        return (self.root / DEVICES / device / segment_name(seq)).read_text(encoding="ascii")

    def _segment_path(self, device: str, seq: int) -> Path:
        return self.root / DEVICES / device / segment_name(seq)


class FolderTarget(Target):
    def __init__(self, folder: Path) -> None:
        self.root = folder

    def describe(self) -> str:
        return f"folder {self.root}"

    def prepare(self) -> None:
        if not self.root.is_dir():
            raise SyncError(f"the sync folder {self.root} is not there (unmounted, or not synced yet?); "
                            "nothing was changed")

    def _write(self, path: Path, data: bytes) -> None:
        from agenttui.core.files import atomic_write_bytes, ensure_dir

        ensure_dir(path.parent)
        atomic_write_bytes(path, data)

    def publish(self, device: str, segments: list[tuple[int, str]], message: str) -> None:
        for seq, body in segments:
            path = self._segment_path(device, seq)
            if not path.exists():  # written before a kill: it is the same sealed text
                self._write(path, body.encode("ascii"))

    def write_meta(self, doc: dict[str, Any]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self._write(self.root / META, (json.dumps(doc, indent=2) + "\n").encode("utf-8"))


class GitTarget(Target):
    def __init__(self, url: str, clone: Path) -> None:
        self.url = url
        self.root = clone

    def describe(self) -> str:
        return f"git {self.url}"

    def _git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ)
        env.setdefault("GIT_TERMINAL_PROMPT", "0")  # a sync in the background must never wait on a prompt
        try:
            proc = subprocess.run(["git", "-C", str(self.root), *_FAST, *args], capture_output=True, text=True,
                                  env=env, timeout=600)
        except FileNotFoundError:
            raise SyncError("git is not installed (or not on PATH); install it or use --folder") from None
        except subprocess.TimeoutExpired:
            raise SyncError(f"git {args[0]} took over 10 minutes; nothing more was done") from None
        if check and proc.returncode != 0:
            detail = (proc.stderr.strip() or proc.stdout.strip()).splitlines()
            raise SyncError(f"git {args[0]} failed: {detail[-1] if detail else 'exit ' + str(proc.returncode)}")
        return proc

    def prepare(self) -> None:
        from agenttui.core.files import ensure_dir

        if not (self.root / ".git").is_dir():
            ensure_dir(self.root)
            self._git("init", "-q")
            self._git("remote", "add", "origin", self.url)
        elif self._known_url() != self.url:  # read from a file: one git process fewer per sync
            self._git("remote", "set-url", "origin", self.url)
        self._remember_url()
        fetched = self._git("fetch", "-q", "origin", check=False)
        if fetched.returncode != 0:
            lines = fetched.stderr.strip().splitlines()
            raise SyncError(f"the git remote {self.url} could not be reached "
                            f"({lines[-1] if lines else 'git fetch failed'}); nothing was changed")
        refs = dict(line.split(" ", 1)[::-1] for line in self._git(
            "for-each-ref", "--format=%(objectname) %(refname)", f"refs/heads/{BRANCH}",
            f"refs/remotes/origin/{BRANCH}").stdout.splitlines() if " " in line)
        remote = refs.get(f"refs/remotes/origin/{BRANCH}")
        if remote is None:
            self._git("symbolic-ref", "HEAD", f"refs/heads/{BRANCH}")
        elif refs.get(f"refs/heads/{BRANCH}") != remote or not self._on_branch():
            # the clone is a cache: whatever it holds that the remote lacks is in the outbox again
            self._git("checkout", "-q", "-B", BRANCH, f"origin/{BRANCH}")
            self._git("reset", "-q", "--hard", f"origin/{BRANCH}")
        # else: already at the remote's commit (the usual incremental sync): two git runs saved

    def _url_file(self) -> Path:
        return self.root / ".git" / "agenttui-remote-url"

    def _known_url(self) -> str | None:
        try:
            return self._url_file().read_text(encoding="utf-8")
        except OSError:
            return None

    def _remember_url(self) -> None:
        if self._known_url() != self.url:
            self._url_file().write_text(self.url, encoding="utf-8")

    def _on_branch(self) -> bool:
        """HEAD is the branch, and no rebase a kill interrupted is under way."""
        git_dir = self.root / ".git"
        try:
            head = (git_dir / "HEAD").read_text(encoding="utf-8").strip()
        except OSError:
            return False
        return (head == f"ref: refs/heads/{BRANCH}" and not (git_dir / "rebase-merge").exists()
                and not (git_dir / "rebase-apply").exists())

    def _commit_and_push(self, paths: list[Path], message: str) -> None:
        self._git("add", "--", *(str(p.relative_to(self.root)) for p in paths))
        if self._git("diff", "--cached", "--quiet", check=False).returncode == 0:
            staged_nothing = True
        else:
            staged_nothing = False
            self._git("-c", "user.name=agenttui", "-c", "user.email=sync@agenttui.invalid",
                      "-c", "commit.gpgsign=false", "commit", "-q", "-m", message)
        ahead = self._git("rev-list", "--count", f"origin/{BRANCH}..HEAD", check=False)
        if staged_nothing and ahead.returncode == 0 and ahead.stdout.strip() == "0":
            return  # already on the remote (pushed before a kill)
        last = ""
        for _ in range(PUSH_TRIES):
            pushed = self._git("push", "-q", "origin", f"HEAD:refs/heads/{BRANCH}", check=False)
            if pushed.returncode == 0:
                return  # the next sync's fetch brings origin/main up to this commit
            last = pushed.stderr.strip().splitlines()[-1] if pushed.stderr.strip() else "push refused"
            pulled = self._git("-c", "user.name=agenttui", "-c", "user.email=sync@agenttui.invalid",
                               "pull", "-q", "--rebase", "origin", BRANCH, check=False)
            if pulled.returncode != 0:
                self._git("rebase", "--abort", check=False)
                raise SyncError(f"git pull --rebase failed: {pulled.stderr.strip()[-300:]}")
        raise SyncError(f"git push to {self.url} failed {PUSH_TRIES} times ({last}); "
                        "your changes stay queued for the next sync")

    def publish(self, device: str, segments: list[tuple[int, str]], message: str) -> None:
        from agenttui.core.files import ensure_dir

        written = []
        for seq, body in segments:
            path = self._segment_path(device, seq)
            ensure_dir(path.parent)
            path.write_text(body, encoding="ascii")
            written.append(path)
        if written:
            self._commit_and_push(written, message)

    def write_meta(self, doc: dict[str, Any]) -> None:
        path = self.root / META
        path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        self._commit_and_push([path], "agenttui sync: create the group")
