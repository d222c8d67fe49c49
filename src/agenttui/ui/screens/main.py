"""The main screen: header, Memory | Chat | History, footer.

First paint (see :mod:`agenttui.ui.startup`, which holds the start-up tricks
and why): in a terminal the first frame shows the header line, the three
titled, bordered panes as empty slots (with the panes' ids, so every layout
rule applies to them), the footer row, and in the chat's slot an early
prompt that takes typing at once. Right after that frame is on screen the
pane modules are imported in a thread (the early prompt keeps echoing keys),
and the real panes, ``Header`` and ``Footer`` replace the slots in one batch;
the early prompt's text moves into the real one (the app tells the screen on
Textual's ``Ready`` event; see :meth:`MainScreen.first_frame_shown`). The
screen is the app's default screen (``App.get_default_screen``). Headless
runs (Pilot tests, screenshots) have no first frame to hurry and mount the
panes in ``compose`` so tests see them at once; ``defer_panes`` overrides the
choice.

Type-ahead: keys the early prompt cannot take (Enter, arrows, ...) and keys
typed while the slots are swapped have no prompt to go to; the app holds them
and replays them once the panes are up and the prompt has focus
(``startup.TypeAhead``), so they arrive as if typed then, in order.

Pane visibility: each sidebar is shown by default when the terminal is at
least ``NARROW_BELOW`` columns wide and hidden below that; toggling a pane
records the user's choice as a class (``-shown`` / ``-hidden``) which wins
over the width rule (and carries over from a slot to its pane). The screen
routes app messages between panes so panes never reach into each other.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual import events, on
from textual.app import ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget

from agenttui.ui import messages
from agenttui.ui.host import app_parts
from agenttui.ui.inert import inert_line
from agenttui.ui.one_shot import set_timer
from agenttui.ui.startup import (
    HEADER_ICON,
    PANES_AFTER_S,
    PANES_LATEST_S,
    Blank,
    EarlyPrompt,
    HeaderSlot,
    PaneSlot,
    first_frame_slots,
    hide_toast_rack,
    import_panes,
)
from agenttui.ui.survivable_errors import dispatch_guarded

if TYPE_CHECKING:
    from agenttui.bootstrap import Services
    from agenttui.ui.widgets.chat_pane import ChatPane

NARROW_BELOW = 100
PANES = (("memory", "Memory"), ("chat", "Chat"), ("history", "History"))
PANE_IDS = {name: f"#{name}-pane" for name, _ in PANES}
_CARRIED_CLASSES = ("-hidden", "-shown")


__all__ = ["PANES", "Blank", "HeaderSlot", "MainScreen", "PaneSlot"]


class MainScreen(Screen):
    CSS_PATH = "main.tcss"
    AUTO_FOCUS = "#prompt, #early-prompt"

    class PanesReady(Message):
        """The real panes are mounted (after the first frame when deferred)."""

    async def _on_message(self, message: Message) -> None:
        # a bug in one handler is a notice; this widget keeps its loop and stays (survivable_errors)
        await dispatch_guarded(self, message, super()._on_message)

    def __init__(self, services: Services, *, defer_panes: bool | None = None) -> None:
        super().__init__()
        self.services = services
        self._defer_panes = defer_panes
        self.panes_ready = False  # the real panes are mounted (not the slots)
        self._mounted = self._app_ready = self._fill_scheduled = False

    def compose(self) -> ComposeResult:
        # Every widget class in the first frame has its CSS in main.tcss or none,
        # so the stylesheet is parsed once, with the app's (see HeaderSlot).
        defer = not self.app.is_headless if self._defer_panes is None else self._defer_panes
        self.set_class(self.app.size.width < NARROW_BELOW, "-narrow")  # before the first layout
        yield HeaderSlot(id="header-slot") if defer else self._build_header()
        with Blank(id="panes"):
            if defer:
                yield from first_frame_slots(PANES)
            else:
                yield from self._build_panes()
        if defer:
            yield Blank(id="footer-slot")
        else:
            yield self._build_footer()
            self.panes_ready = True

    def on_mount(self) -> None:
        self._mounted = True
        hide_toast_rack(self)  # no layout of the whole screen after the first frame (see startup)
        if self.panes_ready:
            self.post_message(self.PanesReady())
        else:
            self._schedule_fill()

    @on(PanesReady)
    def _mount_sync_status(self) -> None:
        """The sync label and runner (/sync, ``[sync] auto``): after the first frame, not in it."""
        from agenttui.ui.widgets.sync_status import SyncStatus

        if not self.query(SyncStatus):
            self.mount(SyncStatus(self.services))

    @on(PanesReady)
    def _offer_folder_profile(self) -> None:
        """A project folder still on 'default': one toast offers it a profile (ui/folder_profile.py)."""
        from agenttui.ui.folder_profile import offer_folder_profile

        offer_folder_profile(self.app, self.services)

    def first_frame_shown(self) -> None:
        """Called by the app on Textual's ``Ready`` (its start-up batch is over)."""
        self._app_ready = True
        self._schedule_fill()

    def _schedule_fill(self) -> None:
        # Both the app's Ready (its start-up batch, and so the first frame, is over)
        # and our mount are needed. Then a quiet moment: keys typed at the first frame
        # (a paste, tmux send-keys) are echoed before the imports compete for the GIL.
        if self._app_ready and self._mounted and not self.panes_ready and not self._fill_scheduled:
            self._fill_scheduled = True
            self._start_fill(time.monotonic())

    def _start_fill(self, shown_at: float) -> None:
        quiet = app_parts(self).type_ahead.quiet_for(shown_at)
        if quiet < PANES_AFTER_S and time.monotonic() - shown_at < PANES_LATEST_S:
            set_timer(self, PANES_AFTER_S - quiet, lambda: self._start_fill(shown_at))
            return
        # ignore: mypy cannot infer ResultType from WorkType's union for a coroutine function
        self.run_worker(self._import_then_fill, group="fill-panes")  # type: ignore[arg-type]

    async def _import_then_fill(self) -> None:
        """A worker, not a handler: the screen's queue stays free to repaint what is typed."""
        import asyncio

        await asyncio.to_thread(import_panes)  # the early prompt takes keys meanwhile
        self.call_later(self._fill_panes)

    def _build_panes(self) -> list[Widget]:
        from agenttui.ui.widgets.chat_pane import ChatPane
        from agenttui.ui.widgets.history_pane import HistoryPane
        from agenttui.ui.widgets.memory_pane import MemoryPane

        return [MemoryPane(self.services, id="memory-pane"), ChatPane(self.services, id="chat-pane"),
                HistoryPane(self.services, id="history-pane")]

    def _build_header(self) -> Widget:
        from textual.widgets import Header

        return Header(icon=HEADER_ICON)

    def _build_footer(self) -> Widget:
        from agenttui.ui.widgets.app_footer import AppFooter

        return AppFooter(compact=self.has_class("-narrow"))

    async def _fill_panes(self) -> None:
        """Swap the slots for the real panes once the first frame is out."""
        if self.panes_ready or not self.is_attached:
            return
        type_ahead = app_parts(self).type_ahead
        type_ahead.close_early()  # keys typed from now on wait for the real prompt
        early = next(iter(self.query(EarlyPrompt)), None)
        panes = self._build_panes()
        for pane in panes:
            slot = self.query_one(f"#{pane.id}")
            for name in _CARRIED_CLASSES:
                pane.set_class(slot.has_class(name), name)
        box = self.query_one("#panes")
        with self.app.batch_update():  # one repaint: no frame without panes
            # Removing the early prompt lets it handle the keys already queued to it first.
            await box.remove_children()
            await box.mount_all(panes)
            await self.query_one("#footer-slot").remove()
            await self.query_one("#header-slot").remove()
            await self.mount(self._build_header(), self._build_footer())
            type_ahead.carry_over(early, self.chat.prompt)
        self.panes_ready = True
        if self.focused is None:
            self.set_focus(self.chat.prompt)  # now, not on the next turn of the queue (Widget.focus)
        self.post_message(self.PanesReady())  # the app then releases the keys it held

    @property
    def chat(self) -> ChatPane:
        """The chat pane; raises ``NoMatches`` while the slots stand (see :meth:`chat_or_none`)."""
        from agenttui.ui.widgets.chat_pane import ChatPane

        return self.query_one(PANE_IDS["chat"], ChatPane)

    def chat_or_none(self) -> ChatPane | None:
        """The chat pane, or None before the real panes are mounted or once the screen is
        closing: for callbacks (timers, workers' messages) that may run at either moment."""
        from textual.css.query import NoMatches

        if not self.panes_ready or not self.is_mounted:
            return None
        try:
            return self.chat  # by id: a breadth-first walk that stops at the pane, not the whole DOM
        except NoMatches:
            return None

    def open_conversation_id(self) -> str | None:
        """The conversation the chat shows (None: none, or no chat pane yet)."""
        chat = self.chat_or_none()
        return chat.conversation_id if chat is not None else None

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < NARROW_BELOW
        self.set_class(narrow, "-narrow")
        for footer in self.query("Footer"):
            footer.compact = narrow  # type: ignore[attr-defined]
        app_parts(self).refresh_header()  # its labels go when the line would not fit

    # -- panes ---------------------------------------------------------------
    def pane(self, name: str) -> Widget:
        return self.query_one(PANE_IDS[name])

    def toggle_pane(self, name: str) -> None:
        """F2 / F3 go to the pane: shown if hidden, and focused; pressed
        again inside it, the pane hides and the chat has the focus back. Alt+1/2/3 (the old
        focus keys) never reach the app in tmux or a macOS Terminal (alt+1 types "¡")."""
        pane = self.pane(name)
        if pane.display and (pane.has_focus_within or not self.panes_ready):
            pane.set_class(True, "-hidden")
            pane.set_class(False, "-shown")
            if self.panes_ready:
                self.chat.prompt.focus()
            return
        self.focus_pane(name)

    def show_pane(self, name: str) -> None:
        """Show the pane (as the user's choice) without moving the focus."""
        pane = self.pane(name)
        if not pane.display:
            pane.remove_class("-hidden").add_class("-shown")

    def focus_pane(self, name: str) -> None:
        pane = self.pane(name)
        self.show_pane(name)
        if not self.panes_ready:
            return
        if name == "chat":
            self.chat.prompt.focus()
        else:
            self.call_after_refresh(self._focus_first_in, pane)

    def _focus_first_in(self, pane: Widget) -> None:
        adding = pane.query("#memory-add")
        if adding:  # Memory: its add box; in the list, typing would run its keys (d deletes)
            adding.first().focus()
            return
        focus_default = getattr(pane, "focus_default", None)
        if focus_default is not None:  # History: its list, not the search box
            focus_default()
            return
        for widget in pane.query("*"):
            if widget.focusable:
                widget.focus()
                return
        if pane.focusable:
            pane.focus()

    # -- routing (messages come from the panes, so the panes are there) -------
    @on(messages.MemoryChanged)
    def _memory_changed(self) -> None:
        self.pane("memory").reload()  # type: ignore[attr-defined]

    @on(messages.MemoryOffered)
    def _memory_offered(self, event: messages.MemoryOffered) -> None:
        pane = self.pane("memory")
        shown = pane.offer(event.text, event.result)  # type: ignore[attr-defined]
        waiting = event.result.pending or event.result.status == "pending"
        if shown and waiting and not pane.display:
            # a narrow terminal hides the pane, and with it the question: say it where the user is
            self.notify(f"{inert_line(event.text, 200)}\nf2 opens the Memory pane: Remember or Dismiss it there.",
                        title="Remember this?", timeout=12)

    @on(messages.ConversationsChanged)
    def _conversations_changed(self) -> None:
        self.pane("history").reload()  # type: ignore[attr-defined]

    @on(messages.ConversationDeleted)
    async def _conversation_deleted(self, event: messages.ConversationDeleted) -> None:
        await self.chat.conversation_deleted(event.conversation_id)

    @on(messages.ConversationRequested)
    async def _conversation_requested(self, event: messages.ConversationRequested) -> None:
        if self.chat.incognito:  # a saved conversation: leave incognito first (it offers to save)
            await self.chat.incognito_mode.leave((event.conversation_id, event.message_id))
            return
        await self.chat.open_conversation(event.conversation_id, event.message_id)
        self.chat.prompt.focus()

    @on(messages.ProfileSwitched)
    async def _profile_switched(self, event: messages.ProfileSwitched) -> None:
        try:
            app_parts(self).refresh_header()
            if not self.panes_ready:
                return  # the panes load the new profile's data when they mount
            self.pane("memory").profile_switched()  # type: ignore[attr-defined]  # its offer stays with its profile
            self.pane("history").reload()  # type: ignore[attr-defined]
            await self.chat.incognito_mode.profile_switched()
            self.chat.open_latest()
        finally:
            event.shown.set()
