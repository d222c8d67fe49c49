"""File tools (docs/agent.md#tools): read_file / list_directory inside the profile's project dir(s).

Confinement: the roots are the profile's bound directories (``Profile.paths``),
resolved. A requested path is taken relative to the first root (or as an
absolute path), then fully resolved with ``os.path.realpath`` -- symlinks and
``..`` included -- and must land inside one of the roots. So ``../x``, an
absolute path elsewhere, ``~/.ssh`` and a symlink pointing out are all
refused with the same clear message. A profile with no bound directory has
no file tools to speak of: the error says how to bind one.

Reading is bounded: only regular files (a FIFO would block, a device never
end), binary files are described instead of dumped, text is read line by line
up to ``max_lines`` and ``max_tool_output`` characters with a note on how to
continue (``offset``). Memory is bounded by bytes, not lines: at most
``4 * max_tool_output + 4`` bytes of content are held (skipping to ``offset``
reads 64 KiB at a time), so one 300 MB line costs kilobytes; a line longer
than the limit is shown cut, with a marker saying so. Secrets in file content (a ``.env``) are redacted
before the model sees them: the model has no use for a live credential.
"""

from __future__ import annotations

import codecs
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from agenttui.agent.tools.schema import ArgumentError
from agenttui.agent.tools.spec import ToolContext, ToolOutcome, ToolSpec

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

MAX_ENTRIES = 500
BINARY_SNIFF = 8_192


class PathRefused(ArgumentError):
    pass


def specs(settings: Any) -> list[ToolSpec]:
    return [
        ToolSpec(
            name="read_file",
            description=(
                "Read a text file inside the project directory. `path` is relative to the "
                "project root. Long files come in pages: pass `offset` (1-based line) to "
                "continue."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "path": {"type": "string", "minLength": 1},
                    "offset": {"type": "integer", "minimum": 1, "default": 1},
                    "max_lines": {"type": "integer", "minimum": 1, "maximum": 5_000,
                                  "default": 400},
                },
                "required": ["path"],
                "additionalProperties": False,
            },
            run=read_file,
        ),
        ToolSpec(
            name="list_directory",
            description=(
                "List a directory inside the project directory (default: the project "
                "root). Directories end with '/', symlinks are marked '@'."
            ),
            parameters={
                "type": "object",
                "properties": {"path": {"type": "string", "default": "."}},
                "additionalProperties": False,
            },
            run=list_directory,
        ),
    ]


def project_roots(services: Services) -> list[Path]:
    return [Path(os.path.realpath(Path(p).expanduser())) for p in services.profile.paths]


def resolve_in_project(services: Services, requested: str) -> tuple[Path, Path]:
    """(resolved path, its root); raises :class:`PathRefused` with a clear reason."""
    roots = project_roots(services)
    if not roots:
        name = services.profile_name
        raise PathRefused(
            f"no project directory is bound to profile '{name}', so file tools have "
            f"nothing to read. Bind one with `agenttui profile create NAME --path DIR` "
            "(or from the profile picker) and start agenttui in that directory."
        )
    if "\x00" in requested:
        raise PathRefused("the path contains a NUL character")
    path = Path(requested).expanduser()
    candidate = path if path.is_absolute() else roots[0] / path
    resolved = Path(os.path.realpath(candidate))
    for root in roots:
        if resolved == root or resolved.is_relative_to(root):
            return resolved, root
    where = " or ".join(str(r) for r in roots)
    raise PathRefused(f"'{requested}' is outside the project directory ({where}); refused")


def _shown(path: Path, root: Path) -> str:
    relative = path.relative_to(root).as_posix()
    return "." if relative == "." else relative


def _redact(context: ToolContext, text: str) -> str:
    from agenttui.security import redact_secrets

    return redact_secrets(text, tuple(context.settings.redaction.extra_patterns))


def read_file(context: ToolContext, args: dict[str, Any]) -> ToolOutcome:
    path, root = resolve_in_project(context.services, args["path"])
    shown = _shown(path, root)
    try:
        info = path.stat()
    except FileNotFoundError:
        return ToolOutcome(f"no such file: {shown}", ok=False)
    if stat.S_ISDIR(info.st_mode):
        return ToolOutcome(f"{shown} is a directory; use list_directory", ok=False)
    if not stat.S_ISREG(info.st_mode):
        return ToolOutcome(f"{shown} is not a regular file; refused", ok=False)
    from agenttui.core.files import sqlite_in_use

    if sqlite_in_use(path):  # reading it here would drop this process's SQLite locks on it
        return ToolOutcome(f"{shown} is a database in use ({info.st_size} bytes); not read", ok=False)
    offset, max_lines, budget = args["offset"], args["max_lines"], context.max_output
    with path.open("rb") as handle:
        if b"\x00" in handle.read(BINARY_SNIFF):
            return ToolOutcome(f"{shown} is a binary file ({info.st_size} bytes); not shown")
        handle.seek(0)
        skipped, partial = _skip_lines(handle, offset - 1)
        if skipped < offset - 1:
            total = skipped + partial
            if total == 0:
                return ToolOutcome(f"{shown} is empty")
            return ToolOutcome(f"{shown} has only {total} lines", ok=False)
        lines, more, cut = _read_page(handle, max_lines, budget)
    if not lines:
        return ToolOutcome(f"{shown} is empty") if offset == 1 else \
            ToolOutcome(f"{shown} has only {offset - 1} lines", ok=False)
    last = offset + len(lines) - 1
    text = "".join(lines)
    header = f"{shown} (lines {offset}-{last})"
    if cut:
        footer = (f"\n[… line {last} is longer than the {budget}-character output limit: only its start "
                  f"is shown (read other parts with run_shell, e.g. cut -c); the next line is offset={last + 1}]")
    else:
        footer = f"\n[… more lines follow; continue with offset={last + 1}]" if more else ""
    return ToolOutcome(f"{header}\n{_redact(context, text)}{footer}")


_SKIP_CHUNK = 65_536


def _skip_lines(handle: BinaryIO, count: int) -> tuple[int, int]:
    """Skip ``count`` lines reading at most 64 KiB at a time, whatever a line's length.

    Returns (lines skipped, 1 if the file then ended inside an unterminated line).
    """
    skipped = partial = 0
    while skipped < count:
        chunk = handle.readline(_SKIP_CHUNK)
        if not chunk:
            break
        if chunk.endswith(b"\n"):
            skipped, partial = skipped + 1, 0
        else:
            partial = 1
    return skipped, partial


def _read_page(handle: BinaryIO, max_lines: int, budget: int) -> tuple[list[str], bool, bool]:
    """(lines, more follow, the first line was cut) with at most ``4 * budget + 4`` bytes read.

    Memory is bounded by bytes, not lines: a 300 MB single-line
    file costs one read of the byte cap. ``budget`` counts characters; the byte
    cap allows four UTF-8 bytes per character.
    """
    cap = 4 * budget + 4
    lines: list[str] = []
    used_chars = used_bytes = 0
    while len(lines) < max_lines:
        raw = handle.readline(cap - used_bytes + 1)
        if not raw:
            return lines, False, False
        used_bytes += len(raw)
        overflow = used_bytes > cap  # the line goes on beyond what we may hold
        line = raw.decode("utf-8", errors="replace") if not overflow else ""
        if overflow or used_chars + len(line) > budget:
            if lines:
                return lines, True, False
            return [_decoded_prefix(raw, budget)], True, True
        lines.append(line)
        used_chars += len(line)
    return lines, handle.read(1) != b"", False


def _decoded_prefix(raw: bytes, chars: int) -> str:
    """The first ``chars`` characters of ``raw`` (a character split by the cut is dropped)."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    return decoder.decode(raw, final=False)[:chars]


def list_directory(context: ToolContext, args: dict[str, Any]) -> ToolOutcome:
    path, root = resolve_in_project(context.services, args["path"])
    shown = _shown(path, root)
    if not path.exists():
        return ToolOutcome(f"no such directory: {shown}", ok=False)
    if not path.is_dir():
        return ToolOutcome(f"{shown} is a file; use read_file", ok=False)
    entries = []
    with os.scandir(path) as scan:
        for entry in scan:
            entries.append(entry)
            if len(entries) > MAX_ENTRIES:
                break
    more = len(entries) > MAX_ENTRIES
    lines = []
    for entry in sorted(entries[:MAX_ENTRIES], key=lambda e: e.name):
        if entry.is_symlink():
            lines.append(f"{entry.name}@")
        elif entry.is_dir():
            lines.append(f"{entry.name}/")
        else:
            try:
                size = entry.stat().st_size
            except OSError:
                size = 0
            lines.append(f"{entry.name}  ({size} bytes)")
    if not lines:
        return ToolOutcome(f"{shown}/ is empty")
    footer = f"\n[… more than {MAX_ENTRIES} entries; list a subdirectory]" if more else ""
    text = f"{shown}/\n" + "\n".join(lines)
    if len(text) > context.max_output:
        text = text[: context.max_output] + "\n[… more omitted]"
    return ToolOutcome(text + footer)
