"""Textual's command palette, with its list's keys safe before the list is laid out.

Textual's ``OptionList`` pages by a map from option to line that its layout builds; the
palette hands PageUp/PageDown (and the other list keys) to its list from the app's own key
handling. Pressed as the palette opens -- ctrl+p then PageDown at once, before the list
has been laid out -- the map was empty, ``KeyError`` escaped the app's message loop and the
app ended (found by a random key storm in tmux; then by hand: ctrl+p, PageDown).
"""

from __future__ import annotations

from textual.command import CommandPalette


class SafeCommandPalette(CommandPalette):
    def _action_command_list(self, action: str) -> None:
        try:
            super()._action_command_list(action)
        except KeyError:  # the list's line map, not built yet: the key has nothing to move
            return
