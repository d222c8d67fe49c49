"""A data folder's exact state, for tests that promise to write nothing (dry runs, incognito)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from agenttui.core.config.profile_claims import CLAIMS_DIR


def _claim(relative: Path) -> bool:
    """``…/profiles/<name>/in-use`` or a file in it: a profile's claims, lock files that exist
    while some store has its history open (core/config/profile_claims.py), like SQLite's -wal
    files: not data."""
    parts = relative.parts
    return any(part == "profiles" and len(parts) > i + 2 and parts[i + 2] == CLAIMS_DIR
               for i, part in enumerate(parts))


def tree(home: Path) -> dict[str, str]:
    """Every file under ``home`` (relative path -> sha256); directories too, as ''. Profile
    claims are left out (:func:`_claim`)."""
    return {str(p.relative_to(home)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else ""
            for p in sorted(home.rglob("*")) if not _claim(p.relative_to(home))}
