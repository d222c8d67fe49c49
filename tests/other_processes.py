"""Helpers for tests with another agenttui process beside this one (real subprocesses)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path


def deleted_sidecars(db: Path) -> list[str]:
    """Descriptors of this process on a removed ``-wal``/``-shm`` of ``db`` (Linux's /proc;
    elsewhere none are seen, and the tests' data checks still hold)."""
    found: list[str] = []
    if not os.path.isdir("/proc/self/fd"):
        return found
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:  # the descriptor listdir itself used, closed since
            continue
        if target.startswith(str(db)) and target.endswith("(deleted)"):
            found.append(target)
    return found


def export_document(cid: str, title: str, texts: list[str]) -> dict[str, object]:
    """An ``agenttui history export --format json`` document (the import format)."""
    return {
        "format": "agenttui.conversation", "version": 1,
        "conversation": {"id": cid, "title": title, "created": "2026-01-02T03:04:05+00:00",
                         "updated": "2026-01-02T03:04:05+00:00", "model": None,
                         "archived": False},
        "messages": [{"role": "user" if n % 2 == 0 else "assistant", "content": text,
                      "created": "2026-01-02T03:04:05+00:00"} for n, text in enumerate(texts)],
    }


def run_cli(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``agenttui ARGV`` as another process (the environment names the same AGENTTUI_HOME)."""
    return subprocess.run([sys.executable, "-m", "agenttui", *argv], capture_output=True,
                          text=True, timeout=120, check=False, cwd=cwd)


def contents(db: Path) -> tuple[dict[str, list[str]], str]:
    """Every conversation's message texts, read by a fresh connection, and integrity_check."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT conversation_id, content FROM messages ORDER BY id").fetchall()
        verdict = conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()
    found: dict[str, list[str]] = {}
    for cid, text in rows:
        found.setdefault(cid, []).append(text)
    return found, verdict
