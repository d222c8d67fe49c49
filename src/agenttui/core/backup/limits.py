"""What ``restore`` accepts from an archive: which paths, how many files, how many bytes.

Before these limits, a 14 MB archive expanded to a 3 GB file, 100,000 small files
took two minutes, and an unexpected ``config/evil.sh`` was restored and kept.
Every check here reads tar headers only, before anything is written.

Decisions:

* **Allowlist, not denylist.** An archive may hold exactly the kinds of file a
  backup writes (:data:`ALLOWED`): config.toml, theme files, the memory JSON,
  each profile's profile.toml / memory.json / history database / project
  notes (Markdown), endpoint state, and the ``NAME.corrupt-<time>`` copies
  agenttui sets aside. With memory go the user's decisions about it, kept in
  files of their own: the held notes the user kept (``*.kept.json``) and the
  notes other agents left for review (``mcp-review.json``); without them a
  restored kept note was held again and the waiting notes were gone. Each
  profile's ``semantic.json`` (what recall told and learned about its endpoints)
  goes with it too: it is agenttui's, and "not agenttui's files" was said of it.
  ``create_backup`` uses the same list, so a backup it makes always restores;
  a stray file in the data dir is left out of the backup and named
  (``manifest["skipped"]``) instead of making it unrestorable.
* **Limits**: at most :data:`MAX_FILES` members and :data:`MAX_BYTES` expanded
  (sizes as the tar headers declare them, which is exactly what extraction
  writes). A years-long history with embeddings stays well under 2 GiB; a
  bigger archive one trusts restores with ``--max-size``/``--max-files``;
  ``--skip-unexpected`` restores the rest of an archive holding stray files.
  Reading stops at the first member over a limit, so a bomb costs nothing.
* The destination must have room for the expanded files (checked in
  ``restore_backup``: the free space of the data dir's filesystem).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 2 * 1024**3  # expanded size of everything in the archive
MAX_FILES = 10_000  # tar members (files and directories)

_PROFILE = r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}"  # core.config.paths' profile names
_NAME = r"[A-Za-z0-9][A-Za-z0-9._ +-]{0,127}"  # a plain file name: no slash, no leading dot
_ASIDE = r"(\.[a-z]+-\d{8}T\d{6}Z(-\d+)?)?"  # files.move_aside: NAME.corrupt-20261121T061000Z
_DB = r"history\.sqlite3((-wal|-shm)" + r"\.[a-z]+-\d{8}T\d{6}Z(-\d+)?)?"

# What a backup may hold (archive names), described for messages.
ALLOWED: tuple[tuple[str, str], ...] = (
    (r"config/config\.toml", "config/config.toml"),
    (rf"config/themes/{_NAME}\.toml", "config/themes/*.toml"),
    (rf"data/memory/user(\.kept)?\.json{_ASIDE}", "data/memory/user.json, user.kept.json"),
    (rf"data/profiles/{_PROFILE}/(profile\.toml|memory(\.kept)?\.json|mcp-review\.json|semantic\.json){_ASIDE}",
     "data/profiles/<name>/profile.toml, memory.json, memory.kept.json, mcp-review.json, semantic.json"),
    (rf"data/profiles/{_PROFILE}/{_DB}{_ASIDE}", "data/profiles/<name>/history.sqlite3"),
    (rf"data/profiles/{_PROFILE}/project/(sessions/)?{_NAME}\.md",
     "data/profiles/<name>/project/*.md, project/sessions/*.md"),
    (rf"data/state/{_NAME}\.json", "data/state/*.json"),
)
_FILES = re.compile("|".join(f"(?:{pattern})" for pattern, _ in ALLOWED))
_DIRS = re.compile(rf"(config|config/themes|data|data/memory|data/state|data/profiles|"
                   rf"data/profiles/{_PROFILE}(/project(/sessions)?)?)")


def allowed_file(name: str) -> bool:
    return _FILES.fullmatch(name) is not None


def allowed_dir(name: str) -> bool:
    return _DIRS.fullmatch(name.rstrip("/")) is not None


def allowed_description() -> str:
    return "; ".join(text for _, text in ALLOWED)


@dataclass(frozen=True)
class RestoreLimits:
    max_bytes: int = MAX_BYTES
    max_files: int = MAX_FILES
    # Leave out (and name) safe-path files a backup never holds, instead of refusing the
    # archive: an older backup that swept up a stray file still restores. Links, absolute
    # paths and ".." are refused regardless.
    skip_unexpected: bool = False


def human_size(size: int) -> str:
    """``3.0 GB`` (decimal units, as disk tools print them)."""
    value = float(size)
    for unit in ("bytes", "kB", "MB", "GB", "TB"):
        if value < 1000 or unit == "TB":
            return f"{int(value)} bytes" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1000
    raise AssertionError("unreachable")


_SIZE = re.compile(r"(?i)\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b?|b|bytes)?\s*")
_UNITS = {"": 1, "b": 1, "bytes": 1, "k": 1000, "m": 1000**2, "g": 1000**3, "t": 1000**4}


def parse_size(text: str) -> int:
    """``"4G"``, ``"500MB"``, ``"3GiB"``, ``"123456"`` -> bytes; ``ValueError`` otherwise."""
    match = _SIZE.fullmatch(text)
    if not match:
        raise ValueError(f"not a size: {text!r} (e.g. 4G, 500M, 123456)")
    number, unit = float(match.group(1)), (match.group(2) or "").lower()
    binary = "i" in unit
    unit = unit.replace("i", "").rstrip("b") if unit not in ("b", "bytes") else unit
    factor = 1024 ** "kmgt".index(unit) * 1024 if binary else _UNITS[unit]
    return int(number * factor)
