"""A data folder's exact state, for tests that promise to write nothing (dry runs, incognito)."""

from __future__ import annotations

import hashlib
from pathlib import Path


def tree(home: Path) -> dict[str, str]:
    """Every file under ``home`` (relative path -> sha256); directories too, as ''."""
    return {str(p.relative_to(home)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else ""
            for p in sorted(home.rglob("*"))}
