"""The composition root: one place that builds the services.

The CLI, the UI and the tests all call :func:`build_services`; tests pass
their own ``paths`` / ``environ`` / ``cwd`` instead of patching anything.
The stores (memory, history, project memory) are built on first use:
``build_services`` reads config.toml and resolves the profile, nothing more,
so the UI's first frame waits neither on SQLite and JSON nor on importing the
store modules (``core.history`` pulls in the redaction rules). A store can
still be assigned directly (tests swap one in).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from agenttui.core.paths import Paths

if TYPE_CHECKING:  # annotations only: importing these eagerly would slow start-up
    from agenttui.core.history import HistoryStore
    from agenttui.core.memory import MemoryStore
    from agenttui.core.profiles import Profile, ProfileStore
    from agenttui.core.project_memory import ProjectMemory
    from agenttui.core.secrets import KeyLookup
    from agenttui.core.settings import Settings


class _Store:
    """A Services attribute whose value is built on first read (thread-safe).

    A dataclass field default that is a descriptor: ``__get__(None, owner)``
    gives the field's default (None), ``__init__`` assigns through ``__set__``.
    Reading while the value is None calls the factory ``_attach_profile`` left.
    """

    def __set_name__(self, owner, name: str) -> None:
        self.name = name
        self.slot = f"_{name}_value"

    def __get__(self, services, owner=None):
        if services is None:
            return None
        value = services.__dict__.get(self.slot)
        if value is None:
            factory = services.__dict__.get("_factories", {}).get(self.name)
            if factory is None:
                return None
            with _BUILD_LOCK:
                value = services.__dict__.get(self.slot)
                if value is None:
                    value = factory()
                    services.__dict__[self.slot] = value
        return value

    def __set__(self, services, value) -> None:
        services.__dict__[self.slot] = value

    def built(self, services) -> object | None:
        """The value if it was built or assigned, without building it."""
        return services.__dict__.get(self.slot)


_BUILD_LOCK = threading.RLock()


@dataclass
class Services:
    paths: Paths
    base_settings: Settings  # as loaded from config.toml
    settings: Settings  # the same with the active profile's overrides applied
    profile: Profile
    profiles: ProfileStore
    memory: MemoryStore = _Store()  # built on first use
    history: HistoryStore = _Store()  # built on first use
    project: ProjectMemory = _Store()  # built on first use
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    config_warnings: list[str] = field(default_factory=list)
    config_error: str | None = None
    session_api_key: str | None = None  # typed in Settings, kept for this run only (issue 12 item 8)

    @property
    def profile_name(self) -> str:
        return self.profile.name

    @property
    def model(self) -> str:
        return self.environ.get("AGENTTUI_MODEL") or self.settings.model

    @property
    def base_url(self) -> str | None:
        return self.environ.get("OPENAI_BASE_URL") or self.settings.base_url

    def api_key(self) -> KeyLookup:
        """Look the key up now: OPENAI_API_KEY, then a key typed in Settings for
        this session, then the keyring entry of this profile (``api_key:<profile>``),
        then the shared one, then the opt-in key file. keyring is imported here,
        never before the first frame."""
        from agenttui.core.key_file import key_file_path
        from agenttui.core.secrets import get_api_key

        return get_api_key(self.environ, profile=self.profile_name, session=self.session_api_key,
                           key_file=key_file_path(self.paths.config_dir))

    def semantic_ranker(self):
        """Recall's embedding ranker (core/semantic.py), cached for the session; None while
        ``[recall] semantic`` is off or after it failed. Imported here, never at start-up."""
        if not self.settings.recall.semantic:
            return None
        from agenttui.core.semantic import ranker_for

        return ranker_for(self)

    def switch_profile(self, name: str) -> None:
        """Swap history, profile memory and project memory without a restart."""
        profile = self.profiles.get(name)
        if profile is None:
            raise KeyError(f"no profile named {name!r}")
        self._close_history()
        _attach_profile(self, profile)

    def reload_settings(self) -> None:
        from agenttui.core.config import load_settings

        loaded = load_settings(self.paths)
        self.base_settings = loaded.settings
        self.config_warnings = list(loaded.warnings)
        self.config_error = str(loaded.error) if loaded.error else None
        self.settings = self.profile.apply(loaded.settings)

    def close(self) -> None:
        self._close_history()

    def _close_history(self) -> None:
        history = Services.__dict__["history"].built(self)  # a store never opened needs no close
        if history is not None:
            history.close()


def _attach_profile(services: Services, profile: Profile) -> None:
    paths = services.paths
    settings = profile.apply(services.base_settings)
    extra = settings.redaction.extra_patterns
    services.profile = profile
    services.settings = settings

    def memory():
        from agenttui.core.memory import MemoryStore

        return MemoryStore(paths, profile.name, settings.memory, redact_patterns=extra)

    def history():
        from agenttui.core.history import HistoryStore

        return HistoryStore(paths.history_db(profile.name), redact_patterns=extra)

    def project():
        from agenttui.core.project_memory import ProjectMemory

        return ProjectMemory(paths.project_dir(profile.name))

    factories: dict[str, Callable[[], object]] = {"memory": memory, "history": history, "project": project}
    with _BUILD_LOCK:  # a worker reading a store mid-switch gets the old or the new one, whole
        services.__dict__["_factories"] = factories
        for name in factories:
            services.__dict__.pop(f"_{name}_value", None)


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
        environ=env,
        config_warnings=list(loaded.warnings),
        config_error=str(loaded.error) if loaded.error else None,
    )
    _attach_profile(services, active)
    return services
