"""The command palette's entries (ctrl+p): every bound action, with its current key.

Not the slash commands typed in the prompt: those are :mod:`agenttui.ui.slash`.
"""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from agenttui.ui.bindings import APP_ACTIONS
from agenttui.ui.host import app_parts


class AgentCommands(Provider):
    def _entries(self):
        parts = app_parts(self.app)
        for spec in APP_ACTIONS:
            key = parts.key_for(spec.id)
            yield spec, f"{spec.description}", f"{key}  ·  {spec.id}"

    async def discover(self) -> Hits:
        for spec, name, help_text in self._entries():
            yield DiscoveryHit(name, partial(self.app.run_action, spec.action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for spec, name, help_text in self._entries():
            score = max(matcher.match(name), matcher.match(spec.id))
            if score > 0:
                yield Hit(score, matcher.highlight(name), partial(self.app.run_action, spec.action),
                          help=help_text)
