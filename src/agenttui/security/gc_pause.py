"""The cyclic garbage collector paused around work that makes many objects and no cycles.

Redacting secret-dense text and auditing memory allocate hundreds of thousands of
small objects (matches, tuples, postings) that reference counting frees; the
collector's passes over them cost 4-15 % of that work for nothing. Both run in
worker threads, possibly at once, and ``gc`` is one switch for the process: each
call saving and restoring it on its own could end with the collector off for
good (a thread reading "off" just before another turned it back on). So the
pauses are counted: the first one in turns the collector off, the last one out
restores it as it found it (a program that turned it off keeps it off).

Here, in the package that depends on nothing of ours, so redaction can use it; the
audit (core) imports it from here.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_pauses = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off for the block (and any overlapping one, in any thread)."""
    global _pauses, _was_enabled
    with _lock:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _was_enabled:
                gc.enable()


@contextmanager
def collector_resumed() -> Iterator[None]:
    """Inside a pause, the collector on again for a block that waits on the network or a user
    (seconds in which other threads allocate); off again after it while a pause remains."""
    with _lock:
        resume = _pauses > 0 and _was_enabled
        if resume:
            gc.enable()
    try:
        yield
    finally:
        with _lock:
            if resume and _pauses > 0:
                gc.disable()
