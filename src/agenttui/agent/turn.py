"""One turn's lifecycle, for the app's chat and for ``agenttui ask``.

The chat pane used to keep a turn's state in about fifteen flags spread over
the pane and its mixins (the cancel event, "stopping", the text and stored id
to retry, "a message waits for the lookup", the lookup's generation counter,
the /attach image, /end's "archive after this turn", ...). They are one state
here, with no UI in it: the UI renders events and mutates widgets, this
module says where the turn is.

A :class:`Turn` is what is being sent (text, image, the stored question it
answers again, the question it replaces) and its :class:`Phase`::

    WAITING --> STREAMING --> ENDED

* ``WAITING``: sent while the profile's latest conversation is still being
  looked up (the app's cold start opens the history store): the turn waits
  for that lookup (:meth:`TurnController.conversation_ready`, a few ms) and
  continues the latest conversation, as ``agenttui ask`` does.
* ``stopped`` (in either running phase): the user stopped it (Esc); the loop winds
  down, saving what came. A flag, not a phase: a message stopped while it waits
  for the lookup still waits for it, so it stays in the latest conversation.
* ``ENDED``: :attr:`Turn.outcome` says finished, failed or cancelled. A failed
  (retryable) or cancelled turn keeps the user's message (:attr:`TurnController.kept`):
  a retry sends that text again, answering the stored question when it was
  stored (``retry_of``), afresh when it was cut before.

:class:`LatestLookup` is the other half of a cold start: a generation counter,
so the lookup's late answer is dropped once the user opened or sent
something, and an event for "answered".

The controller runs the real loop (:func:`agenttui.agent.loop.run_turn`,
imported lazily: it imports ``openai``) through :meth:`TurnController.events`
and learns from each event in :meth:`TurnController.observe`, which the
consumer calls where it handles the event (the pane's message handler, ask's
loop): the state changes when the event is shown, not before.

Decision (where the old flags were silent): /end's "archive after this turn"
belongs to the turn that carries /end's instruction; when that message is not
sent (a reply still streams), nothing is archived later.
"""

from __future__ import annotations

import asyncio
import enum
import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agenttui.agent import events as ev

if TYPE_CHECKING:
    from agenttui.bootstrap import Services


class Phase(enum.Enum):
    WAITING = "waiting"  # sent; waits for the latest-conversation lookup to know its conversation
    STREAMING = "streaming"  # the loop runs (request, reply, tools)
    ENDED = "ended"  # finished, failed or cancelled: see ``Turn.outcome``


class Outcome(enum.Enum):
    FINISHED = "finished"  # a reply (also one a step/time limit cut short)
    FAILED = "failed"  # the endpoint or a tool failed; the partial reply is kept
    CANCELLED = "cancelled"  # stopped by the user (Esc) or by leaving the conversation


@dataclass(eq=False)
class Turn:
    """One message being answered: what is sent, and where its answer is."""

    number: int  # events of an earlier (abandoned) turn are told apart by it
    text: str
    image: str | None = None  # /attach or --image: a path, checked when attached
    retry_of: int | None = None  # the stored question answered again (set once it is stored)
    edit_of: int | None = None  # the question this one replaces (a new branch)
    then_archive: bool = False  # /end: archive the session when this turn finishes
    conversation_id: str | None = None  # where it runs, once known (/end archives that one)
    phase: Phase = Phase.STREAMING
    stopped: bool = False  # the user stopped it (Esc): shown as cancelled at once, winding down
    cancel: asyncio.Event = field(default_factory=asyncio.Event)
    retry_when_stopped: bool = False  # a retry was asked while it wound down: run it after
    outcome: Outcome | None = None
    stop_reason: ev.StopReason | None = None
    retryable: bool = False  # ended failed (retryable) or cancelled: its message can be sent again
    seen: int | None = None  # the newest message on screen when sent (run_turn's ``seen``)

    @property
    def running(self) -> bool:
        return self.phase is not Phase.ENDED


class LatestLookup:
    """The profile's latest conversation being looked up; a generation counter drops stale answers."""

    def __init__(self) -> None:
        self.opening = 0  # bumped by anything the user opens or sends
        self.done = asyncio.Event()  # the current lookup has been answered (and handled)
        self.done.set()

    @property
    def pending(self) -> bool:
        return not self.done.is_set()

    def begin(self) -> int:
        """A new lookup: its number, to hand back with its answer."""
        self.opening += 1
        self.done = asyncio.Event()
        return self.opening

    def current(self, opening: int) -> bool:
        return opening == self.opening

    def answered(self, opening: int) -> None:
        if self.current(opening):
            self.done.set()

    def supersede(self) -> None:
        """The user opened or sent something: a lookup still running must not replace it."""
        self.opening += 1
        self.done.set()


class TurnController:
    """A chat's turns, one at a time: start, wait, run, stop, end, keep the message to retry."""

    def __init__(self) -> None:
        self.turn: Turn | None = None  # the latest turn (running or ended); None: none yet / left
        self.lookup = LatestLookup()
        self.image: str | None = None  # attached for the next message (/attach)
        self.queued: list[str] = []  # sent while a reply streamed: sent when it ends, in order
        # The slash command running (its name), e.g. /remember waiting on another process's
        # memory lock, and what was sent meanwhile: held, and handled in order when it ends,
        # as if typed then (a message after "/incognito" is incognito, after "/remember" sees the note).
        self.command: str | None = None
        self.held: list[str] = []
        self._numbers = itertools.count(1)

    # -- what the UI asks ------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.turn is not None and self.turn.running

    @property
    def waiting(self) -> bool:
        """A message sent during the latest-conversation lookup waits for it."""
        return self.turn is not None and self.turn.phase is Phase.WAITING

    @property
    def stopping(self) -> bool:
        """The user stopped the latest turn (Esc): it winds down, or has since."""
        return self.turn is not None and self.turn.stopped

    @property
    def kept(self) -> Turn | None:
        """The failed or cancelled turn whose message a retry sends again; None: nothing to retry."""
        turn = self.turn
        return turn if turn is not None and not turn.running and turn.retryable else None

    def is_current(self, number: int) -> bool:
        return self.turn is not None and self.turn.number == number

    # -- transitions -----------------------------------------------------------------
    def start(self, text: str, *, conversation_known: bool, image: str | None = None,
              retry_of: int | None = None, edit_of: int | None = None, then_archive: bool = False) -> Turn:
        """A new turn for ``text``. It waits for the latest-conversation lookup only when no
        conversation is open and one is running; otherwise that lookup's answer is dropped.
        A new message takes the attached image; answering a stored question again does not."""
        waits = not conversation_known and self.lookup.pending
        if not waits:
            self.lookup.supersede()
        if retry_of is None and image is None:
            image = self.image
        self.image = None
        turn = Turn(next(self._numbers), text, image, retry_of, edit_of, then_archive,
                    phase=Phase.WAITING if waits else Phase.STREAMING)
        self.turn = turn
        return turn

    async def conversation_ready(self, turn: Turn, timeout: float) -> None:
        """A waiting turn waits (at most ``timeout`` s) for the lookup; too slow: the turn starts a
        new conversation and the late answer is dropped."""
        if turn.phase is not Phase.WAITING:
            return
        try:
            await asyncio.wait_for(self.lookup.done.wait(), timeout)
        except TimeoutError:
            self.lookup.supersede()
        turn.phase = Phase.STREAMING

    def conversation_lost(self, turn: Turn) -> None:
        """The turn's conversation was deleted before it ran: its message is sent afresh."""
        turn.retry_of = turn.edit_of = None

    def cancel(self) -> bool:
        """Ask the running turn to stop (leaving it, another conversation opening). False: none runs."""
        if not self.running:
            return False
        assert self.turn is not None
        self.turn.cancel.set()
        return True

    def stop(self) -> bool:
        """The user stops the running turn (Esc): cancelled, and marked as winding down."""
        if self.stopping or not self.cancel():
            return False
        assert self.turn is not None
        self.turn.stopped = True
        return True

    def abandon(self) -> None:
        """Drop the running turn (its conversation was deleted): cancelled, nothing of it shown."""
        self.cancel()
        self.turn = None

    def forget_kept(self) -> None:
        """Another conversation is shown: the failed message is not retried there."""
        if self.turn is not None and not self.turn.running:
            self.turn.retryable = False

    @property
    def unsent(self) -> list[str]:
        """What was sent and is not yet: queued behind a reply, then held behind a command."""
        return self.queued + self.held

    def take_queued(self) -> str | None:
        return self.queued.pop(0) if self.queued else None

    def observe(self, event: ev.AgentEvent) -> None:
        """Learn from an event of the current turn, where the consumer handles it."""
        turn = self.turn
        if turn is None:
            return
        if isinstance(event, ev.TurnStarted):
            turn.retry_of = event.user_message.id  # stored: a retry answers this message again
        elif isinstance(event, ev.TurnFinished | ev.TurnFailed):
            cancelled = event.stop_reason == "cancelled"
            turn.phase = Phase.ENDED
            turn.stop_reason = event.stop_reason
            if cancelled:
                turn.outcome = Outcome.CANCELLED
            else:
                turn.outcome = Outcome.FAILED if isinstance(event, ev.TurnFailed) else Outcome.FINISHED
            turn.retryable = cancelled or (isinstance(event, ev.TurnFailed) and event.retryable)

    # -- running -------------------------------------------------------------------------
    async def events(self, services: Services, conversation_id: str, turn: Turn, *,
                     model: str | None = None, client: Any = None) -> AsyncIterator[ev.AgentEvent]:
        """The turn's events from the agent loop (the consumer passes each to :meth:`observe`)."""
        from agenttui.agent.loop import run_turn  # imports openai: not at start-up

        turn.conversation_id = conversation_id
        async for event in run_turn(services, conversation_id, turn.text, image_path=turn.image,
                                    model=model, cancel=turn.cancel, retry_of=turn.retry_of,
                                    edit_of=turn.edit_of, client=client, seen=turn.seen):
            yield event
