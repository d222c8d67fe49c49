"""A pty terminal whose output is read by a thread, each chunk stamped on arrival.

``PtyTerminal`` reads output only when asked, and parsing a chunk with pyte
(pure Python) takes milliseconds: output arriving meanwhile would be stamped
late, and a latency measured from it would include the bench's own parsing.
Here a thread reads the pty as soon as anything arrives and queues
``(arrival time, bytes)``; ``pump`` feeds the chunks to pyte in order and sets
``last_read_at`` to the arrival time of the chunk it just fed. So "the screen
shows X" is timed by when the bytes that completed X reached us, for every
compared app alike.
"""

from __future__ import annotations

import math
import os
import queue
import select
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.pty_terminal import PtyTerminal  # noqa: E402

Predicate = Callable[[str], bool]


class TimedPty(PtyTerminal):
    def __init__(self, argv: Sequence[str], **kwargs) -> None:
        super().__init__(argv, **kwargs)
        self._chunks: queue.Queue[tuple[float, bytes] | None] = queue.Queue()
        self._ended = False
        self._reader = threading.Thread(target=self._read_forever, daemon=True)
        self._reader.start()

    def _read_forever(self) -> None:
        while True:
            try:
                ready, _, _ = select.select([self.fd], [], [], 0.5)
                if not ready:
                    continue
                data = os.read(self.fd, 1 << 16)
            except (OSError, ValueError):
                data = b""
            if not data:
                self._chunks.put(None)
                return
            self._chunks.put((time.perf_counter(), data))

    def pump(self, timeout: float = 0.05) -> bool:
        """Feed the next arrived chunk (waiting up to ``timeout``); False once the child is gone."""
        if self._ended:
            return False
        try:
            item = self._chunks.get(timeout=timeout)
        except queue.Empty:
            return True
        if item is None:
            self._ended = True
            return False
        self.last_read_at, data = item
        self.bytes_read += len(data)
        self.stream.feed(data)
        return True

    def arrival_of(self, check: Predicate, timeout: float) -> float | None:
        """Feed chunks until ``check(screen text)`` holds; the arrival time of the chunk
        that made it hold (``None`` on timeout or if the child ended)."""
        deadline = time.perf_counter() + timeout
        if check(self.text()):
            return self.last_read_at
        while time.perf_counter() < deadline:
            if not self.pump(0.02):
                return None
            if check(self.text()):
                return self.last_read_at
        return None

    def idle(self, seconds: float) -> None:
        """Keep feeding output for ``seconds`` (the screen stays current while we wait)."""
        until = time.perf_counter() + seconds
        while (left := until - time.perf_counter()) > 0:
            if not self.pump(min(left, 0.02)):
                return

    def close(self) -> None:
        super().close()
        self._reader.join(timeout=1)


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (p95 of 40 samples is the 38th smallest)."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(fraction * len(ordered))))
    return ordered[rank - 1]
