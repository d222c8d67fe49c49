"""Three machines on one computer: three AGENTTUI_HOMEs, each with its own keyring file,
syncing through a local bare git repository (file://) or a local folder.

Data is written with the real stores in this process; ``agenttui sync`` runs as a real
subprocess (``python -m agenttui``) with the machine's environment.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
PASSPHRASE = "correct horse battery staple"


@dataclass
class Run:
    code: int
    out: str
    err: str


@dataclass
class Machine:
    name: str
    home: Path
    keyring_file: Path

    @property
    def paths(self):
        from agenttui.core.config.paths import Paths

        return Paths(config_dir=self.home / "config", data_dir=self.home / "data")

    def env(self, **extra: str) -> dict[str, str]:
        environ = dict(os.environ)
        environ["PYTHONPATH"] = os.pathsep.join([str(REPO), str(REPO / "src"), environ.get("PYTHONPATH", "")])
        environ["AGENTTUI_HOME"] = str(self.home)
        environ["PYTHON_KEYRING_BACKEND"] = "tests.fakes.memory_keyring.FileKeyring"
        environ["AGENTTUI_TEST_KEYRING_FILE"] = str(self.keyring_file)
        environ.pop("AGENTTUI_SYNC_PASSPHRASE", None)
        environ.update(extra)
        return environ

    def run(self, *args: str, input: str = "", **extra: str) -> Run:
        proc = subprocess.run([sys.executable, "-m", "agenttui", *args], capture_output=True, text=True,
                              env=self.env(**extra), cwd=self.home.parent, timeout=240, input=input)
        return Run(proc.returncode, proc.stdout, proc.stderr)

    def sync(self, **extra: str) -> Run:
        result = self.run("sync", **extra)
        assert result.code == 0, (self.name, result.out, result.err)
        return result

    def join(self, kind: str, location: str, passphrase: str = PASSPHRASE) -> Run:
        return self.run("sync", "init", f"--{kind}", location, "--device", self.name,
                        AGENTTUI_SYNC_PASSPHRASE=passphrase)

    # -- the real stores ------------------------------------------------------------
    def memory(self):
        from agenttui.core.memory.store import MemoryStore

        return MemoryStore(self.paths, "default")

    def history(self):
        from agenttui.core.files import ensure_dir
        from agenttui.core.history.store import HistoryStore

        ensure_dir(self.paths.profile_dir("default"))
        return HistoryStore(self.paths.history_db("default"))

    def notes(self) -> list[str]:
        return sorted(i.display for i in self.memory().items())

    def conversations(self) -> dict[str, list[tuple[str, str | None, str | None]]]:
        """Title -> the messages as (role, content, parent's content), sorted: the tree, not row ids."""
        with self.history() as store:
            out = {}
            for conv in store.list_conversations(limit=1000, archived=None):
                messages = list(store.iter_messages(conv.id))
                by_id = {m.id: m for m in messages}
                out[conv.title] = sorted(
                    (m.role, m.content or "", by_id[m.parent_id].content if m.parent_id in by_id else None)
                    for m in messages)
            return out


@pytest.fixture
def machines(tmp_path):
    def make(*names: str) -> list[Machine]:
        return [Machine(n, tmp_path / f"home-{n}", tmp_path / f"keyring-{n}.json") for n in names]

    return make


@pytest.fixture(params=["git", "folder"])
def target(request, tmp_path) -> tuple[str, str, Path]:
    """(kind, location for --git/--folder, the directory to inspect)."""
    if request.param == "git":
        bare = tmp_path / "remote.git"
        subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
        return "git", bare.as_uri(), bare
    folder = tmp_path / "Sync" / "agenttui"
    return "folder", str(folder), folder


def tree_digest(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def digest():
    """Every file under a directory, by relative path: to show that nothing changed."""
    return tree_digest
