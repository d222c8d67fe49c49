"""The main screen (U1): header, Memory | Chat | History, footer.

Pane visibility: each sidebar is shown by default when the terminal is at
least ``NARROW_BELOW`` columns wide and hidden below that; toggling a pane
records the user's choice as a class (``-shown`` / ``-hidden``) which wins
over the width rule. The screen routes app messages between panes so panes
never reach into each other.
"""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Header

from agenttui.ui import messages
from agenttui.ui.widgets.chat_pane import ChatPane
from agenttui.ui.widgets.history_pane import HistoryPane
from agenttui.ui.widgets.memory_pane import MemoryPane

NARROW_BELOW = 100
PANE_IDS = {"memory": "#memory-pane", "chat": "#chat-pane", "history": "#history-pane"}


class MainScreen(Screen):
    CSS_PATH = "main.tcss"
    AUTO_FOCUS = "#prompt"

    def __init__(self, services) -> None:
        super().__init__()
        self.services = services

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        with Horizontal(id="panes"):
            yield MemoryPane(self.services, id="memory-pane")
            yield ChatPane(self.services, id="chat-pane")
            yield HistoryPane(self.services, id="history-pane")
        yield Footer()

    @property
    def chat(self) -> ChatPane:
        return self.query_one(ChatPane)

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < NARROW_BELOW
        self.set_class(narrow, "-narrow")
        self.query_one(Footer).compact = narrow

    # -- panes ---------------------------------------------------------------
    def pane(self, name: str) -> Widget:
        return self.query_one(PANE_IDS[name])

    def pane_visible(self, name: str) -> bool:
        return self.pane(name).display

    def toggle_pane(self, name: str) -> None:
        pane = self.pane(name)
        visible = pane.display
        pane.set_class(visible, "-hidden")
        pane.set_class(not visible, "-shown")
        if visible and pane.has_focus_within:
            self.chat.prompt.focus()

    def focus_pane(self, name: str) -> None:
        pane = self.pane(name)
        if not pane.display:
            pane.remove_class("-hidden").add_class("-shown")
        if name == "chat":
            self.chat.prompt.focus()
        else:
            self.call_after_refresh(self._focus_first_in, pane)

    def _focus_first_in(self, pane: Widget) -> None:
        for widget in pane.query("*"):
            if widget.focusable:
                widget.focus()
                return
        if pane.focusable:
            pane.focus()

    # -- routing -------------------------------------------------------------
    @on(messages.MemoryChanged)
    def _memory_changed(self) -> None:
        self.query_one(MemoryPane).reload()

    @on(messages.MemoryOffered)
    def _memory_offered(self, event: messages.MemoryOffered) -> None:
        self.query_one(MemoryPane).offer(event.text, event.result)

    @on(messages.ConversationsChanged)
    def _conversations_changed(self) -> None:
        self.query_one(HistoryPane).reload()

    @on(messages.ConversationRequested)
    async def _conversation_requested(self, event: messages.ConversationRequested) -> None:
        await self.chat.open_conversation(event.conversation_id, event.message_id)
        self.chat.prompt.focus()

    @on(messages.ProfileSwitched)
    async def _profile_switched(self, event: messages.ProfileSwitched) -> None:
        self.app.refresh_header()
        self.query_one(MemoryPane).reload()
        self.query_one(HistoryPane).reload()
        self.chat.open_latest()
