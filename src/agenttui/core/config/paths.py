"""Where agenttui keeps its files (docs/storage.md#locations).

platformdirs decides the locations; ``AGENTTUI_HOME=DIR`` puts everything
under DIR (portable installs, tests). Nothing is created at import or when a
``Paths`` is built: callers create directories on demand with
:func:`agenttui.core.files.ensure_dir`, which applies 0700.

Layout under the data dir::

    memory/user.json                 user-scoped memory (JSON, human-readable)
    profiles/<name>/profile.toml     bindings to project dirs + overrides
    profiles/<name>/memory.json      profile-scoped memory
    profiles/<name>/history.sqlite3  conversations (SQLite, WAL, FTS5)
    profiles/<name>/project/         context.md, decisions.md, learnings.md, sessions/
    backups/                         daily memory backups, full backup archives
    trash/                           what destructive actions moved away
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

APP_NAME = "agenttui"
HOME_ENV = "AGENTTUI_HOME"
DEFAULT_PROFILE = "default"

_PROFILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


class InvalidProfileName(ValueError):
    pass


def check_profile_name(name: str) -> str:
    """Profile names become directory names: keep them boring and safe."""
    # fullmatch: with match(), "$" also matches before a final newline ("evil\n")
    if not isinstance(name, str) or not _PROFILE_NAME.fullmatch(name) or name in {".", ".."}:
        from agenttui.core.errors import clip

        raise InvalidProfileName(
            f"invalid profile name {clip(repr(name), 80)}: use the Latin letters A-Z and a-z, digits, "
            "'.', '_' or '-' (up to 64 characters, starting with a letter or digit; it names a folder)"
        )
    return name


@dataclass(frozen=True)
class Paths:
    config_dir: Path
    data_dir: Path

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Paths:
        env = os.environ if environ is None else environ
        home = env.get(HOME_ENV)
        if home:
            root = Path(home).expanduser().resolve()
            return cls(config_dir=root / "config", data_dir=root / "data")
        import platformdirs  # lazy: only the first call pays for it

        return cls(
            config_dir=Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
            data_dir=Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
        )

    # -- config side ---------------------------------------------------------
    @property
    def config_file(self) -> Path:
        return self.config_dir / "config.toml"

    @property
    def user_themes_dir(self) -> Path:
        return self.config_dir / "themes"

    # -- data side -------------------------------------------------------------
    @property
    def user_memory_file(self) -> Path:
        return self.data_dir / "memory" / "user.json"

    @property
    def profiles_dir(self) -> Path:
        return self.data_dir / "profiles"

    def profile_dir(self, profile: str) -> Path:
        return self.profiles_dir / check_profile_name(profile)

    def profile_file(self, profile: str) -> Path:
        return self.profile_dir(profile) / "profile.toml"

    def profile_memory_file(self, profile: str) -> Path:
        return self.profile_dir(profile) / "memory.json"

    def history_db(self, profile: str) -> Path:
        return self.profile_dir(profile) / "history.sqlite3"

    def project_dir(self, profile: str) -> Path:
        return self.profile_dir(profile) / "project"

    @property
    def backups_dir(self) -> Path:
        return self.data_dir / "backups"

    @property
    def memory_backups_dir(self) -> Path:
        return self.backups_dir / "memory"

    @property
    def trash_dir(self) -> Path:
        return self.data_dir / "trash"

    def describe(self) -> dict[str, Path]:
        """Every location, for ``agenttui paths`` and ``doctor``."""
        return {
            "config_dir": self.config_dir,
            "config_file": self.config_file,
            "themes_dir": self.user_themes_dir,
            "data_dir": self.data_dir,
            "user_memory": self.user_memory_file,
            "profiles_dir": self.profiles_dir,
            "backups_dir": self.backups_dir,
            "trash_dir": self.trash_dir,
        }
