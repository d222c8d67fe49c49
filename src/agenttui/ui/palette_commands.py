"""The command palette's entries (ctrl+p): every bound action with its current key, and every
slash command with its help line.

Both come from the tables that run them (``bindings.APP_ACTIONS`` and ``slash.table.COMMANDS``),
so the palette, the keys, ``/help`` and dispatch never disagree. A slash command that takes an
argument is put in the prompt (``/export ``) for the user to finish; one without runs at once,
through the same dispatch as typing it. Textual's own system entries that we already have
(Quit) are left out by the app (``AgentTUI.get_system_commands``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

from agenttui.ui.bindings import APP_ACTIONS
from agenttui.ui.host import app_parts
from agenttui.ui.slash.table import COMMANDS, SlashCommand

if TYPE_CHECKING:
    from textual.app import App


def slash_entries() -> Iterator[tuple[SlashCommand, str, str]]:
    """(command, palette name, help line) of every slash command."""
    for command in COMMANDS:
        usage = f" {command.usage}" if command.usage else ""
        yield command, f"/{command.name}", f"{command.help}  ·  /{command.name}{usage}"


async def run_slash_from_palette(app: App[object], command: SlashCommand) -> None:
    from agenttui.ui.widgets.chat_pane import ChatPane

    chat = next(iter(app.screen.query(ChatPane)), None)
    if chat is None:
        app.notify("The chat is not on screen.", severity="warning")
        return
    if command.required or command.usage.startswith(("TEXT", "PATH", "SUBSTRING")):
        chat.prompt.load_text(f"/{command.name} ")  # the argument is the user's to type
        chat.prompt.move_cursor(chat.prompt.document.end)
        chat.prompt.focus()
        return
    chat.commands.run(f"/{command.name}")  # as typed: after a command still running


class AgentCommands(Provider):
    def _entries(self) -> Iterator[tuple[str, str, str, Callable[[], Awaitable[object]]]]:
        parts = app_parts(self.app)
        for spec in APP_ACTIONS:
            key = parts.key_for(spec.id)
            yield spec.id, spec.description, f"{key}  ·  {spec.id}", partial(self.app.run_action, spec.action)
        for command, name, help_text in slash_entries():
            yield command.name, name, help_text, partial(run_slash_from_palette, self.app, command)

    async def discover(self) -> Hits:
        for _, name, help_text, run in self._entries():
            yield DiscoveryHit(name, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for ident, name, help_text, run in self._entries():
            score = max(matcher.match(name), matcher.match(ident), matcher.match(help_text) * 0.5)
            if score > 0:
                yield Hit(score, matcher.highlight(name), run, help=help_text)
