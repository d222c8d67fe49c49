"""A dialog answers once, however many keys its answer came with.

Textual's ``OptionList`` posts ``OptionSelected`` for every Enter it gets (a ``Button``
ignores a press while its last one still shows). Two Enters typed at once -- an impatient
double press, a held key, Enter and Esc in one burst -- both reached the dialog's handler
before it had gone, and the second ``dismiss`` popped the screen *under* the dialog: the
memory audit closed with the merge dialog, and over the main screen alone Textual's
``ScreenStackError`` ended the app (found by a random key storm in tmux).
"""

from __future__ import annotations

from typing import TypeVar

from textual.screen import Screen

ResultType = TypeVar("ResultType")


def dismiss_once(screen: Screen[ResultType], result: ResultType | None = None) -> None:
    """``screen.dismiss(result)`` while ``screen`` is the one on top; nothing once it has gone."""
    if screen.is_attached and screen.app.screen is screen:
        screen.dismiss(result)
