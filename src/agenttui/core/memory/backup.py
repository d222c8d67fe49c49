"""Memory backups (docs/storage.md).

Layout under ``paths.memory_backups_dir``::

    2026-11-21/                        daily backup (rotation keeps the newest N)
        user.json
        profiles/<name>/memory.json
    snapshots/20261121T061000Z-reset/  taken before every destructive action

A backup is built in a temporary sibling directory and renamed into place, so
a reader (or a crash) never sees half a backup, and two processes racing to
make today's backup end with exactly one. Every string in the copied JSON is
passed through ``redact_secrets`` (memory is redacted on write already; this
also covers hand edits). A file that is not valid JSON is copied as redacted
text, so even a corrupt file is preserved.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from agenttui.core import files
from agenttui.core.config.paths import Paths
from agenttui.security import redact_secrets, redact_tree

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
SNAPSHOTS = "snapshots"
KEEP_SNAPSHOTS = 30


def memory_files(paths: Paths) -> dict[str, Path]:
    """Existing memory files, keyed by their relative path inside a backup."""
    found: dict[str, Path] = {}
    if paths.user_memory_file.is_file():
        found["user.json"] = paths.user_memory_file
    if paths.profiles_dir.is_dir():
        for profile_dir in sorted(paths.profiles_dir.iterdir()):
            memory = profile_dir / "memory.json"
            if memory.is_file():
                found[f"profiles/{profile_dir.name}/memory.json"] = memory
    return found


def _redacted_copy(source: Path, patterns: Sequence[str]) -> str:
    raw = source.read_text(encoding="utf-8", errors="replace")
    try:
        doc = json.loads(raw)
    except json.JSONDecodeError:
        return redact_secrets(raw, tuple(patterns))
    return json.dumps(redact_tree(doc, tuple(patterns)), indent=2, ensure_ascii=False) + "\n"


def _build(paths: Paths, final: Path, patterns: Sequence[str]) -> Path | None:
    """Write every memory file into a temp dir, then rename it to ``final``.

    Returns ``final``, or None if another process created it first.
    """
    files.ensure_dir(final.parent)
    tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}.", dir=final.parent))
    try:
        os.chmod(tmp, files.DIR_MODE)
        for rel, source in memory_files(paths).items():
            with contextlib.suppress(FileNotFoundError):  # deleted meanwhile
                files.atomic_write_text(tmp / rel, _redacted_copy(source, patterns))
        try:
            os.rename(tmp, final)  # fails if final exists (non-empty) -> someone else won
        except OSError:
            if final.exists():
                return None
            raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return final


def daily_backups(paths: Paths) -> list[Path]:
    root = paths.memory_backups_dir
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and _DAY.match(p.name))


def backup_memory_daily(
    paths: Paths, keep: int = 7, today: date | None = None, redact_patterns: Sequence[str] = ()
) -> Path | None:
    """Today's backup, made if missing; None if it already existed or there is no memory yet.

    Afterwards only the newest ``keep`` daily backups remain.
    """
    day = (today or date.today()).isoformat()
    final = paths.memory_backups_dir / day
    made = None
    if not final.exists() and memory_files(paths):
        made = _build(paths, final, redact_patterns)
    for old in daily_backups(paths)[: -max(keep, 1)]:
        shutil.rmtree(old, ignore_errors=True)
    return made


def snapshot_memory(paths: Paths, reason: str, redact_patterns: Sequence[str] = ()) -> Path:
    """A timestamped backup before a destructive action; always made (maybe empty)."""
    root = paths.memory_backups_dir / SNAPSHOTS
    stamp = files.timestamp_slug()
    safe_reason = re.sub(r"[^a-z0-9-]+", "-", reason.lower()).strip("-") or "backup"
    n = 1
    while True:
        suffix = "" if n == 1 else f"-{n}"
        final = root / f"{stamp}-{safe_reason}{suffix}"
        if not final.exists() and _build(paths, final, redact_patterns) is not None:
            break
        n += 1
    old = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    for stale in old[:-KEEP_SNAPSHOTS]:
        shutil.rmtree(stale, ignore_errors=True)
    return final
