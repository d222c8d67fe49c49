"""A chat's state as a front end shows it: a turn is running, the last message can be
asked again, the chat is incognito. UI-free.

The turn controller (:mod:`agenttui.agent.turn`) holds each turn's own state;
this is what a screen draws from it, kept in one place: the Chat pane's
reactives (``streaming``, ``can_retry``) and its incognito look are set from
here through ``on_change``, never assigned on their own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from agenttui.agent.turn import TurnController

Field = Literal["streaming", "can_retry", "incognito"]


class ChatSession:
    def __init__(self, on_change: Callable[[Field, bool], None] | None = None) -> None:
        self.turns = TurnController()
        self.on_change = on_change  # told every change (field, new value)
        self._state: dict[Field, bool] = {"streaming": False, "can_retry": False, "incognito": False}

    @property
    def streaming(self) -> bool:
        """A turn runs (from Enter until its end is shown)."""
        return self._state["streaming"]

    @property
    def can_retry(self) -> bool:
        """The last message, cut or failed, can be sent again (ctrl+r)."""
        return self._state["can_retry"]

    @property
    def incognito(self) -> bool:
        return self._state["incognito"]

    def _set(self, name: Field, value: bool) -> None:
        if self._state[name] != value:
            self._state[name] = value
            if self.on_change is not None:
                self.on_change(name, value)

    # -- what happened --------------------------------------------------------------
    def turn_started(self) -> None:
        self._set("can_retry", False)
        self._set("streaming", True)

    def turn_over(self) -> None:
        """The turn's end is shown (finished, failed, cancelled, or abandoned)."""
        self._set("streaming", False)

    def turn_cut(self) -> None:
        """The turn failed or was cancelled: retry is possible when its message was kept."""
        self._set("can_retry", self.turns.kept is not None)

    def conversation_left(self) -> None:
        """Another conversation is shown: nothing of the last one is asked again."""
        self.turns.forget_kept()
        self._set("can_retry", False)

    def set_incognito(self, on: bool) -> None:
        self._set("incognito", on)
