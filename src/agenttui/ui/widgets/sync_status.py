"""The app's side of sync: ``/sync``, the background syncs of ``[sync] auto``, and a quiet
status in the header's right corner (README, "Sync").

A small label docked over the header's empty clock space: ``⇅ 14:05`` (the last sync, local
time) or ``⇅ failed`` (the reason in its tooltip and in a notice). Shown only on a machine
that has run ``agenttui sync init``. A sync runs in a thread worker (git, files, SQLite: it
may take seconds) and posts its outcome back; the UI never waits for it. A sync that
received changes tells the panes at once (``MemoryChanged``, ``ConversationsChanged``), as
the data watcher would on its next poll. Settings, the active profile or themes it wrote
are used at once, and conflicts it kept are a notice (:mod:`agenttui.ui.sync_reload`).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual import on, work
from textual.message import Message
from textual.widgets import Static

from agenttui.ui import messages
from agenttui.ui.one_shot import set_timer
from agenttui.ui.sync_reload import Reloaded, apply_in_app, conflict_notice, reload_services

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

#: seconds after the panes are up before the start-up sync: the first frame and turn come first
START_DELAY = 2.0
TICK_S = 60.0


def _local_time(stamp: str | None) -> str:
    if not stamp:
        return "never"
    from datetime import datetime

    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%H:%M")
    except ValueError:
        return "?"


def _reason(error: Exception) -> str:
    """One sentence for the notice and the tooltip; the sync's own errors say it themselves."""
    from agenttui.core.config.key_file import KeyFileError
    from agenttui.sync.crypto import WrongPassphrase
    from agenttui.sync.secrets import NoPassphrase
    from agenttui.sync.targets import SyncError

    if isinstance(error, WrongPassphrase | NoPassphrase | SyncError | KeyFileError):
        return str(error)
    from agenttui.core.errors import explain

    # a disk error is explained; anything else is named: a background sync must not end the app
    return explain(error) or f"{type(error).__name__}: {error}"


class SyncStatus(Static):
    DEFAULT_CSS = """
    SyncStatus {
        layer: _loading;  /* above the header, which it overlaps at the right */
        dock: right;
        width: auto;
        max-width: 10;  /* the header keeps 10 columns free on the right (HEADER_CHROME) */
        height: 1;
        padding: 0 1;
        background: $panel;
        color: $text-muted;
        display: none;
    }
    SyncStatus.-failed { color: $error; }
    """

    class Synced(Message):
        def __init__(self, manual: bool, summary: str | None = None, received: int = 0,
                     skipped: tuple[str, ...] = (), error: str | None = None, last: str | None = None,
                     conflict_keys: tuple[str, ...] = (), reloaded: Reloaded | None = None) -> None:
            super().__init__()
            self.conflict_keys = conflict_keys
            self.reloaded = reloaded
            self.manual = manual  # /sync: say what moved; a background sync says only what went wrong
            self.summary = summary
            self.received = received
            self.skipped = skipped
            self.error = error
            self.last = last

    def __init__(self, services: Services, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.services = services
        self.running = False
        self.finished = 0  # syncs finished (tests wait on it)
        self._failed_quietly = False  # a background failure is a notice once, then only the label
        self._started_at: float | None = None  # monotonic time of the last sync started

    def on_mount(self) -> None:
        from agenttui.sync.engine import syncs

        # a minute's tick reads the settings each time: turning auto on or changing the
        # interval in Settings (or `sync init` in a shell) applies without a restart
        self.set_interval(TICK_S, self._tick)
        if not syncs(self.services.paths):
            return  # not set up: no label (/sync says how to set it up)
        self.display = True
        self.update("⇅ …")
        self._read_last()
        if self.services.settings.sync.auto:
            set_timer(self, START_DELAY, lambda: self.start(manual=False))

    def _tick(self) -> None:
        settings = self.services.settings.sync
        due = self._started_at is None or time.monotonic() - self._started_at >= settings.interval_minutes * 60.0
        if settings.auto and due:
            self.start(manual=False)

    @work(thread=True, group="sync-status", exit_on_error=False)
    def _read_last(self) -> None:
        from agenttui.sync.engine import last_sync

        self.app.call_from_thread(self._show_last, last_sync(self.services.paths))

    def _show_last(self, stamp: str | None) -> None:
        if not self.running:
            self.update(f"⇅ {_local_time(stamp)}")
            self.tooltip = f"Last sync: {stamp or 'never'} (UTC). /sync syncs now."

    def start(self, manual: bool) -> None:
        from agenttui.sync.engine import syncs

        if self.running:
            if manual:
                self.notify("A sync is already running.", title="Sync")
            return
        if not syncs(self.services.paths):
            if manual:
                self.notify("This machine does not sync yet: run `agenttui sync init --git URL` or "
                            "`--folder DIR` in a shell (README, Sync).", title="Sync", severity="warning")
            return
        self.running = True
        self._started_at = time.monotonic()
        self.display = True
        self.update("⇅ …")
        self._run(manual, tuple(self.services.settings.redaction.extra_patterns))

    @work(thread=True, group="sync", exit_on_error=False)
    def _run(self, manual: bool, patterns: tuple[str, ...]) -> None:
        from agenttui.sync import engine

        try:
            outcome = engine.sync_now(self.services.paths, patterns)
        except Exception as error:  # noqa: BLE001 -- every failure is a notice; the app goes on
            self.post_message(self.Synced(manual, error=_reason(error), last=engine.last_sync(self.services.paths)))
            return
        reloaded = reload_services(self.services, outcome.files)  # here: reading them may take a moment
        self.post_message(self.Synced(manual, outcome.summary(), outcome.received, tuple(outcome.skipped),
                                      last=engine.last_sync(self.services.paths),
                                      conflict_keys=tuple(outcome.conflict_keys), reloaded=reloaded))

    @on(Synced)
    def _synced(self, message: Synced) -> None:
        message.stop()
        self.running = False
        self.finished += 1
        if message.error is not None:
            self.add_class("-failed")
            self.update("⇅ failed")
            self.tooltip = f"Sync failed: {message.error} (last good sync: {message.last or 'never'}, UTC)"
            if message.manual or not self._failed_quietly:
                self._failed_quietly = not message.manual
                self.notify(message.error, title="Sync failed", severity="error", timeout=20)
            return
        self._failed_quietly = False
        self.remove_class("-failed")
        self.update(f"⇅ {_local_time(message.last)}")
        self.tooltip = f"Last sync: {message.last} (UTC): {message.summary}. /sync syncs now."
        if message.received:
            self.post_message(messages.MemoryChanged())
            self.post_message(messages.ConversationsChanged(None))
        if message.manual:
            self.notify(message.summary or "", title="Sync")
        if message.reloaded:
            apply_in_app(self.app, message.reloaded)
            self.notify(message.reloaded.notice(), title="Sync",
                        severity="warning" if message.reloaded.error else "information", timeout=10)
        conflicts = conflict_notice(message.conflict_keys)
        if conflicts:  # background syncs too: the user would not know to look otherwise
            self.notify(conflicts, title="Sync conflicts", severity="warning", timeout=20)
        for line in message.skipped:
            self.notify(line, title="Sync", severity="warning", timeout=20)
