"""The empty chat's welcome: what to type, where help is, that memory is used.

Shown while no conversation is open and nothing is in the log; it goes as
soon as anything is in the log.
"""

from __future__ import annotations

from textual.widgets import Static

from agenttui.ui.host import app_parts


class ChatWelcome(Static):
    def welcome_text(self) -> str:
        key = app_parts(self).key_for
        lines = [
            f"Type below; Enter sends ({key('chat.newline').split(',')[-1]}: new line).",
            f"/help or {key('app.help')}: commands and keys · ctrl+p: command palette.",
            "/remember <something> keeps a note that every later answer uses "
            f"(Memory pane: {key('app.toggle_memory')} · the prompt sent: {key('chat.inspect_prompt')}).",
            f"Past conversations: History pane ({key('app.toggle_history')}).",
        ]
        return "Welcome to agenttui.\n\n" + "\n".join(f"• {line}" for line in lines)

    def show(self, shown: bool) -> None:
        if shown:
            self.update(self.welcome_text())
        self.display = shown
