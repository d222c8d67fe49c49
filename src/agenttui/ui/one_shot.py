"""One-shot timers that fire on a busy machine too.

Textual's ``set_timer`` makes a ``Timer`` with ``repeat=0`` and ``skip=True``. Its
task reads the clock once for the start and again before it sleeps; when the task
is held up between the two reads for longer than the delay (a loaded machine, a
garbage collection, a long handler on the same loop), it counts the one tick as
missed and ends **without calling back**. A flush, a debounced search or the
start-up's pane fill then never happened, and nothing said so (a streamed reply
stopped showing until its end under two CPU hogs; Textual 8.2).

:func:`set_timer` here asks asyncio for the delay and then runs the callback on
the node's own queue (``call_next``), between its messages, as a handler would.
The handle's ``stop()`` cancels it, also once it waits in the node's queue; a node
that is gone by then never runs it (its queue is closed).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.message_pump import MessagePump


class OneShot:
    """``callback`` run once on ``node``'s queue ``delay`` seconds from now."""

    def __init__(self, node: MessagePump, delay: float, callback: Callable[[], Any]) -> None:
        self._callback = callback
        self._stopped = False
        self._handle = asyncio.get_running_loop().call_later(max(0.0, delay), node.call_next, self._due)

    def _due(self) -> Any:
        # stopped after the delay ran out but before the node's queue came to it: a debounce
        # replaced meanwhile must not run its old callback
        return None if self._stopped else self._callback()

    def stop(self) -> None:
        self._stopped = True
        self._handle.cancel()


def set_timer(node: MessagePump, delay: float, callback: Callable[[], Any]) -> OneShot:
    return OneShot(node, delay, callback)
