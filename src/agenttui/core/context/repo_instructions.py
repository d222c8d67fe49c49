"""Repository instruction files: ``AGENTS.md`` and ``CLAUDE.md``, as Codex and Claude Code read them.

Projects keep their agent instructions in the repository, so a team shares
them through git. Decisions:

* **Where.** From the repository root (the nearest ancestor of the working
  directory holding ``.git``) down to the working directory, each folder's
  ``AGENTS.md`` then ``CLAUDE.md``; outside a repository only the working
  directory is read. Outer files come first, so the nearer, more specific
  text has the last word, as in Codex. A file that is the same file as one
  already read (``CLAUDE.md`` a link to ``AGENTS.md``) or has the same text is
  read once.
* **How much.** Each file at most :data:`FILE_CHARS` characters, all of them
  at most :data:`TOTAL_CHARS`; a cut is said in the text sent ("[cut: …]")
  and in the inspector's warnings. The project token budget applies on top.
* **Screened like memory.** The text is the repository's, not the user's: a
  cloned repository may carry an injection. Secrets are redacted, and a
  paragraph that reads like an injection (``security.injection_reasons``) is
  held back, with a warning naming the file; the rest is sent.
* Read on every turn, cached by the files' size and modification time, so an
  edit is picked up on the next turn and an unchanged file costs a ``stat``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

NAMES = ("AGENTS.md", "CLAUDE.md")
FILE_CHARS = 16_000
TOTAL_CHARS = 32_000
_PARAGRAPH = re.compile(r"\n\s*\n")


@dataclass(frozen=True)
class RepoInstructions:
    """What the instruction files add to a prompt: the section and what was held or cut."""

    files: tuple[Path, ...] = ()
    section: str = ""
    warnings: tuple[str, ...] = field(default=())


def repository_root(workdir: Path) -> Path | None:
    """The nearest folder at or above ``workdir`` holding ``.git`` (a folder or a worktree's file)."""
    for folder in (workdir, *workdir.parents):
        if (folder / ".git").exists():
            return folder
    return None


def instruction_files(workdir: Path) -> list[Path]:
    """The instruction files that apply to ``workdir``, outermost first (see module doc)."""
    try:
        here = workdir.resolve()
    except OSError:
        return []
    root = repository_root(here)
    folders = [here]
    if root is not None:
        folders = [root, *[p for p in reversed(here.parents) if p != root and root in p.parents], here]
        folders = list(dict.fromkeys(folders))
    found: list[Path] = []
    seen: set[Path] = set()
    for folder in folders:
        for name in NAMES:
            path = folder / name
            try:
                real = path.resolve(strict=True)
            except OSError:
                continue
            if real in seen or not real.is_file():
                continue
            seen.add(real)
            found.append(path)
    return found


def _signature(paths: list[Path]) -> tuple[tuple[str, int, int], ...]:
    keys = []
    for path in paths:
        try:
            info = path.stat()
        except OSError:
            continue
        keys.append((str(path), info.st_mtime_ns, info.st_size))
    return tuple(keys)


def _screened(path: Path, text: str, redact_patterns: tuple[str, ...]) -> tuple[str, list[str]]:
    from agenttui.security import injection_reasons, redact_secrets

    kept, held = [], 0
    for paragraph in _PARAGRAPH.split(text):
        if paragraph.strip() and injection_reasons(paragraph):
            held += 1
            continue
        kept.append(paragraph)
    warnings = []
    if held:
        warnings.append(f"{held} paragraph(s) of {path} held back: they read like an injection")
    return redact_secrets("\n\n".join(kept), redact_patterns), warnings


def build(workdir: Path, redact_patterns: tuple[str, ...] = ()) -> RepoInstructions:
    """Read, cap and screen the instruction files for ``workdir`` (uncached: see :func:`load`)."""
    paths = instruction_files(workdir)
    parts: list[str] = []
    warnings: list[str] = []
    texts: set[str] = set()
    room = TOTAL_CHARS
    for path in paths:
        try:
            raw = path.read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            warnings.append(f"{path} could not be read: {error}")
            continue
        if not raw.strip() or raw in texts:
            continue
        texts.add(raw)
        limit = min(FILE_CHARS, room)
        if limit <= 0:
            warnings.append(f"{path} left out: the instruction files' {TOTAL_CHARS:,} characters are used")
            continue
        text = raw
        if len(text) > limit:
            text = text[:limit] + f"\n[cut: {len(raw) - limit:,} more characters of {path.name}]"
            warnings.append(f"{path} cut to {limit:,} of {len(raw):,} characters")
        room -= min(len(raw), limit)
        text, held = _screened(path, text, redact_patterns)
        warnings.extend(held)
        where = path.parent
        parts.append(f"## {path.name} ({where})\n{text.strip()}")
    section = ""
    if parts:
        section = "\n\n".join(parts)  # the prompt's block has the heading
    return RepoInstructions(tuple(paths), section, tuple(warnings))


_cache: dict[tuple[str, tuple[str, ...]], tuple[object, RepoInstructions]] = {}


def load(workdir: Path, redact_patterns: tuple[str, ...] = ()) -> RepoInstructions:
    """:func:`build`, cached by the files' names, sizes and modification times."""
    key = (str(workdir), redact_patterns)
    signature = _signature(instruction_files(workdir))
    hit = _cache.get(key)
    if hit is not None and hit[0] == signature:
        return hit[1]
    result = build(workdir, redact_patterns)
    if len(_cache) > 64:
        _cache.clear()
    _cache[key] = (signature, result)
    return result
