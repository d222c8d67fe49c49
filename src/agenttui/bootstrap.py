"""The composition root: one place that builds the services.

The CLI, the UI and the tests all call :func:`build_services`; tests pass
their own ``paths`` / ``environ`` / ``cwd`` instead of patching anything.
Stores open their files lazily, so building services is cheap and the UI's
first frame does not wait on SQLite or JSON parsing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from agenttui.core.paths import Paths


@dataclass
class Services:
    paths: Paths
    base_settings: object  # core.settings.Settings, as loaded from config.toml
    settings: object  # the same with the active profile's overrides applied
    profile: object  # core.profiles.Profile
    profiles: object  # core.profiles.ProfileStore
    memory: object  # core.memory.MemoryStore
    history: object  # core.history.HistoryStore
    project: object  # core.project_memory.ProjectMemory
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    config_warnings: list[str] = field(default_factory=list)
    config_error: str | None = None

    @property
    def profile_name(self) -> str:
        return self.profile.name  # type: ignore[attr-defined]

    @property
    def model(self) -> str:
        return self.environ.get("AGENTTUI_MODEL") or self.settings.model  # type: ignore[attr-defined]

    @property
    def base_url(self) -> str | None:
        return self.environ.get("OPENAI_BASE_URL") or self.settings.base_url  # type: ignore[attr-defined]

    def api_key(self):
        """Look the key up now (env, then keyring): keyring is imported lazily."""
        from agenttui.core.secrets import get_api_key

        return get_api_key(self.environ)

    def switch_profile(self, name: str) -> None:
        """Swap history, profile memory and project memory without a restart (U5)."""
        profile = self.profiles.get(name)  # type: ignore[attr-defined]
        if profile is None:
            raise KeyError(f"no profile named {name!r}")
        self.history.close()  # type: ignore[attr-defined]
        _attach_profile(self, profile)

    def reload_settings(self) -> None:
        from agenttui.core.config import load_settings

        loaded = load_settings(self.paths)
        self.base_settings = loaded.settings
        self.config_warnings = list(loaded.warnings)
        self.config_error = str(loaded.error) if loaded.error else None
        self.settings = self.profile.apply(loaded.settings)  # type: ignore[attr-defined]

    def close(self) -> None:
        self.history.close()  # type: ignore[attr-defined]


def _attach_profile(services: Services, profile) -> None:
    from agenttui.core.history import HistoryStore
    from agenttui.core.memory import MemoryStore
    from agenttui.core.project_memory import ProjectMemory

    paths = services.paths
    settings = profile.apply(services.base_settings)
    extra = settings.redaction.extra_patterns
    services.profile = profile
    services.settings = settings
    services.memory = MemoryStore(paths, profile.name, settings.memory, redact_patterns=extra)
    services.history = HistoryStore(paths.history_db(profile.name), redact_patterns=extra)
    services.project = ProjectMemory(paths.project_dir(profile.name))


def build_services(
    paths: Paths | None = None,
    profile: str | None = None,
    cwd: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> Services:
    from agenttui.core.config import load_settings
    from agenttui.core.profiles import ProfileStore

    env = os.environ if environ is None else environ
    paths = paths or Paths.from_env(dict(env))
    loaded = load_settings(paths)
    profiles = ProfileStore(paths)
    active = profiles.resolve(cwd or Path.cwd(), profile or env.get("AGENTTUI_PROFILE") or None)
    services = Services(
        paths=paths,
        base_settings=loaded.settings,
        settings=loaded.settings,
        profile=active,
        profiles=profiles,
        memory=None,
        history=None,
        project=None,
        environ=env,
        config_warnings=list(loaded.warnings),
        config_error=str(loaded.error) if loaded.error else None,
    )
    _attach_profile(services, active)
    return services
