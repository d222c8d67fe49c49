"""Quitting while messages typed during a reply wait to be sent.

They are in no store yet (they reach history when they are sent, after the reply),
so quitting dropped them without a word. The app asks first: Quit, or ``ctrl+q``
pressed again, goes; Esc keeps agenttui open with them still queued.
"""

from __future__ import annotations

from agenttui.ui.screens.confirm import ConfirmScreen
from agenttui.ui.widgets.incognito_mode import ENTER_QUEUED


class QuitConfirm(ConfirmScreen):
    """The confirm dialog for quitting with a queue (``AgentTUI.action_quit`` knows it by type)."""

    @classmethod
    def for_queue(cls, queued: list[str], during: str = "the reply") -> QuitConfirm | None:
        """The question for the chat's queue (typed ``during`` what); None when it holds no message
        (only ``/incognito``)."""
        waiting = [text for text in queued if text != ENTER_QUEUED]
        if not waiting:
            return None
        many = len(waiting) != 1
        first = " ".join(waiting[0].split())
        shown = first if len(first) <= 60 else first[:59] + "…"
        return cls("Quit with messages not sent?",
                   f"{len(waiting)} message{'s' if many else ''} typed during {during} "
                   f"{'are' if many else 'is'} queued, not sent and not saved (“{shown}”); quitting drops "
                   f"{'them' if many else 'it'}. Esc keeps agenttui open.", confirm_label="Quit")
