"""The draft's recall, worked out while the user types (before Enter).

Once typing pauses for ``PREPARE_AFTER_S`` on a draft of a few words, a
thread worker works out its recall (:func:`agenttui.core.context.assemble.prepare`:
the lexical search is kept) and, with ``[recall] semantic`` on, embeds and
ranks it (:func:`agenttui.core.recall.semantic.prepare`), so the turn that sends it
goes from Enter to the request without searching or waiting for an embedding
round trip. With semantic off, nothing is sent anywhere.

:class:`DraftRecall` is a hidden child widget of the Chat pane (it owns the
debounce timer and the worker) and reads the pane through :class:`DraftChat`.
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from textual import work
from textual.widget import Widget

from agenttui.ui.one_shot import OneShot, set_timer
from agenttui.ui.slash.table import parse

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

PREPARE_AFTER_S = 0.4  # a pause in typing this long embeds the draft ([recall] semantic)
PREPARE_MIN_WORDS = 3  # "ok thanks" is not worth a request; a question is
PREPARE_WAIT_S = 5.0  # the draft worker ends by then (the query timeout is 2 s)


def worth_preparing(text: str) -> bool:
    """A draft that will be sent as a message of a few words (not a slash command).

    Runs on every key: the split stops after ``PREPARE_MIN_WORDS`` words, so a
    pasted megabyte of prose costs no list of all its words per key.
    """
    return len(text.split(maxsplit=PREPARE_MIN_WORDS - 1)) >= PREPARE_MIN_WORDS and parse(text) is None


class DraftChat(Protocol):
    services: Services  # the incognito twin while incognito
    conversation_id: str | None


class DraftRecall(Widget):
    DEFAULT_CSS = "DraftRecall { display: none; }"

    def __init__(self, chat: DraftChat, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._chat = chat
        self._timer: OneShot | None = None  # the draft's debounce
        self.prepared = ""  # the last draft whose preparation started (the debounce ran out)

    @property
    def waiting(self) -> bool:
        """A pause in typing is awaited before the draft is prepared."""
        return self._timer is not None

    def later(self, text: str) -> None:
        """Work out the draft's recall once typing pauses (and embed it with ``[recall] semantic``)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self._chat.services.settings.recall.enabled and worth_preparing(text):
            self._timer = set_timer(self, PREPARE_AFTER_S, partial(self._due, text))

    def _due(self, text: str) -> None:
        self._timer = None
        self.prepared = text
        self._prepare(text)

    @work(thread=True, group="semantic-draft", exclusive=True, exit_on_error=False)
    def _prepare(self, text: str) -> None:
        """The draft's recall, worked out in a thread before Enter (the module doc).

        Bounded by the draft's size, not by the paste: recall searches for a
        long message by its head and tail only (``recall_query``, at most
        ``RECALL_QUERY_MAX_CHARS``; the turn does the same, so what is kept here
        is what it looks up), the word count on each key stops at a few words
        (:func:`worth_preparing`), and the regexes on the way run in linear
        time. A thread alone would not do: ``re`` holds the GIL for a whole
        match, so a slow one froze the screen from a worker too. Exclusive: a
        new pause in typing cancels the previous draft's worker instead of
        queueing behind it.
        """
        from agenttui.core.context.assemble import prepare as prepare_recall
        from agenttui.core.recall.semantic import prepare
        from agenttui.core.recall.text import recall_query

        services, conversation_id = self._chat.services, self._chat.conversation_id
        with contextlib.suppress(Exception):  # a warm-up only: the turn reports its own failures
            prepare_recall(services, conversation_id, text)  # as the turn will send it
        ready = prepare(services, recall_query(text.strip()))
        if ready is not None:  # waited for so the worker's end means "ready" (or given up)
            with contextlib.suppress(Exception):  # a failure is the turn's to report
                ready.result(timeout=PREPARE_WAIT_S)
