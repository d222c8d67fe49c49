"""Profiles (docs/architecture.md#profiles): named workspaces, bound to project directories.

A profile is a directory ``profiles/<name>/`` holding ``profile.toml``
(bindings and overrides), its memory, history and project files. Decisions:

* ``default`` always exists, even with no directory on disk. Deleting it is
  allowed: its data moves to the trash (restorable) and it comes back empty
  the next time it is used.
* ``resolve(cwd, override)``: an explicit override must name an existing
  profile (else :class:`ProfileNotFound` lists the profiles -- a typo must not
  silently create a new, empty workspace); otherwise the binding that is the
  nearest ancestor of ``cwd`` wins (symlinks resolved; deepest wins; a tie
  goes to the alphabetically first profile, so the choice is deterministic);
  otherwise ``default``.
* A directory can be bound to one profile only (:meth:`ProfileStore.bind`
  refuses a second), so ties only arise from hand edits.
* A ``profile.toml`` that does not parse is moved aside
  (``profile.toml.corrupt-<timestamp>``), reported in
  :attr:`ProfileStore.problems`, and the profile carries on with no overrides.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agenttui.core.config.paths import DEFAULT_PROFILE, InvalidProfileName, Paths, check_profile_name
from agenttui.core.config.settings import MemorySettings, Settings


class ProfileError(Exception):
    pass


class ProfileInUse(ProfileError):
    """The profile's history is open in a running agenttui process (its folder must not move).

    ``holder`` names the process(es) for a caller that words its own message (sync)."""

    def __init__(self, message: str, *, name: str = "", holder: str = "") -> None:
        super().__init__(message)
        self.name, self.holder = name, holder


def refuse_if_in_use(name: str, directory: Path) -> None:
    """Raise :class:`ProfileInUse` while a process holds a claim on ``directory``
    (:mod:`agenttui.core.config.profile_claims`)."""
    from agenttui.core.config.profile_claims import holders

    pids = holders(directory)
    if pids:
        own = os.getpid() in pids
        who = "this agenttui" if own and len(pids) == 1 else \
            "agenttui (process " + ", ".join(str(pid) for pid in sorted(set(pids))) + ")"
        raise ProfileInUse(f"profile {name!r} is open in {who}: switch that app to another profile "
                           "or quit it, then delete again (nothing was moved)", name=name, holder=who)


class ProfileNotFound(ProfileError, KeyError):
    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else "profile not found"


class ProfileExists(ProfileError):
    pass


@dataclass
class Profile:
    name: str
    paths: list[Path] = field(default_factory=list)
    model: str | None = None
    base_url: str | None = None
    temperature: float | None = None
    soul: str | None = None
    tools: list[str] | None = None
    memory: dict[str, Any] = field(default_factory=dict)  # MemorySettings overrides
    # "repo": context.md, decisions.md and learnings.md live in the repository's .agenttui/ (shared
    # through git); "data" or unset: in the profile's data folder
    project_notes: str | None = None

    def apply(self, settings: Settings) -> Settings:
        """A deep copy of ``settings`` with this profile's overrides."""
        out = copy.deepcopy(settings)
        for name in ("model", "base_url", "temperature", "soul"):
            value = getattr(self, name)
            if value is not None:
                setattr(out, name, value)
        if self.tools is not None:
            out.agent.tools = list(self.tools)
        if self.memory:
            from agenttui.core.config.file import coerce_section

            out.memory, _ = coerce_section(MemorySettings, self.memory, self.name, out.memory)
        return out

    def to_toml(self) -> dict[str, Any]:
        data: dict[str, Any] = {"paths": [str(p) for p in self.paths]}
        for name in ("model", "base_url", "temperature", "soul", "tools", "project_notes"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        if self.memory:
            data["memory"] = dict(self.memory)
        return data


_PROFILE_FIELDS = {f.name for f in dataclasses.fields(Profile)} - {"name"}


def _profile_from_toml(name: str, data: dict[str, Any], where: str) -> tuple[Profile, list[str]]:
    """Lenient parse: bad entries are reported and skipped, never fatal."""
    warnings = [f"{where}: unknown key {k!r} ignored" for k in data if k not in _PROFILE_FIELDS]
    profile = Profile(name=name)
    raw_paths = data.get("paths", [])
    if isinstance(raw_paths, list) and all(isinstance(p, str) for p in raw_paths):
        profile.paths = [Path(p) for p in raw_paths]
    else:
        warnings.append(f"{where}: 'paths' must be a list of strings; ignored")
    for key, kinds in (("model", str), ("base_url", str), ("soul", str),
                       ("temperature", (int, float))):
        if key in data:
            value = data[key]
            if isinstance(value, kinds) and not isinstance(value, bool):
                if key == "temperature":  # the config schema's range, as in config.toml
                    from agenttui.core.config.schema import find_key, range_problem

                    if problem := range_problem(key, value, find_key(key).spec):
                        warnings.append(f"{where}: {problem}; ignored")
                        continue
                setattr(profile, key, float(value) if key == "temperature" else value)
            else:
                warnings.append(f"{where}: {key!r} has the wrong type; ignored")
    if "project_notes" in data:
        if data["project_notes"] in ("repo", "data"):
            profile.project_notes = data["project_notes"]
        else:
            warnings.append(f"{where}: 'project_notes' must be \"repo\" or \"data\"; ignored")
    if "tools" in data:
        tools = data["tools"]
        if isinstance(tools, list) and all(isinstance(t, str) for t in tools):
            profile.tools = tools
        else:
            warnings.append(f"{where}: 'tools' must be a list of strings; ignored")
    if "memory" in data:
        from agenttui.core.config.file import coerce_section

        if isinstance(data["memory"], dict):
            _, sub = coerce_section(MemorySettings, data["memory"], where, prefix="memory.")
            warnings.extend(sub)
            known = {f.name for f in dataclasses.fields(MemorySettings)}
            profile.memory = {k: v for k, v in data["memory"].items() if k in known}
        else:
            warnings.append(f"{where}: 'memory' must be a table; ignored")
    return profile, warnings


def _resolved(path: Path) -> Path:
    return Path(os.path.realpath(path.expanduser()))


class ProfileStore:
    def __init__(self, paths: Paths) -> None:
        self.paths = paths
        self.problems: list[str] = []  # corrupt profile files moved aside, with paths
        self.warnings: list[str] = []  # unknown keys / wrong types in profile files

    # -- reading -------------------------------------------------------------
    def names(self) -> list[str]:
        found = {DEFAULT_PROFILE}
        if self.paths.profiles_dir.is_dir():
            for entry in self.paths.profiles_dir.iterdir():
                try:
                    if entry.is_dir() and check_profile_name(entry.name):
                        found.add(entry.name)
                except InvalidProfileName:
                    continue
        return [DEFAULT_PROFILE] + sorted(found - {DEFAULT_PROFILE})

    def list(self) -> list[Profile]:
        return [p for p in (self.get(n) for n in self.names()) if p is not None]

    def exists(self, name: str) -> bool:
        try:
            return name == DEFAULT_PROFILE or self.paths.profile_dir(name).is_dir()
        except InvalidProfileName:
            return False

    def get(self, name: str) -> Profile | None:
        if not self.exists(name):
            return None
        return self._read(name)

    def _read(self, name: str) -> Profile:
        from agenttui.core.config.file import ConfigError, parse_toml_file
        from agenttui.core.files import quarantine

        path = self.paths.profile_file(name)
        if not path.exists():
            return Profile(name=name)
        try:
            data = parse_toml_file(path)
        except ConfigError as exc:
            error = quarantine(path, str(exc))
            message = f"profile {name!r}: {error}"
            if message not in self.problems:
                self.problems.append(message)
            return Profile(name=name)
        profile, warnings = _profile_from_toml(name, data, str(path))
        self.warnings.extend(w for w in warnings if w not in self.warnings)
        return profile

    # -- writing -------------------------------------------------------------
    def _write(self, profile: Profile) -> None:
        import tomli_w

        from agenttui.core.files import atomic_write_text

        atomic_write_text(self.paths.profile_file(profile.name), tomli_w.dumps(profile.to_toml()))

    def create(self, name: str, bind: Path | None = None) -> Profile:
        """Create profile ``name``, bound to ``bind`` if given; on any error nothing is created."""
        from agenttui.core.files import ensure_dir

        check_profile_name(name)
        if bind is not None:
            self._check_bindable(name, _resolved(bind), bind)  # before anything is made
        ensure_dir(self.paths.profiles_dir)
        try:  # mkdir is the atomic "does it exist" test across processes
            os.mkdir(self.paths.profile_dir(name), 0o700)
        except FileExistsError:
            raise ProfileExists(f"profile {name!r} already exists") from None
        profile = Profile(name=name)
        try:
            self._write(profile)
        except OSError:  # disk full, read-only: no half-made profile that "already exists"
            with contextlib.suppress(OSError):
                os.rmdir(self.paths.profile_dir(name))
            raise
        if bind is not None:
            try:
                profile = self.bind(name, bind)
            except BaseException:  # bound meanwhile by another process, a write error: undo
                import shutil

                shutil.rmtree(self.paths.profile_dir(name), ignore_errors=True)
                raise
        return profile

    def _check_bindable(self, name: str, target: Path, directory: Path) -> None:
        if not target.is_dir():
            raise ProfileError(f"cannot bind {directory}: not a directory")
        for other in self.list():
            if other.name != name and target in {_resolved(p) for p in other.paths}:
                raise ProfileError(f"{target} is already bound to profile {other.name!r}")

    def bind(self, name: str, directory: Path) -> Profile:
        from agenttui.core.files import ensure_dir, locked

        target = _resolved(directory)
        if not self.exists(name):
            raise ProfileNotFound(f"no profile named {name!r}")
        self._check_bindable(name, target, directory)
        ensure_dir(self.paths.profile_dir(name))
        with locked(self.paths.profile_file(name)):
            profile = self._read(name)  # re-read inside the lock
            if target not in {_resolved(p) for p in profile.paths}:
                profile.paths.append(target)
                self._write(profile)
        return profile

    def save(self, profile: Profile) -> None:
        """Write a profile's overrides (used by the settings dialog)."""
        from agenttui.core.files import locked

        check_profile_name(profile.name)
        with locked(self.paths.profile_file(profile.name)):
            self._write(profile)

    def delete(self, name: str) -> Path:
        """Move the profile's directory to the trash; returns where it went."""
        from agenttui.core.backup.archive import move_to_trash

        check_profile_name(name)
        directory = self.paths.profile_dir(name)
        if not directory.is_dir():
            if name == DEFAULT_PROFILE:
                raise ProfileError("profile 'default' has no data to delete")
            raise ProfileNotFound(f"no profile named {name!r}")
        refuse_if_in_use(name, directory)
        return move_to_trash(self.paths, directory)

    # -- choosing ------------------------------------------------------------
    def resolve(self, cwd: Path, override: str | None = None) -> Profile:
        if override:
            profile = self.get(override)
            if profile is None:
                raise ProfileNotFound(
                    f"no profile named {override!r}; profiles: {', '.join(self.names())} "
                    f"(create it with `agenttui profile create {override}`)")
            return profile
        here = _resolved(cwd)
        best: tuple[int, str] | None = None
        best_profile: Profile | None = None
        for profile in self.list():
            for bound in profile.paths:
                root = _resolved(bound)
                if here == root or root in here.parents:
                    rank = (-len(root.parts), profile.name)  # deepest, then by name
                    if best is None or rank < best:
                        best, best_profile = rank, profile
        return best_profile or self.get(DEFAULT_PROFILE) or Profile(name=DEFAULT_PROFILE)
