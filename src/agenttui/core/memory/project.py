"""Project memory (docs/memory.md#project-memory): plain Markdown files per profile.

``context.md`` (current state, rewritten whole), ``decisions.md`` and
``learnings.md`` (dated logs, appended), ``sessions/YYYY-MM-DD.md`` (archives,
appended when the day already has one). Missing files are simply empty.

Log entries are ``## YYYY-MM-DD: Title`` followed by the body. Only headings
of exactly that dated form start an entry, so a body may contain its own
``##`` headings; a body line that *would* look like a dated heading is
escaped with a backslash. Everything written passes
:func:`agenttui.security.redact_secrets` first.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

_ENTRY = re.compile(r"^## \d{4}-\d{2}-\d{2}: ", re.MULTILINE)
_HEADERS = {"decisions": "# Decisions\n", "learnings": "# Learnings\n"}


def _redact(text: str) -> str:
    from agenttui.security import redact_secrets

    return redact_secrets(text)


def _entries(text: str) -> list[str]:
    starts = [m.start() for m in _ENTRY.finditer(text)]
    ends = starts[1:] + [len(text)]
    return [text[a:b].strip() for a, b in zip(starts, ends, strict=False)]


def _stat_key(path: Path) -> tuple[str, int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return path.name, info.st_mtime_ns, info.st_size


class ProjectMemory:
    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self._recall_cache: tuple[tuple[object, ...], list[tuple[str, str, str]]] | None = None

    def files(self) -> dict[str, Path]:
        return {
            "context": self.directory / "context.md",
            "decisions": self.directory / "decisions.md",
            "learnings": self.directory / "learnings.md",
            "sessions": self.directory / "sessions",
        }

    def read(self, name: str) -> str:
        """A file's text ("" when it is missing): ``context``, ``decisions``, ``learnings``."""
        try:
            return self.files()[name].read_text(encoding="utf-8", errors="replace")
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return ""

    # -- reading -------------------------------------------------------------
    def context(self) -> str:
        return self.read("context")

    def decisions(self, last: int = 10) -> list[str]:
        entries = _entries(self.read("decisions"))
        return entries[-last:] if last > 0 else []

    def learnings(self) -> str:
        return self.read("learnings")

    def prompt_section(self) -> str:
        """context.md whole + the last 10 decisions, under headings."""
        parts = []
        context = self.context().strip()
        if context:
            parts.append(f"## Project context\n{context}")
        decisions = self.decisions(10)
        if decisions:  # demote entry headings below the section heading
            body = "\n\n".join("#" + entry for entry in decisions)
            parts.append(f"## Recent decisions\n{body}")
        return "\n\n".join(parts)

    def recall_entries(self) -> list[tuple[str, str, str]]:
        """Every searchable piece for recall: (where, YYYY-MM-DD or "", text).

        ``where`` names the file and entry (``decisions.md#3``,
        ``sessions/2026-03-12.md#2``): decisions and learnings split at their
        dated headings; session archives at their ``---`` separators (one part
        per ``/end``); ``context.md`` is left out (it is in every prompt whole).
        """
        folder = self.files()["sessions"]
        try:
            archives = sorted(folder.glob("*.md"))
        except OSError:
            archives = []
        files = [self.files()["decisions"], self.files()["learnings"], *archives]
        signature = tuple(_stat_key(path) for path in files)
        if self._recall_cache is not None and self._recall_cache[0] == signature:
            return self._recall_cache[1]  # every turn asks; the files rarely change
        found: list[tuple[str, str, str]] = []
        for name in ("decisions", "learnings"):
            for number, entry in enumerate(_entries(self.read(name)), start=1):
                found.append((f"{name}.md#{number}", entry[3:13], entry))
        for path in archives:
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            day = path.stem if re.fullmatch(r"\d{4}-\d{2}-\d{2}", path.stem) else ""
            for number, part in enumerate(re.split(r"(?m)^---\s*$", text), start=1):
                if part.strip():
                    found.append((f"sessions/{path.name}#{number}", day, part.strip()))
        self._recall_cache = (signature, found)
        return found

    # -- writing -------------------------------------------------------------
    def _append_entry(self, name: str, title: str, body: str, day: date | None) -> None:
        from agenttui.core.files import append_text, locked

        title = " ".join(_redact(title).split()) or "(untitled)"
        body = _ENTRY.sub(lambda m: "\\" + m.group(0), _redact(body).strip())
        stamp = (day or date.today()).isoformat()
        path = self.files()[name]
        with locked(path):
            existing = self.read(name)
            prefix = _HEADERS[name] if not existing.strip() else ""
            if existing and not existing.endswith("\n"):
                prefix += "\n"
            entry = f"\n## {stamp}: {title}\n\n{body}\n" if body else f"\n## {stamp}: {title}\n"
            append_text(path, prefix + entry)

    def append_decision(self, title: str, body: str, day: date | None = None) -> None:
        self._append_entry("decisions", title, body, day)

    def append_learning(self, title: str, body: str, day: date | None = None) -> None:
        self._append_entry("learnings", title, body, day)

    def write_context(self, text: str) -> None:
        self.rewrite("context", text)

    def rewrite(self, name: str, text: str) -> None:
        """Rewrite ``context``, ``decisions`` or ``learnings`` whole (the editor saves this way).

        Locked, atomic, redacted, ending in one newline: the same path as
        every other write here, so a file saved from the UI is exactly what
        the agent's tools would have written.
        """
        from agenttui.core.files import atomic_write_text, locked

        if name not in ("context", *_HEADERS):
            raise ValueError(f"not a project memory file: {name!r}")
        path = self.files()[name]
        with locked(path):
            atomic_write_text(path, _redact(text).rstrip("\n") + "\n")

    def archive_session(self, text: str, day: date | None = None) -> Path:
        """Write (or append to) ``sessions/<day>.md``; returns its path."""
        from agenttui.core.files import append_text, locked

        stamp = (day or date.today()).isoformat()
        path = self.files()["sessions"] / f"{stamp}.md"
        with locked(path):
            exists = path.exists() and path.stat().st_size > 0
            prefix = "\n---\n\n" if exists else f"# Session {stamp}\n\n"
            append_text(path, prefix + _redact(text).strip() + "\n")
        return path
