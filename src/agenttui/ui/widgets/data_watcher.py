"""Tells the panes when memory or history changed on disk.

A hidden widget that polls :class:`agenttui.core.data_watch.DataWatch` once a
second in a thread worker (the history read may wait on another process's
lock) and posts the app-level messages the main screen already routes:
``MemoryChanged`` (the Memory pane re-reads), ``ConversationsChanged`` (the
History pane re-reads). When the history database was replaced (``agenttui
restore`` while the app runs) the store's connection is closed so that it
reopens the restored file, the settings are read again (a restore brings its
config.toml), a notice says what happened, and a conversation open
in the chat that the restored history lacks is left (``ConversationDeleted``).
When the profile's whole folder went (``agenttui profile delete`` or a sync in
another process moved it to the trash), the notice says so instead: the history
so far is in the trash, and what is sent now starts the profile's folder again
(nothing is lost either way; the user can switch profiles).
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from textual import on, work
from textual.message import Message
from textual.widget import Widget

from agenttui.core.data_watch import DataChanges, DataWatch
from agenttui.ui import messages
from agenttui.ui.host import app_parts
from agenttui.ui.survivable_errors import dispatch_guarded

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

POLL_INTERVAL = 1.0  # seconds; a poll costs a few stat calls and one PRAGMA


def _stat_key(path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _data_version(history) -> int | None:
    return int(history.epoch[1])


def _semantic_index_replaced(services) -> None:
    """Semantic recall's own connection follows the history's to the file now at the path."""
    semantic = sys.modules.get("agenttui.core.recall.semantic")  # only if recall has started
    if semantic is not None and not services.incognito:  # a twin shares the real session's state
        semantic.history_replaced(services)


@runtime_checkable
class WatchedScreen(Protocol):
    """The main screen, as the watcher sees it (importing it would close an import circle:
    the main screen builds the Memory pane, which holds this watcher)."""

    panes_ready: bool

    def open_conversation_id(self) -> str | None: ...


class DataWatcher(Widget):
    DEFAULT_CSS = "DataWatcher { display: none; }"

    class _Polled(Message):
        def __init__(self, changes: DataChanges, left: str | None, config: bool = False,
                     profile_gone: str | None = None) -> None:
            super().__init__()
            self.changes = changes
            self.profile_gone = profile_gone  # the profile whose folder went (to the trash)
            self.left = left  # the open conversation the restored history does not have
            self.config = config  # config.toml changed (its MCP servers may have)

    async def _on_message(self, message: Message) -> None:
        # a bug in one handler is a notice; this widget keeps its loop and stays (survivable_errors)
        await dispatch_guarded(self, message, super()._on_message)

    def __init__(self, services: Services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self._watch = DataWatch()
        self._config_key: tuple[int, int, int] | None = None
        self._config_seen = False  # the first poll takes the baseline
        self._polling = False
        self.polls = 0  # finished polls (tests wait for the baseline instead of sleeping)

    def on_mount(self) -> None:
        self.set_interval(POLL_INTERVAL, self._tick)
        self._tick()  # the baseline, at once

    def _main_screen(self) -> WatchedScreen | None:
        screen = self.screen if self.is_attached else None
        return screen if isinstance(screen, WatchedScreen) else None  # not in a test's bare host

    def _open_conversation(self) -> str | None:
        main = self._main_screen()
        return main.open_conversation_id() if main is not None else None

    def _tick(self) -> None:
        if self._polling or not self.is_mounted:
            return  # a poll waiting on a lock is not stacked up behind; or leaving the DOM
        self._polling = True
        self._poll(self._open_conversation())

    @work(thread=True, exclusive=True, group="data-watch", exit_on_error=False)
    def _poll(self, open_id: str | None) -> None:
        changes, left, config, gone = DataChanges(), None, False, None
        try:
            key = _stat_key(self.services.paths.config_file)
            config, self._config_key = self._config_seen and key != self._config_key, key
            self._config_seen = True
            memory, history = self.services.memory, self.services.history
            changes = self._watch.poll(list(memory.files().values()), history.db_path,
                                       lambda: _data_version(history))
            if changes.replaced:
                folder = history.db_path.parent
                if not folder.is_dir():  # looked at before the reopen below makes it again
                    gone = folder.name
                history.close()  # the next use opens the file now at the path
                _semantic_index_replaced(self.services)
                with contextlib.suppress(Exception):  # a restore brings its config.toml too
                    self.services.reload_settings()
                if open_id is not None and history.get_conversation(open_id) is None:
                    left = open_id
        except Exception:  # noqa: BLE001 -- best effort: the panes' own reads report a broken file
            pass
        finally:
            self.post_message(self._Polled(changes, left, config, gone))

    @on(_Polled)
    def _polled(self, message: _Polled) -> None:
        message.stop()
        self._polling = False
        self.polls += 1
        changes = message.changes
        main = self._main_screen()
        if message.config and main is not None and main.panes_ready:
            from agenttui.ui.mcp_servers import sync_mcp

            sync_mcp(self.app)
        if not changes or main is None or not main.panes_ready:
            return
        if changes.memory or changes.replaced:
            self.post_message(messages.MemoryChanged())
        if changes.history:
            self.post_message(messages.ConversationsChanged(None))
        if changes.replaced:
            app_parts(self).refresh_header()  # the restored config may name another model
            if message.profile_gone is not None:
                self.notify(f"Profile '{message.profile_gone}' was moved to the trash by another agenttui "
                            "(profile delete, or a sync) while this one ran. Its history so far is in the "
                            "trash folder (agenttui paths); what you send now starts the profile again. "
                            "ctrl+g switches profiles.",
                            title="Profile moved to the trash", severity="warning", timeout=30)
                return
            self.notify("The history database was replaced on disk (agenttui restore?) while agenttui "
                        "was running: memory and history now show what is on disk.",
                        title="Data changed on disk", timeout=15)
        if message.left is not None:
            self.post_message(messages.ConversationDeleted(message.left))
