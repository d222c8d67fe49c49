"""The composition root: one place that builds the services.

The CLI, the UI and the tests all call :func:`build_services`; tests pass
their own ``paths`` / ``environ`` / ``cwd`` instead of patching anything.
The stores (memory, history, project memory) are built on first use:
``build_services`` reads config.toml and resolves the profile, nothing more,
so the UI's first frame waits neither on SQLite and JSON nor on importing the
store modules (``core.history.store`` pulls in the redaction rules). A store can
still be assigned directly (tests swap one in).

What the agent keeps between turns of this run (unsaved history writes, the
cached client, the last request, semantic recall's state) lives in
:class:`SessionState`, ``services.session``: in memory only, never written.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import sys
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from agenttui.core.config.paths import Paths

if TYPE_CHECKING:  # annotations only: importing these eagerly would slow start-up
    from openai import AsyncOpenAI

    from agenttui.agent.prompt_capture import CapturedPrompt
    from agenttui.core.config.api_key import KeyLookup
    from agenttui.core.config.profiles import Profile, ProfileStore
    from agenttui.core.config.settings import Settings
    from agenttui.core.history.store import HistoryStore
    from agenttui.core.memory.project import ProjectMemory
    from agenttui.core.memory.store import MemoryStore
    from agenttui.core.models import Message
    from agenttui.core.recall.semantic import EmbeddingRanker, SemanticState
    from agenttui.mcp.manager import McpManager

_BUILD_LOCK = threading.RLock()  # a store is built once, and never half-way through a profile switch


@dataclass
class SessionState:
    """What the agent keeps between the turns of one run (memory only).

    ``unsaved``: messages whose history write failed, oldest first; the next
    turn retries them (:func:`agenttui.agent.loop.flush_pending`) and the CLI
    rescues them before exiting (:mod:`agenttui.cli.unsaved`).
    ``client``: the cached AsyncOpenAI with the (endpoint, key, timeout, loop)
    it was built for (:func:`agenttui.agent.loop.client_for`).
    ``last_prompt``: the last request sent, unredacted, for the prompt inspector
    (:mod:`agenttui.agent.prompt_capture`).
    ``semantic``: semantic recall's index and client (:func:`agenttui.core.recall.semantic.semantic_state`).
    ``mcp``: the MCP servers attached for this run (:func:`agenttui.mcp.manager.attach`).
    It lives in ``shared``, which an incognito twin's copy of this state shares
    (``Services.incognito_twin``): servers attached after the chat went
    incognito (they start 0.5 s after the panes) are the twin's too.
    """

    unsaved: deque[tuple[str, Message]] = field(default_factory=deque)
    client: tuple[tuple[object, ...], AsyncOpenAI] | None = None
    last_prompt: CapturedPrompt | None = None
    semantic: SemanticState | None = None
    shared: RunShared = field(default_factory=lambda: RunShared())

    @property
    def mcp(self) -> McpManager | None:
        return self.shared.mcp

    @mcp.setter
    def mcp(self, manager: McpManager | None) -> None:
        self.shared.mcp = manager


@dataclass
class RunShared:
    """What every copy of a run's session state shares (one object): its MCP servers."""

    mcp: McpManager | None = None


@dataclass
class Services:
    paths: Paths
    base_settings: Settings  # as loaded from config.toml
    settings: Settings  # the same with the active profile's overrides applied
    profile: Profile
    profiles: ProfileStore
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    config_warnings: list[str] = field(default_factory=list)
    config_error: str | None = None
    session_api_key: str | None = None  # typed in Settings, kept for this run only
    session: SessionState = field(default_factory=SessionState)
    incognito: bool = False  # a twin for incognito turns (incognito_twin): reads, never writes
    # every history store opened keeps recall's postings in memory (HistoryStore.keep_ranking_index):
    # the app, from its start-up preparation on; a one-shot command never
    keeps_ranking_index: bool = False
    # where agenttui was started: the profile's binding and the repository's AGENTS.md are found from it
    workdir: Path = field(default_factory=Path.cwd)
    # The stores, built on first read of the properties below (None: not yet).
    _memory: MemoryStore | None = field(default=None, init=False, repr=False)
    _history: HistoryStore | None = field(default=None, init=False, repr=False)
    _project: ProjectMemory | None = field(default=None, init=False, repr=False)

    @property
    def memory(self) -> MemoryStore:
        """The active profile's memory (built on first use)."""
        store = self._memory
        if store is None:
            with _BUILD_LOCK:
                if self._memory is None:
                    from agenttui.core.memory.store import MemoryStore

                    self._memory = MemoryStore(self.paths, self.profile.name, self.settings.memory,
                                               redact_patterns=self.settings.redaction.extra_patterns)
                store = self._memory
        return store

    @memory.setter
    def memory(self, store: MemoryStore) -> None:
        self._memory = store

    @property
    def history(self) -> HistoryStore:
        """The active profile's history database (opened on first use)."""
        store = self._history
        if store is None:
            with _BUILD_LOCK:
                if self._history is None:
                    from agenttui.core.history.store import HistoryStore

                    self._history = HistoryStore(self.paths.history_db(self.profile.name),
                                                 redact_patterns=self.settings.redaction.extra_patterns)
                    if self.keeps_ranking_index:  # a profile switched to: built in the background
                        self._history.keep_ranking_index(wait=False)
                store = self._history
        return store

    @history.setter
    def history(self, store: HistoryStore) -> None:
        self._history = store

    def history_if_open(self) -> HistoryStore | None:
        """The history store if something already opened it, without opening it."""
        return self._history

    @property
    def project(self) -> ProjectMemory:
        """The active profile's project memory folder (built on first use)."""
        store = self._project
        if store is None:
            with _BUILD_LOCK:
                if self._project is None:
                    from agenttui.core.memory.project import ProjectMemory

                    self._project = ProjectMemory(self.project_notes_dir())
                store = self._project
        return store

    @project.setter
    def project(self, store: ProjectMemory) -> None:
        self._project = store

    def project_notes_dir(self) -> Path:
        """Where the project notes live: the profile's data folder, or with ``project_notes =
        "repo"`` in profile.toml the ``.agenttui/`` folder at the root of the repository agenttui
        was started in (else of the first bound folder in one), so a team shares them through
        git. A profile set to "repo" used outside any repository keeps them in the data folder."""
        if self.profile.project_notes == "repo":
            from agenttui.core.context.repo_instructions import repository_root

            for folder in (self.workdir, *self.profile.paths):
                root = repository_root(Path(folder).expanduser())
                if root is not None:
                    return root / ".agenttui"
        return self.paths.project_dir(self.profile.name)

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
        from agenttui.core.config.api_key import get_api_key
        from agenttui.core.config.key_file import key_file_path

        return get_api_key(self.environ, profile=self.profile_name, session=self.session_api_key,
                           key_file=key_file_path(self.paths.config_dir))

    def incognito_twin(self) -> Services:
        """A twin of these services for incognito turns (:mod:`agenttui.core.incognito`): the
        same settings less the writing paths, history in memory over a read-only view of the
        real one, memory and project memory read only. These services are unchanged. The twin
        shares the cached client and MCP servers, never the queue of unsaved writes (an
        incognito message must never reach the real store through it)."""
        from agenttui.core.incognito import IncognitoHistory, ReadOnlyMemory, ReadOnlyProject, incognito_settings

        twin = copy.copy(self)
        twin.session = dataclasses.replace(self.session, unsaved=deque())
        twin.settings = incognito_settings(self.settings)
        # Stand-ins with the stores' interface (reads forwarded, writes refused):
        twin.history = cast("HistoryStore", IncognitoHistory(self.paths.history_db(self.profile_name),
                                                             self.settings.redaction.extra_patterns))
        twin.memory = cast("MemoryStore", ReadOnlyMemory(self.memory))
        twin.project = cast("ProjectMemory", ReadOnlyProject(self.project))
        twin.incognito = True
        return twin

    def semantic_ranker(self) -> EmbeddingRanker | None:
        """Recall's embedding ranker (core/recall/semantic.py), cached for the session; None while
        ``[recall] semantic`` is off or after it failed. Imported here, never at start-up."""
        if not self.settings.recall.semantic:
            return None
        from agenttui.core.recall.semantic import ranker_for

        return ranker_for(self)

    def switch_profile(self, name: str) -> None:
        """Swap history, profile memory and project memory without a restart."""
        profile = self.profiles.get(name)
        if profile is None:
            raise KeyError(f"no profile named {name!r}")
        self._close_history()
        _attach_profile(self, profile)

    def reload_settings(self) -> None:
        from agenttui.core.config.file import load_settings

        loaded = load_settings(self.paths)
        self.base_settings = loaded.settings
        self.config_warnings = list(loaded.warnings)
        self.config_error = str(loaded.error) if loaded.error else None
        self.settings = self.profile.apply(loaded.settings)

    def close(self) -> None:
        try:
            pricing = sys.modules.get("agenttui.core.usage.pricing")  # only if a turn started a pass
            if pricing is not None:
                pricing.wait_for_background()
            semantic = sys.modules.get("agenttui.core.recall.semantic")  # only if recall used it
            if semantic is not None and not self.incognito:  # a twin shares the real session's state
                semantic.end_session(self)
        finally:  # the history closes (and lets go of the profile's claim) whatever failed above
            self._close_history()

    def _close_history(self) -> None:
        history = self._history  # a store never opened needs no close
        if history is not None:
            history.close()


def _attach_profile(services: Services, profile: Profile) -> None:
    """Make ``profile`` the active one; its stores are built on their first read."""
    with _BUILD_LOCK:  # a worker reading a store mid-switch gets the old or the new one, whole
        services.profile = profile
        services.settings = profile.apply(services.base_settings)
        services._memory = services._history = services._project = None


def build_services(
    paths: Paths | None = None,
    profile: str | None = None,
    cwd: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> Services:
    from agenttui.core.config.file import load_settings
    from agenttui.core.config.profiles import ProfileStore

    env = os.environ if environ is None else environ
    paths = paths or Paths.from_env(dict(env))
    loaded = load_settings(paths)
    profiles = ProfileStore(paths)
    workdir = cwd or Path.cwd()
    active = profiles.resolve(workdir, profile or env.get("AGENTTUI_PROFILE") or None)
    services = Services(
        paths=paths,
        workdir=workdir,
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
