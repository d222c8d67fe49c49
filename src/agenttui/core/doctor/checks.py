"""``agenttui doctor``: one screen of checks, each with a verdict and a fix.

Checks only read: doctor never moves, repairs or creates user data (so it is
safe to run when something is wrong). The endpoint checks
(:mod:`agenttui.core.doctor.endpoint`: ``GET /models``, then a one-token chat
probe that decides the verdict) use the standard library instead of the
openai client, so doctor works even when the openai import is what is broken.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from agenttui.core.config.paths import Paths
from agenttui.core.doctor.endpoint import check_endpoint, check_models, check_request_options
from agenttui.core.doctor.semantic import check_semantic
from agenttui.core.models import MemoryItem

Status = Literal["ok", "warn", "fail", "skip"]
MIN_PYTHON = (3, 11)
DEFAULT_BASE_URL = "https://api.openai.com/v1"


@dataclass
class Check:
    name: str
    status: Status
    detail: str
    fix: str = ""


@dataclass
class DoctorContext:
    paths: Paths
    environ: Mapping[str, str]
    endpoint_timeout: float = 3.0  # GET /models
    offline: bool = False
    python_version: tuple[int, int] = sys.version_info[:2]
    probe_timeout: float = 60.0  # the chat probe: what a turn would wait ([agent] request_timeout)
    cache: dict[str, Any] = field(default_factory=dict)  # answers shared by the endpoint checks
    workdir: Path = field(default_factory=Path.cwd)  # where the repository's AGENTS.md is looked for


def check_python(ctx: DoctorContext) -> Check:
    version = ".".join(map(str, ctx.python_version))
    if ctx.python_version >= MIN_PYTHON:
        return Check("python", "ok", f"Python {version}")
    return Check("python", "fail", f"Python {version} is too old",
                 "install Python 3.11 or newer and reinstall agenttui with it")


def check_config(ctx: DoctorContext) -> Check:
    from agenttui.core.config.file import load_settings

    loaded = load_settings(ctx.paths)
    if loaded.error:
        return Check("config", "fail", str(loaded.error),
                     f"fix the line named above in {ctx.paths.config_file} "
                     "(agenttui runs on defaults until then and never overwrites it)")
    if not ctx.paths.config_file.exists():
        return Check("config", "ok", f"no config file yet; defaults in use ({ctx.paths.config_file})")
    if loaded.warnings:
        return Check("config", "warn", "; ".join(loaded.warnings),
                     f"remove or correct those keys in {ctx.paths.config_file}")
    return Check("config", "ok", f"{ctx.paths.config_file} is valid")


def _loose_permissions(root: Path) -> list[str]:
    loose = []
    for path in [root, *root.rglob("*")]:
        try:
            mode = path.lstat().st_mode
        except OSError:
            continue
        if stat.S_ISLNK(mode):
            continue
        if mode & 0o077:
            loose.append(f"{path} ({stat.filemode(mode)})")
    return loose


def check_permissions(ctx: DoctorContext) -> Check:
    roots = [d for d in (ctx.paths.config_dir, ctx.paths.data_dir) if d.exists()]
    if not roots:
        return Check("data dirs", "ok", "nothing written yet; directories are created on first use (0700)")
    for root in roots:
        if not os.access(root, os.W_OK):
            return Check("data dirs", "fail", f"{root} is not writable",
                         f"check the owner of {root} (chown -R $USER {root})")
    loose = [entry for root in roots for entry in _loose_permissions(root)]
    if loose:
        shown = ", ".join(loose[:3]) + (f" and {len(loose) - 3} more" if len(loose) > 3 else "")
        return Check("data dirs", "warn", f"readable by others: {shown}",
                     "chmod -R go-rwx " + " ".join(str(r) for r in roots))
    return Check("data dirs", "ok", "private (dirs 0700, files 0600): "
                 + ", ".join(str(r) for r in roots))


def check_keyring(ctx: DoctorContext) -> Check:
    from agenttui.core.config.api_key import keyring_status

    ok, backend, advice = keyring_status()
    if ok:
        return Check("keyring", "ok", f"backend: {backend}")
    return Check("keyring", "warn", f"no usable keyring backend ({backend})", advice)


def check_api_key(ctx: DoctorContext) -> Check:
    from agenttui.core.config.api_key import get_api_key
    from agenttui.core.config.key_file import key_file_path

    key_file = key_file_path(ctx.paths.config_dir)  # the opt-in file Settings writes without a keyring
    lookup = get_api_key(ctx.environ, key_file=key_file)
    if lookup.value:
        where = {"env": "the OPENAI_API_KEY environment variable",
                 "file": f"the key file {key_file} (mode 0600)"}.get(lookup.source or "", "the OS keyring")
        return Check("api key", "ok", f"found in {where} (not shown)")
    detail = "no API key found" + (f" ({lookup.problem})" if lookup.problem else "")
    return Check("api key", "fail", detail,
                 "run `agenttui key set`, or export OPENAI_API_KEY=… "
                 "(any value works for a local server such as Ollama)")


def _effective_endpoint(ctx: DoctorContext) -> tuple[str, str]:
    from agenttui.core.config.file import load_settings

    settings = load_settings(ctx.paths).settings
    base = ctx.environ.get("OPENAI_BASE_URL") or settings.base_url or DEFAULT_BASE_URL
    model = ctx.environ.get("AGENTTUI_MODEL") or settings.model
    return base.rstrip("/"), model


def _history_dbs(paths: Paths) -> Iterator[Path]:
    if paths.profiles_dir.is_dir():
        yield from sorted(paths.profiles_dir.glob("*/history.sqlite3"))


def check_databases(ctx: DoctorContext) -> Check:
    dbs = list(_history_dbs(ctx.paths))
    if not dbs:
        return Check("history", "ok", "no history yet")
    bad = []
    for db in dbs:
        try:
            # read-only URI: doctor must never create, migrate or modify a database
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=2) as conn:
                verdict = conn.execute("PRAGMA integrity_check").fetchone()[0]
        except sqlite3.Error as exc:
            verdict = str(exc)
        if verdict != "ok":
            bad.append(f"{db}: {verdict}")
    if bad:
        return Check("history", "fail", "; ".join(bad),
                     "restore from a backup (`agenttui restore FILE`), or move the file aside "
                     "and agenttui starts a fresh history")
    return Check("history", "ok", f"{len(dbs)} database(s) pass integrity_check")


def _memory_files(paths: Paths) -> Iterator[Path]:
    if paths.user_memory_file.exists():
        yield paths.user_memory_file
    if paths.profiles_dir.is_dir():
        yield from sorted(paths.profiles_dir.glob("*/memory.json"))


def _validate_memory_file(path: Path) -> str | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))  # a BOM is read past, as the app does
        if not isinstance(data, dict) or not isinstance(data.get("items", []), list):
            return "not a memory file (expected an object with an 'items' list)"
        for n, raw in enumerate([*data.get("items", []), *data.get("archive", [])]):
            try:
                MemoryItem.from_dict(raw)
            except (KeyError, ValueError, TypeError, AttributeError) as exc:
                return f"item {n}: {exc!r}"
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return str(exc)
    return None


def check_memory(ctx: DoctorContext) -> Check:
    files = list(_memory_files(ctx.paths))
    problems = [f"{path}: {err}" for path in files if (err := _validate_memory_file(path))]
    quarantined = sorted(str(p) for p in ctx.paths.data_dir.rglob("*.corrupt-*")) \
        if ctx.paths.data_dir.exists() else []
    if problems:
        return Check("memory", "fail", "; ".join(problems),
                     "fix the file by hand (it is JSON), or restore it from "
                     f"{ctx.paths.memory_backups_dir}")
    if quarantined:
        return Check("memory", "warn", "files moved aside earlier: " + ", ".join(quarantined),
                     "recover what you need from them by hand, then delete them")
    return Check("memory", "ok", f"{len(files)} memory file(s) valid")


def check_repo_instructions(ctx: DoctorContext) -> Check:
    """The AGENTS.md / CLAUDE.md files a turn started here would send (core/context/repo_instructions.py)."""
    from agenttui.core.context.repo_instructions import build

    found = build(ctx.workdir)
    if not found.files:
        return Check("instructions", "ok", f"no AGENTS.md or CLAUDE.md from the repository down to {ctx.workdir}")
    listed = ", ".join(str(path) for path in found.files)
    if found.warnings:
        return Check("instructions", "warn", f"sent with each turn: {listed}; " + "; ".join(found.warnings),
                     "edit the file, or start agenttui outside the repository")
    return Check("instructions", "ok", f"sent with each turn: {listed}")


CHECKS: tuple[Callable[[DoctorContext], Check], ...] = (
    check_python, check_config, check_permissions, check_keyring, check_api_key,
    check_models, check_endpoint, check_request_options, check_semantic, check_databases, check_memory,
    check_repo_instructions,
)


def run_checks(ctx: DoctorContext) -> list[Check]:
    results = []
    for check in CHECKS:
        try:
            results.append(check(ctx))
        except Exception as exc:  # a broken check must not hide the others
            results.append(Check(check.__name__.removeprefix("check_"), "fail",
                                 f"the check itself failed: {exc!r}", "please report this"))
    return results
