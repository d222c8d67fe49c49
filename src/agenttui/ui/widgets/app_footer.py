"""Textual's ``Footer``, minus work that changes nothing on screen (Enter -> first words).

Textual recomposes the footer (~20 keys mounted, styled, laid out) whenever the
screen's bindings may have changed: focus moves, and twice per chat turn. Two
wastes, both removed here, with what is shown unchanged:

* Each ``FooterKey`` starts with ``compact = True`` and is then bound to the
  footer's value: on a wide terminal each new key gained the ``-compact`` class
  at mount and lost it at once, and every class change restyles the key. Here a
  key starts with the footer's value.
* A change that leaves the shown keys as they were (a turn too short for its
  "esc Stop" to have been shown, focus moving between widgets with the same
  keys) still recomposed. Here the keys that would be shown are compared with
  the ones that are, first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

if TYPE_CHECKING:
    from textual.screen import Screen

Shown = tuple[object, ...]


class AppFooter(Footer):
    _shown: Shown | None = None  # what the last compose showed

    def _would_show(self) -> Shown:
        """The key rows ``compose`` would build now, as comparable data."""
        keys = tuple((binding.key, binding.action, binding.description, binding.key_display, enabled, tooltip,
                      binding.group)
                     for (_, binding, enabled, tooltip) in self.screen.active_bindings.values() if binding.show)
        return keys, self.show_command_palette, self.app.ENABLE_COMMAND_PALETTE, self.combine_groups

    def compose(self) -> ComposeResult:
        self._shown = self._would_show() if self._bindings_ready else None
        compact = self.compact
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                widget.set_reactive(FooterKey.compact, compact)
                widget.set_class(compact, "-compact", update=False)
            yield widget

    def bindings_changed(self, screen: Screen) -> None:
        # Footer.bindings_changed, recomposing only if the keys shown would change
        self._bindings_ready = True
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        if self.is_attached and self._shown != self._would_show():
            await self.recompose()
