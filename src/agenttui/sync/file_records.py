"""Small files that sync whole: profiles with their folder bindings, project memory, themes
and the non-secret settings.

Each file is one clocked item (key ``file/<logical path>``), compared by content hash and
sent whole when it changed, like a memory note; the later edit wins and the other version
is kept as a conflict. Logical paths, the only ones a record may name (anything else is a
foreign record, skipped):

* ``profiles/<name>/profile.toml`` -- a profile, its folder bindings and overrides;
* ``profiles/<name>/project/{context,decisions,learnings}.md`` and
  ``profiles/<name>/project/sessions/<YYYY-MM-DD>.md`` -- project memory;
* ``themes/<name>.toml`` -- the user's themes;
* ``config.toml`` -- the settings, without the ``[mcp]`` table (servers are per machine and
  may name credentials): it is neither sent nor replaced; the rest is written keeping the
  file's comments and order.

Text is redacted before it is sealed. A file deleted on one machine is a tombstone
(``"del": true``) that deletes it on the others, never losing it: the local copy goes to
``<data dir>/trash/sync-<time>/<logical path>`` first. A profile deleted whole (its folder
gone, ``profile delete``) sends its ``profile.toml`` tombstone with ``"profile_gone": true``,
and the other machines move that profile's folder to the trash as ``profile delete`` does.
For settings, a tombstone removes the synced tables; the machine's own ``[mcp]`` stays.
A deletion that races an edit made on another machine without knowing of it loses to the
edit (:meth:`agenttui.sync.apply.Applier._file`): the file comes back, and the conflict is kept.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from agenttui.core.config.paths import InvalidProfileName, Paths, check_profile_name
from agenttui.sync.records import content_hash

PROJECT_FILES = ("context.md", "decisions.md", "learnings.md")
# Anchored although used with fullmatch: a search over a long text then fails at once off the start.
_THEME = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\.toml\Z")
_SESSION = re.compile(r"\A\d{4}-\d{2}-\d{2}\.md\Z")
CONFIG = "config.toml"
LOCAL_ONLY_TABLES = ("mcp",)


def resolve(paths: Paths, logical: object) -> Path | None:
    """The local file for a logical path, or None when it is not one that syncs."""
    if not isinstance(logical, str) or "\\" in logical or "\0" in logical:
        return None
    parts = logical.split("/")
    if parts == [CONFIG]:
        return paths.config_file
    if len(parts) == 2 and parts[0] == "themes" and _THEME.fullmatch(parts[1]) and ".." not in parts[1]:
        return paths.user_themes_dir / parts[1]
    if len(parts) < 3 or parts[0] != "profiles":
        return None
    try:
        profile = check_profile_name(parts[1])
    except InvalidProfileName:
        return None
    rest = parts[2:]
    if rest == ["profile.toml"]:
        return paths.profile_file(profile)
    if len(rest) == 2 and rest[0] == "project" and rest[1] in PROJECT_FILES:
        return paths.project_dir(profile) / rest[1]
    if len(rest) == 3 and rest[:2] == ["project", "sessions"] and _SESSION.fullmatch(rest[2]):
        return paths.project_dir(profile) / "sessions" / rest[2]
    return None


def local_files(paths: Paths, profiles: Sequence[str]) -> Iterator[tuple[str, Path]]:
    """(logical path, local file) of every file here that syncs."""
    if paths.config_file.is_file():
        yield CONFIG, paths.config_file
    themes = paths.user_themes_dir
    if themes.is_dir():
        for entry in sorted(themes.iterdir()):
            if entry.is_file() and _THEME.fullmatch(entry.name):
                yield f"themes/{entry.name}", entry
    for profile in profiles:
        if paths.profile_file(profile).is_file():
            yield f"profiles/{profile}/profile.toml", paths.profile_file(profile)
        project = paths.project_dir(profile)
        for name in PROJECT_FILES:
            if (project / name).is_file():
                yield f"profiles/{profile}/project/{name}", project / name
        sessions = project / "sessions"
        if sessions.is_dir():
            for entry in sorted(sessions.iterdir()):
                if entry.is_file() and _SESSION.fullmatch(entry.name):
                    yield f"profiles/{profile}/project/sessions/{entry.name}", entry


def _settings(text: str) -> dict[str, Any]:
    """config.toml's tables as synced: without the local-only ones."""
    doc = tomllib.loads(text)
    return {k: v for k, v in doc.items() if k not in LOCAL_ONLY_TABLES}


def read(logical: str, path: Path) -> tuple[str, Any] | None:
    """(content hash, the content as it would be sent before redaction), or None when the
    file cannot be read now (a settings file that does not parse is left out, not sent)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if logical == CONFIG:
        try:
            settings = _settings(text)
        except tomllib.TOMLDecodeError:
            return None
        content: Any = json.loads(json.dumps(settings, default=str))
        return content_hash(content), content
    return content_hash(text), text


def payload(content: Any, patterns: Sequence[str]) -> Any:
    from agenttui.security import redact_tree

    return redact_tree(content, patterns)


class LocalFileDamaged(Exception):
    """The local settings file does not parse: the incoming version is not merged into it."""


def write(logical: str, path: Path, content: Any) -> str:
    """Put ``content`` in the local file (atomically, under the file's lock); its new hash."""
    from agenttui.core import files

    files.ensure_dir(path.parent)
    with files.locked(path):
        if logical == CONFIG:
            if not isinstance(content, dict):
                raise ValueError("settings record without its tables")
            from agenttui.core.config.toml_edit import write_keeping_style

            original = path.read_text(encoding="utf-8") if path.exists() else ""
            try:
                local = tomllib.loads(original)
            except tomllib.TOMLDecodeError as exc:
                raise LocalFileDamaged(f"{path} does not parse ({exc}), so the settings from another machine "
                                       "were not applied to it; fix it, and its next edit syncs") from exc
            local_only = {k: v for k, v in local.items() if k in LOCAL_ONLY_TABLES}
            write_keeping_style(path, {**content, **local_only})
        else:
            if not isinstance(content, str):
                raise ValueError("file record without its text")
            files.atomic_write_text(path, content)
    found = read(logical, path)
    return found[0] if found else ""


class ProfileOpenHere(OSError):
    """A profile deleted on another machine is open in an agenttui process here: its folder
    stays until it is closed (an OSError: the sync stops and applies the record next time)."""


def remove(paths: Paths, logical: str, path: Path, profile_gone: bool = False) -> str:
    """Apply a winning tombstone: the local file goes to the trash first (a profile deleted
    whole: its folder, as ``profile delete`` does). Returns the hash of what is left (settings
    keep their local-only tables), "" when nothing is."""
    from agenttui.core import files

    if profile_gone and logical.endswith("/profile.toml"):
        directory = path.parent
        if directory.is_dir():
            from agenttui.core.backup.archive import move_to_trash
            from agenttui.core.config.profiles import ProfileInUse, refuse_if_in_use

            try:
                refuse_if_in_use(directory.name, directory)
            except ProfileInUse as exc:
                # not skipped: the deletion waits, and the next sync after the app lets go applies it
                raise ProfileOpenHere(f"profile {exc.name!r} is open in {exc.holder}: it was deleted on "
                                      "another machine, and that deletion is applied at the next sync "
                                      "after it is closed here (nothing was moved)") from exc
            move_to_trash(paths, directory)
        return ""
    if not path.parent.is_dir():
        return ""  # its profile's folder went first: taking the lock would make it again
    with files.locked(path):
        if not path.exists():
            return ""
        data = path.read_bytes()
        kept = paths.trash_dir / f"sync-{files.timestamp_slug()}" / logical
        files.ensure_dir(kept.parent)
        files.atomic_write_bytes(kept, data)  # before the file goes: a kill in between loses nothing
        if logical == CONFIG:
            try:
                local = tomllib.loads(data.decode("utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                raise LocalFileDamaged(f"{path} does not parse ({exc}), so its deletion on another machine "
                                       "was not applied to it") from exc
            local_only = {k: v for k, v in local.items() if k in LOCAL_ONLY_TABLES}
            if local_only:
                from agenttui.core.config.toml_edit import write_keeping_style

                write_keeping_style(path, local_only)
                found = read(logical, path)
                return found[0] if found else ""
        path.unlink()
    return ""


def current(logical: str, path: Path) -> Any:
    """What the file holds now, for a kept conflict (None when missing or unreadable)."""
    found = read(logical, path) if path.exists() else None
    return None if found is None else {"path": logical, "content": found[1]}
