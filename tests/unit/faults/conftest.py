"""Fault injection for the robustness suite.

Three ways to make a write fail, most real first:

* ``real_tmpfs(size)`` mounts a small tmpfs and ``readonly_bind(dir)`` a
  read-only bind mount of a folder: the kernel itself answers ENOSPC and
  EROFS. Both need CAP_SYS_ADMIN (root in a container that allows mounts);
  elsewhere the test is skipped with that reason -- the monkeypatched
  variants below still run everywhere. (chmod cannot stand in: root ignores
  file modes, and this suite usually runs as root in CI containers.)
* ``fail_os(monkeypatch, errno, calls)`` makes the named ``os`` calls raise
  ``OSError(errno)`` for paths inside AGENTTUI_HOME only (pytest's own files
  and the system temp dir keep working).
* SQLite's own limits: ``PRAGMA max_page_count`` (a database that cannot
  grow answers SQLITE_FULL) and a second connection holding the write lock
  (SQLITE_BUSY after the busy timeout).
"""

from __future__ import annotations

import contextlib
import errno as errno_mod
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

# errno -> the words the user sees (core/errors.py), for assertions
WORDS = {
    errno_mod.ENOSPC: "the disk is full",
    errno_mod.EROFS: "read-only",
    errno_mod.EACCES: "permission denied",
    errno_mod.EIO: "input/output error",
}
FAULTS = tuple(WORDS)


#: Where each fault strikes, as on a real machine: a full disk or a failing one
#: answers the data's fsync (delayed allocation: ext4, xfs, tmpfs report ENOSPC
#: there too), a read-only or foreign folder refuses the open, mkdir and rename.
STAGE = {errno_mod.ENOSPC: "sync", errno_mod.EIO: "sync",
         errno_mod.EROFS: "open", errno_mod.EACCES: "open"}


def fail_os(monkeypatch: pytest.MonkeyPatch, code: int, root: Path, stage: str | None = None) -> None:
    """Make writes under ``root`` fail with ``OSError(code)`` at ``stage`` (see STAGE).

    Only files under ``root`` are affected (pytest's own files and the temp
    dir keep working): ``open``/``mkdir``/``replace`` by path, ``fsync`` by
    the fds this patch saw opened under ``root``.
    """
    stage = stage or STAGE[code]
    root_s = str(root)
    ours: set[int] = set()
    real_open, real_fsync = os.open, os.fsync

    def under(path: object) -> bool:
        try:
            return os.fspath(path).startswith(root_s)  # type: ignore[arg-type]
        except TypeError:
            return False

    def refuse(path: object) -> OSError:
        return OSError(code, os.strerror(code), os.fspath(path))  # type: ignore[arg-type]

    def fake_open(path, flags, *args, **kwargs):
        writing = flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)
        if stage == "open" and writing and under(path):
            raise refuse(path)
        fd = real_open(path, flags, *args, **kwargs)
        if under(path):
            ours.add(fd)
        return fd

    def fake_fsync(fd):
        fileno = fd if isinstance(fd, int) else fd.fileno()
        if stage == "sync" and fileno in ours:
            raise OSError(code, os.strerror(code))
        return real_fsync(fd)

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "fsync", fake_fsync)
    if stage == "open":
        for name in ("mkdir", "replace", "rename"):
            real = getattr(os, name)

            def failing(src, *args, _real=real, **kwargs):
                if under(src):
                    raise refuse(src)
                return _real(src, *args, **kwargs)

            monkeypatch.setattr(os, name, failing)


def _can_mount() -> str | None:
    """None when mounting works here, else why not (the skip reason)."""
    if sys.platform != "linux":
        return "tmpfs and bind mounts are Linux-only here"
    if shutil.which("mount") is None:
        return "no mount(8)"
    probe = Path(tempfile.mkdtemp(prefix="agenttui-mount-probe-"))
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            return f"cannot mount (needs CAP_SYS_ADMIN): {done.stderr.strip()[:120]}"
        subprocess.run(["umount", str(probe)], capture_output=True)
        return None
    finally:
        with contextlib.suppress(OSError):
            probe.rmdir()


_MOUNT_PROBLEM: list[str | None] = []


def mount_problem() -> str | None:
    if not _MOUNT_PROBLEM:
        _MOUNT_PROBLEM.append(_can_mount())
    return _MOUNT_PROBLEM[0]


@contextlib.contextmanager
def _mounted(args: list[str], where: Path) -> Iterator[Path]:
    subprocess.run(["mount", *args, str(where)], check=True, capture_output=True)
    try:
        yield where
    finally:
        for _ in range(3):  # a just-exited subprocess may still hold it for a moment
            if subprocess.run(["umount", str(where)], capture_output=True).returncode == 0:
                break
        else:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)


@pytest.fixture
def real_tmpfs(tmp_path):
    """``with real_tmpfs("1m") as root:`` a fresh tmpfs of that size (skips without mounts)."""
    problem = mount_problem()
    if problem:
        pytest.skip(problem)

    def make(size: str):
        where = tmp_path / f"tmpfs-{size}"
        where.mkdir()
        return _mounted(["-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs"], where)

    return make


@pytest.fixture
def readonly_bind(tmp_path):
    """``with readonly_bind(src) as view:`` ``src`` seen through a read-only bind mount."""
    problem = mount_problem()
    if problem:
        pytest.skip(problem)

    @contextlib.contextmanager
    def make(source: Path) -> Iterator[Path]:
        view = tmp_path / f"ro-{source.name}"
        view.mkdir()
        subprocess.run(["mount", "--bind", str(source), str(view)], check=True, capture_output=True)
        try:
            subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], check=True,
                           capture_output=True)
            yield view
        finally:
            subprocess.run(["umount", str(view)], capture_output=True)

    return make


def fill(root: Path) -> Path:
    """Fill the file system of ``root`` to the last byte; returns the filler file."""
    filler = root / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 20, 1 << 16, 1 << 12, 1 << 9, 1):  # big blocks, then the crumbs
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)
    return filler


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(tmp_path):
    """``run_cli(home, "memory", "add", "x", input=..., env=...)``: a real ``python -m agenttui``."""

    def run(home: Path, *args: str, input: str | bytes = "", env: dict[str, str] | None = None,
            timeout: float = 120) -> Result:
        environ = dict(os.environ)
        environ["PYTHONPATH"] = os.pathsep.join([str(REPO), str(REPO / "src"),
                                                 environ.get("PYTHONPATH", "")])
        environ["AGENTTUI_HOME"] = str(home)
        environ["TMPDIR"] = str(tmp_path)  # crash logs / recovery files that fall back to the temp dir
        environ.update(env or {})
        data = input.encode() if isinstance(input, str) else input
        proc = subprocess.run([sys.executable, "-m", "agenttui", *args], capture_output=True,
                              input=data, cwd=tmp_path, env=environ, timeout=timeout)
        return Result(proc.returncode, proc.stdout.decode("utf-8", "replace"),
                      proc.stderr.decode("utf-8", "replace"))

    return run


def no_traceback(result: Result) -> None:
    assert "Traceback" not in result.err, result.err
    assert "Traceback" not in result.out, result.out
